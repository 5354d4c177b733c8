#include "core/cost/work_depth.h"

#include <cmath>

namespace paleo {
namespace {

double clog2(double x) { return x > 1 ? std::ceil(std::log2(x)) : 0; }

double values_of(const Shape& s) {
  double v = 1;
  for (Dim d : s) v *= static_cast<double>(d);
  return s.empty() ? 0 : v;
}

}  // namespace

double device_lanes(const Device& device) {
  return device.clock_mhz > 0 ? device.peak_gflops * 1e3 / (2 * device.clock_mhz) : 0;
}

std::vector<LayerWorkDepth> work_depth(const Network& net, double lanes) {
  std::vector<LayerWorkDepth> out;
  for (const Layer& l : net.layers) {
    LayerWorkDepth w;
    w.name = l.name;
    w.type = l.type;
    const double outputs = values_of(l.output);
    switch (l.kind) {
      case LayerKind::kConvolution:
      case LayerKind::kDeconvolution: {
        const double cin = static_cast<double>(l.conv.cin) / static_cast<double>(l.conv.groups > 0 ? l.conv.groups : 1);
        const double taps = static_cast<double>(l.conv.kh * l.conv.kw);
        // Deconvolution: its transposed convolution's outputs are the layer's inputs.
        const double positions = l.kind == LayerKind::kConvolution ? outputs : values_of(l.conv.output);
        w.work = positions * cin * taps;
        w.depth = clog2(cin) + clog2(static_cast<double>(l.conv.kh)) + clog2(static_cast<double>(l.conv.kw));
        break;
      }
      case LayerKind::kInnerProduct: {
        const double cin = l.weights.size() == 2 ? static_cast<double>(l.weights[0]) : 1;
        w.work = outputs * cin;
        w.depth = clog2(cin);
        break;
      }
      case LayerKind::kMatMul: {
        // Batched products of two activations: each output sums K products (K = weights[0]).
        const double k = l.weights.size() == 2 ? static_cast<double>(l.weights[0]) : 1;
        w.work = outputs * k;
        w.depth = clog2(k);
        break;
      }
      case LayerKind::kRecurrent: {
        // T dependent steps, each a product over I + H inputs and the gate arithmetic.
        const double span = static_cast<double>(l.inputs[0][2] + l.rnn_units);
        w.work = outputs * static_cast<double>(l.rnn_gates) * span;
        w.depth = static_cast<double>(l.output[1]) * (clog2(span) + 2);
        break;
      }
      case LayerKind::kPooling:
        w.work = outputs * static_cast<double>(l.pool_kh * l.pool_kw);
        w.depth = clog2(static_cast<double>(l.pool_kh)) + clog2(static_cast<double>(l.pool_kw));
        break;
      case LayerKind::kSoftmax:
        w.work = outputs;
        w.depth = l.output.empty() ? 0 : clog2(static_cast<double>(l.output.back()));
        break;
      case LayerKind::kInput:
      case LayerKind::kReshape:
        break;
      default:
        w.work = outputs;
        // Batch norm reduces over the batch, layer norm over each sample's channels (the last dimension).
        w.depth = l.output.empty()             ? 1
                  : l.type == "BatchNorm" ? clog2(static_cast<double>(l.output[0]))
                  : l.type == "LayerNorm" ? clog2(static_cast<double>(l.output.back()))
                                          : 1;
        break;
    }
    if (w.work > 0 && w.depth <= 0) w.depth = 1;  // a single step still takes one
    w.fills_device = w.work <= 0 || lanes <= 0 || w.parallelism() >= lanes;
    out.push_back(w);
  }
  return out;
}

}  // namespace paleo
