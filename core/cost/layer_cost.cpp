#include "core/cost/layer_cost.h"

#include "core/cost/layout_conversion.h"
#include "core/cost/memory_bound_cost.h"
#include "core/cost/recurrent_cost.h"

namespace paleo {
namespace {

// `batches` products of two activations [m, k] x [k, n] (a MatMul layer: attention's scores, its
// weighted sum of values); every operand is read or written once per batch.
PassCost batched_matmul_cost(const CostModel& model, double batches, double m, double k, double n) {
  PassCost cost;
  GemmShape shape;
  shape.m = batches * m;
  shape.n = shape.align_n = n;
  shape.k = shape.align_k = k;
  model.add_matmul(cost, 2 * batches * m * k * n, shape);
  for (double elements : {m * k, k * n, m * n}) model.add_mem(cost, batches * elements * model.activation_bytes());
  return cost;
}

// Read the input and write the output: pooling and dropout.
PassCost elementwise_cost(const CostModel& model, const Layer& l, double flops) {
  PassCost cost;
  model.add_comp(cost, flops);
  model.add_mem(cost, product(l.inputs[0]) * model.activation_bytes());
  model.add_mem(cost, product(l.output) * model.activation_bytes());
  return cost;
}

// Groups of four devices. The split number is kept as a number: reading it back from its text
// (atol) would silently take anything unreadable for device 0.
std::int64_t device_group(const Layer& l) { return l.on_split_device ? l.split_index / 4 : 0; }

bool on_other_device(const Layer& a, const Layer& b, bool original_rules) {
  // The original compared the string "0" of a split with the integer 0 of an unsplit layer.
  if (original_rules) return a.on_split_device != b.on_split_device || a.split_device != b.split_device;
  // a.device_id() != b.device_id(), without building either string.
  static const std::string device_zero = "0";
  const std::string& da = a.on_split_device ? a.split_device : device_zero;
  const std::string& db = b.on_split_device ? b.split_device : device_zero;
  return da != db;
}

// Original _estimate_remote_fetch: pull each input that lives on another device; each parent
// in another group of four devices halves the bandwidth (cumulatively, in the original).
double fetch_ms(const Network& net, const Layer& l, const CostModel& model, const CostOptions& options) {
  double bandwidth = options.fetch_bandwidth_gb_per_s.value_or(model.device().mem_bandwidth_gb_per_s);
  const bool original = model.profile().original_fetch_rules;
  double total = 0;
  if (l.parents.size() == 1) {
    if (on_other_device(l, net.layers[l.parents[0]], original))
      total += model.fetch_ms(product(l.inputs[0]) * model.activation_bytes(), bandwidth);
    return total;
  }
  for (std::size_t i = 0; i < l.parents.size(); ++i) {
    const Layer& parent = net.layers[l.parents[i]];
    if (!on_other_device(l, parent, original)) continue;
    double bw = bandwidth;
    if (device_group(l) != device_group(parent)) {
      bw /= 2;
      if (original) bandwidth = bw;
    }
    total += model.fetch_ms(product(l.inputs[i]) * model.activation_bytes(), bw);
  }
  return total;
}

// The data gradient of `conv` (and a deconvolution's forward pass): the original's dense stride-1
// dummy, or (profiles without dense_strided_data_gradient) its true work as a GEMM, with FFT /
// Winograd on the dummy still available for stride-1 layers. Under a software era, `auto` also
// weighs the scattered GEMM (cuDNN's ALGO_0), which wins where Cin/g is narrower than a tile.
PassCost data_gradient_cost(const Layer& l, const ConvGeometry& conv, const CostModel& model, const CostOptions& o) {
  const bool one_by_one = l.conv.kh == 1 && l.conv.kw == 1;
  const ConvGeometry dummy = data_gradient_conv(conv, l.name);
  auto on_dummy = [&] {
    return conv_pass_cost(model, dummy, ConvPass::kBackwardData, o.algorithm, one_by_one, o.workspace_limit_bytes,
                          o.auto_candidates);
  };
  if (model.profile().dense_strided_data_gradient) return on_dummy();
  PassCost gemm_form = transposed_gemm_cost(model, conv, o.algorithm == ConvAlgorithm::kPrecompGemm && !one_by_one);
  if (o.algorithm == ConvAlgorithm::kAuto && model.per_kernel()) {
    PassCost scattered = scattered_gemm_cost(model, conv);
    if (auto_rank_ms(model, scattered) < auto_rank_ms(model, gemm_form)) gemm_form = scattered;
  }
  const bool transform_algorithm = o.algorithm == ConvAlgorithm::kFft || o.algorithm == ConvAlgorithm::kFftTiling ||
                                   o.algorithm == ConvAlgorithm::kWinograd || o.algorithm == ConvAlgorithm::kAuto;
  if (one_by_one || !transform_algorithm || conv.sh != 1 || conv.sw != 1) return gemm_form;
  PassCost alternative = on_dummy();
  if (o.algorithm != ConvAlgorithm::kAuto) return alternative;
  return auto_rank_ms(model, alternative) < auto_rank_ms(model, gemm_form) ? alternative : gemm_form;
}

PassCosts convolution_passes(const Layer& l, const CostModel& model, const CostOptions& o) {
  const bool one_by_one = l.conv.kh == 1 && l.conv.kw == 1;
  auto pass = [&](const ConvGeometry& g, ConvPass p) {
    return conv_pass_cost(model, g, p, o.algorithm, one_by_one, o.workspace_limit_bytes, o.auto_candidates);
  };
  PassCosts out;
  if (l.kind == LayerKind::kConvolution) {
    out.forward = pass(l.conv, ConvPass::kForward);
    if (l.backprop || o.input_gradient) out.backward_data = data_gradient_cost(l, l.conv, model, o);
    out.backward_filter = pass(filter_gradient_conv(l.conv, l.name), ConvPass::kBackwardFilter);
    // cuDNN's non-fused Winograd filter gradient works on the layer itself, not on the dummy.
    if (o.algorithm == ConvAlgorithm::kAuto && o.auto_candidates.winograd_filter && !one_by_one &&
        winograd_filter_applies(l.conv)) {
      PassCost winograd = winograd_filter_gradient_cost(model, l.conv);
      if (winograd.workspace_bytes <= o.workspace_limit_bytes &&
          auto_rank_ms(model, winograd) < auto_rank_ms(model, out.backward_filter))
        out.backward_filter = winograd;
    }
    return out;
  }
  // Deconvolution: forward = data gradient of the transposed conv; data gradient = its forward;
  // filter gradient = the filter-gradient dummy of the equivalent conv, with that conv's holes.
  ConvGeometry equivalent = data_gradient_conv(l.conv, l.name);
  if (l.backprop) out.forward = data_gradient_cost(l, l.conv, model, o);
  out.backward_data = pass(l.conv, ConvPass::kForward);
  ConvGeometry back_filters = filter_gradient_conv(equivalent, l.name);
  back_filters.holes = equivalent.holes;
  back_filters.holes_in_inputs = false;
  out.backward_filter = pass(back_filters, ConvPass::kBackwardFilter);
  return out;
}

void apply_roofline(PassCost& c) { c.overlapped_ms = c.comp_ms < c.mem_ms ? c.comp_ms : c.mem_ms; }

// Under a software era each kernel is a roofline of its compute and traffic plus its launch and
// framework overhead (hidden behind the work when kernels are timed back to back); a pass without
// work launches nothing.
void price_kernel(PassCosts& k, const CostModel& model) {
  for (PassCost* p : {&k.forward, &k.backward_data, &k.backward_filter}) {
    if (p->flops <= 0 && p->bytes <= 0) continue;
    apply_roofline(*p);
    p->comp_ms += model.launch_ms(p->total_ms());
  }
}

// A kernel of its own beside a layer's (bias, epilogue, layout conversion): priced, then added.
void add_priced_kernel(PassCosts& to, PassCosts k, const CostModel& model) {
  price_kernel(k, model);
  to.forward += k.forward;
  to.backward_data += k.backward_data;
  to.backward_filter += k.backward_filter;
}

}  // namespace

// Original _profile_innerproduct: X [a, b] times W [b, c] into Y [a, c]. `weight` names the
// operand that is the weight matrix (0: none, 1: X, 2: W, 3: Y) for its storage format.
PassCost matmul_cost(const CostModel& model, double a, double b, double c, int weight) {
  PassCost cost;
  GemmShape shape;
  shape.m = a;
  shape.n = shape.align_n = c;
  shape.k = shape.align_k = b;
  model.add_matmul(cost, 2 * a * b * c, shape);
  auto bytes = [&](int operand) { return operand == weight ? model.weight_bytes() : model.activation_bytes(); };
  model.add_mem(cost, a * b * bytes(1));
  model.add_mem(cost, b * c * bytes(2));
  model.add_mem(cost, a * c * bytes(3));
  return cost;
}

namespace {

// The layer's passes as kernels of its own (not part of a fused batch-norm chain).
PassCosts own_passes(const Layer& l, const CostModel& model, const CostOptions& options) {
  PassCosts passes;
  PassCost& forward = passes.forward;
  PassCost& data = passes.backward_data;
  PassCost& filter = passes.backward_filter;
  switch (l.kind) {
    case LayerKind::kConvolution:
    case LayerKind::kDeconvolution:
      if (l.conv_algorithm.empty()) {
        passes = convolution_passes(l, model, options);
      } else {
        CostOptions own = options;
        own.algorithm = parse_conv_algorithm(l.conv_algorithm);
        passes = convolution_passes(l, model, own);
      }
      if (model.per_kernel()) {
        price_kernel(passes, model);
        PassCosts conversions;
        if (options.nchw_tensors) conversions = nchw_conversion_kernels(l, model, passes);
        if (l.conv_bias && model.unfused_conv_bias())
          add_priced_kernel(passes, unfused_bias_kernel(l, model), model);
        for (const PassCosts& k : fused_epilogue_kernels(l, model)) add_priced_kernel(passes, k, model);
        add_priced_kernel(passes, conversions, model);
      } else if (model.profile().cost_memory_bound_layers) {
        add_fused_epilogue(l, model, passes);
      }
      break;
    case LayerKind::kPooling: {
      double flops = 2.0 * static_cast<double>(l.pool_kh * l.pool_kw) * static_cast<double>(l.inputs[0][3]) *
                     static_cast<double>(l.output[1] * l.output[2]) * static_cast<double>(l.inputs[0][0]);
      forward = data = elementwise_cost(model, l, flops);
      forward.mem_ms /= model.pooling_efficiency();
      data.mem_ms /= model.pooling_efficiency();
      break;
    }
    case LayerKind::kDropout:
      forward = data = elementwise_cost(model, l, product(l.inputs[0]));
      break;
    case LayerKind::kInnerProduct: {
      // The rows the weights multiply: the samples, times the positions when on the last axis.
      const double n = product(l.inputs[0]) / static_cast<double>(l.weights[0]);
      const double in = static_cast<double>(l.weights[0]);
      const double out = static_cast<double>(l.weights[1]);
      forward = matmul_cost(model, n, in, out, 2);
      data = matmul_cost(model, n, out, in, 2);
      filter = matmul_cost(model, in, n, out, 3);
      break;
    }
    case LayerKind::kRecurrent: {
      const RecurrentPasses r = recurrent_passes(l, model);
      forward = r.forward;
      data = r.backward_data;
      filter = r.backward_filter;
      break;
    }
    case LayerKind::kMatMul: {  // C = A x B; backward: dA = dC x B^T and dB = A^T x dC, no weights
      const double m = static_cast<double>(l.output[l.output.size() - 2]);
      const double k = static_cast<double>(l.weights[0]);
      const double p = static_cast<double>(l.weights[1]);
      const double batches = product(l.output) / (m * p);
      forward = batched_matmul_cost(model, batches, m, k, p);
      data = batched_matmul_cost(model, batches, m, p, k);
      data += batched_matmul_cost(model, batches, k, m, p);
      break;
    }
    default:
      if (model.profile().cost_memory_bound_layers) add_memory_bound_cost(l, model, passes);
      break;  // zero cost in paleo2017
  }
  return passes;
}

}  // namespace

LayerCost layer_compute_cost(const Layer& l, const CostModel& model, const CostOptions& options,
                             BatchNormFusion fusion) {
  PassCosts passes;
  const bool fused = fusion != BatchNormFusion::kNone && model.profile().cost_memory_bound_layers;
  if (!fused) passes = own_passes(l, model, options);
  // A fused chain's batch norm is its one kernel each way; the ReLU and the add it absorbs cost nothing.
  else if (fusion != BatchNormFusion::kAbsorbed)
    passes = fused_batchnorm_activation_kernels(l, fusion == BatchNormFusion::kWithAddRelu, model);
  PassCost& forward = passes.forward;
  PassCost& data = passes.backward_data;
  PassCost& filter = passes.backward_filter;
  const bool convolution = l.kind == LayerKind::kConvolution || l.kind == LayerKind::kDeconvolution;
  if (model.per_kernel() && !convolution) price_kernel(passes, model);  // convolutions priced above
  if (options.roofline && !model.per_kernel())
    for (PassCost* p : {&forward, &data, &filter}) apply_roofline(*p);
  LayerCost cost;
  cost.forward = forward;
  cost.backward_data = data;
  cost.backward_filter = filter;
  cost.backward = data;
  cost.backward += filter;
  cost.backward.algorithm = "";
  return cost;
}

LayerCost layer_cost(const Network& net, const Layer& l, const CostModel& model, const CostOptions& options,
                     BatchNormFusion fusion) {
  LayerCost cost = layer_compute_cost(l, model, options, fusion);
  cost.fetch_ms = fetch_ms(net, l, model, options);
  for (PassCost* p : {&cost.forward, &cost.backward_data, &cost.backward_filter, &cost.backward})
    p->mem_ms += cost.fetch_ms;
  return cost;
}

std::vector<BatchNormFusion> layer_fusion(const Network& net, const CostOptions& options) {
  if (!options.fused_batchnorm_activation)
    return std::vector<BatchNormFusion>(net.layers.size(), BatchNormFusion::kNone);
  return batchnorm_activation_fusion(net);
}

}  // namespace paleo
