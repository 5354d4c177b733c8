#include "core/cost/memory_bound_cost.h"

namespace paleo {
namespace {

// FLOPs per element and tensor passes of one element-wise operator.
struct Elementwise {
  double forward_flops, backward_flops;
  double forward_reads;   // reads of the input (two for two-pass operators)
  double backward_reads;  // reads of the gradient and saved tensors
  double filter_flops;    // parameter gradients (batch norm's gamma and beta)
};

constexpr Elementwise kRelu = {1, 1, 1, 2, 0};
constexpr Elementwise kSigmoid = {4, 2, 1, 2, 0};
constexpr Elementwise kBatchNorm = {6, 10, 2, 3, 2};
constexpr Elementwise kLrn = {13, 26, 1, 3, 0};  // window of 5: 2*5 + 3
constexpr Elementwise kScale = {2, 2, 1, 2, 0};
constexpr Elementwise kSoftmax = {5, 4, 2, 2, 0};
constexpr Elementwise kGelu = {8, 12, 1, 2, 0};  // x/2 (1 + erf(x/sqrt 2)); its derivative needs exp too

// Costed for every layer of every pass priced: the names are told apart by their length first.
const Elementwise* operator_for(const std::string& type) {
  // ReLU6 clips at 6 as well: the same traffic, and FLOPs do not matter for a memory-bound layer.
  switch (type.size()) {
    case 3:
      if (type == "LRN") return &kLrn;
      if (type == "elu") return &kRelu;
      return nullptr;
    case 4:
      if (type == "relu" || type == "ReLU" || type == "tanh") return &kRelu;
      if (type == "GELU" || type == "gelu") return &kGelu;
      return nullptr;
    case 5:
      if (type == "ReLU6" || type == "relu6") return &kRelu;
      if (type == "Scale") return &kScale;
      return nullptr;
    case 7:
      if (type == "Sigmoid" || type == "sigmoid") return &kSigmoid;
      if (type == "Softmax") return &kSoftmax;
      return nullptr;
    case 9:
      return type == "BatchNorm" || type == "LayerNorm" ? &kBatchNorm : nullptr;
    case 10:
      return type == "batch_norm" ? &kBatchNorm : nullptr;
    default:
      return nullptr;
  }
}

void add_elementwise(const Elementwise& op, double elements, const CostModel& model, PassCosts& c) {
  const double bytes = elements * model.activation_bytes();
  model.add_comp(c.forward, op.forward_flops * elements);
  for (int i = 0; i < op.forward_reads; ++i) model.add_mem(c.forward, bytes);
  model.add_mem(c.forward, bytes);  // write
  model.add_comp(c.backward_data, op.backward_flops * elements);
  for (int i = 0; i < op.backward_reads; ++i) model.add_mem(c.backward_data, bytes);
  model.add_mem(c.backward_data, bytes);
  if (op.filter_flops > 0) {
    model.add_comp(c.backward_filter, op.filter_flops * elements);
    model.add_mem(c.backward_filter, bytes);
    model.add_mem(c.backward_filter, bytes);
  }
}

// Read every input, write the output; backward reads the output gradient and writes each input's.
void add_copy(const Layer& l, double backward_flops, const CostModel& model, PassCosts& c) {
  const double out = product(l.output);
  const double element_bytes = model.activation_bytes();
  for (const Shape& in : l.inputs) model.add_mem(c.forward, product(in) * element_bytes);
  model.add_mem(c.forward, out * element_bytes);
  model.add_comp(c.backward_data, backward_flops);
  model.add_mem(c.backward_data, out * element_bytes);
  for (const Shape& in : l.inputs) model.add_mem(c.backward_data, product(in) * element_bytes);
}

// A sum or product of k inputs. Forward: read each input, write the output (k - 1 FLOPs per
// output element). Backward of a sum: read the output's gradient once and write each input's at
// its own size; a broadcast input's gradient sums the output's over the broadcast dimensions (one
// more read). Backward of a product: each input's gradient reads the output's and the other
// inputs, as PyTorch's kernels do (x * s: dX = dY * s, ds = sum(dY * x)).
void add_elementwise_layer(const Layer& l, const CostModel& model, PassCosts& c) {
  const double out = product(l.output);
  const double element_bytes = model.activation_bytes();
  const double others = static_cast<double>(l.inputs.size()) - 1;
  model.add_comp(c.forward, others * out);
  double input_bytes = 0;
  for (const Shape& in : l.inputs) {
    model.add_mem(c.forward, product(in) * element_bytes);
    input_bytes += product(in) * element_bytes;
  }
  model.add_mem(c.forward, out * element_bytes);
  if (!l.elementwise_product) model.add_mem(c.backward_data, out * element_bytes);
  for (const Shape& in : l.inputs) {
    const double size = product(in);
    const bool broadcast = size < out;
    if (l.elementwise_product) {
      model.add_comp(c.backward_data, others * out + (broadcast ? out : 0));
      model.add_mem(c.backward_data, out * element_bytes + input_bytes - size * element_bytes);
    } else if (broadcast) {
      model.add_comp(c.backward_data, out);
      model.add_mem(c.backward_data, out * element_bytes);
    }
    model.add_mem(c.backward_data, size * element_bytes);
  }
}

}  // namespace

bool add_memory_bound_cost(const Layer& l, const CostModel& model, PassCosts& c) {
  switch (l.kind) {
    case LayerKind::kElementwise:
      add_elementwise_layer(l, model, c);
      return true;
    case LayerKind::kConcatenate:
      add_copy(l, 0, model, c);
      return true;
    case LayerKind::kUpSampling:  // backward sums each window into its source element
      add_copy(l, product(l.output), model, c);
      return true;
    case LayerKind::kSoftmax:
    case LayerKind::kZeroCost: {
      const Elementwise* op = operator_for(l.type);
      if (!op) return false;
      add_elementwise(*op, product(l.output), model, c);
      return true;
    }
    default:
      return false;
  }
}

EpilogueKernels fused_epilogue_kernels(const Layer& l, const CostModel& model) {
  EpilogueKernels kernels;
  const double elements = product(l.output);
  if (l.fused_batch_norm) add_elementwise(kBatchNorm, elements, model, kernels.kernels[kernels.count++]);
  if (const Elementwise* op = operator_for(l.fused_activation))
    add_elementwise(*op, elements, model, kernels.kernels[kernels.count++]);
  return kernels;
}

PassCosts unfused_bias_kernel(const Layer& l, const CostModel& model) {
  PassCosts k;
  const double bytes = product(l.output) * model.activation_bytes();
  model.add_comp(k.forward, product(l.output));
  model.add_mem(k.forward, bytes);
  model.add_mem(k.forward, bytes);
  model.add_comp(k.backward_filter, product(l.output));
  model.add_mem(k.backward_filter, bytes);
  return k;
}

void add_fused_epilogue(const Layer& l, const CostModel& model, PassCosts& c) {
  for (const PassCosts& k : fused_epilogue_kernels(l, model)) {
    c.forward += k.forward;
    c.backward_data += k.backward_data;
    c.backward_filter += k.backward_filter;
  }
}

PassCosts fused_batchnorm_activation_kernels(const Layer& l, bool with_add, const CostModel& model) {
  PassCosts k;
  const double elements = product(l.output);
  const double tensor_bytes = elements * model.activation_bytes();
  const double mask_bytes = with_add ? elements / 8 : 0;
  const double add = with_add ? 1 : 0;
  // Forward: x twice, z once with the add; y, and the bitmask with the add.
  model.add_comp(k.forward, (kBatchNorm.forward_flops + add + kRelu.forward_flops) * elements);
  model.add_mem(k.forward, (2 + add) * tensor_bytes);   // reads
  model.add_mem(k.forward, tensor_bytes + mask_bytes);  // writes
  // Backward: x and dy (or dz) twice, the bitmask with the add; dx, and dz with the add.
  model.add_comp(k.backward_data,
                 (kBatchNorm.backward_flops + kBatchNorm.filter_flops + kRelu.backward_flops) * elements);
  model.add_mem(k.backward_data, 4 * tensor_bytes + mask_bytes);  // reads
  model.add_mem(k.backward_data, (1 + add) * tensor_bytes);       // writes
  return k;
}

}  // namespace paleo
