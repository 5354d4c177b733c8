#include "core/spec/network_batch.h"

#include <vector>

namespace paleo {
namespace {

// Whether a shape whose sample dimension becomes `samples` stays within kMaxElements (its other
// dimensions were validated when the network was built).
bool in_range(Dim samples, const Shape& shape) {
  Dim rest = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) rest *= shape[i];
  return samples > 0 && samples <= kMaxElements / rest;
}

// The sample count of a layer's output, from its parents': every layer keeps its first input's,
// except a concatenation along the samples, which adds them up. (With two or more inputs such a
// concatenation's output has more samples than its first input; with one they agree.)
Dim output_samples(const Layer& l, const std::vector<Dim>& samples, Dim batch_size) {
  if (l.kind == LayerKind::kInput) return batch_size;
  const auto first = static_cast<std::size_t>(l.parents[0]);
  if (l.kind != LayerKind::kConcatenate || l.output[0] == l.inputs[0][0]) return samples[first];
  // Each part is within kMaxElements: stop adding past it (the caller's range check then fails)
  // rather than overflow.
  Dim sum = 0;
  for (int p : l.parents) {
    sum += samples[static_cast<std::size_t>(p)];
    if (sum > kMaxElements) return sum;
  }
  return sum;
}

}  // namespace

void rebatch(Network& net, const NetSpec& spec, const LayerGraph& graph, Dim batch_size, const ModelProfile& profile) {
  if (batch_size == net.batch_size) return;
  bool fits = batch_size > 0 && batch_size <= kMaxElements;
  std::vector<Dim> samples(net.layers.size(), 0);
  for (std::size_t i = 0; fits && i < net.layers.size(); ++i) {
    const Layer& l = net.layers[i];
    samples[i] = output_samples(l, samples, batch_size);
    fits = in_range(samples[i], l.output);
    for (std::size_t k = 0; fits && k < l.parents.size(); ++k)
      fits = in_range(samples[static_cast<std::size_t>(l.parents[k])], l.inputs[k]);
  }
  if (!fits) {  // the spec's own checks say what is out of range
    net = build_network(spec, graph, batch_size, profile);
    return;
  }
  for (std::size_t i = 0; i < net.layers.size(); ++i) {
    Layer& l = net.layers[i];
    l.output[0] = samples[i];
    for (std::size_t k = 0; k < l.parents.size(); ++k)
      l.inputs[k][0] = samples[static_cast<std::size_t>(l.parents[k])];
    if (l.kind == LayerKind::kConvolution) {
      l.conv.input[0] = l.inputs[0][0];
      l.conv.output[0] = l.output[0];
    } else if (l.kind == LayerKind::kDeconvolution) {  // its transposed convolution runs output to input
      l.conv.input[0] = l.output[0];
      l.conv.output[0] = l.inputs[0][0];
    }
  }
  net.batch_size = batch_size;
}

}  // namespace paleo
