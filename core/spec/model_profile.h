#pragma once
// A model profile names a set of modelling choices. `paleo2017` reproduces the original
// implementation quirk for quirk; each quirk is a named switch here so that a corrected profile
// changes switches, not code paths.
#include <string>
#include <vector>

namespace paleo {

struct ModelProfile {
  std::string name;
  // Bytes per "GB" when dividing by a memory bandwidth in GB/s (original: 2^30).
  double memory_bytes_per_gb = 1073741824.0;
  // Each compute and memory term is at least one clock cycle (original: max(1 cycle, t)).
  bool one_cycle_floor_per_term = true;
  // The weight update ignores the user's PPP and runs at PPP 1.0.
  bool update_at_unit_ppp = true;
  // Cross-device fetch: device "0" of a split layer differs from the unsplit device 0, and each
  // further cross-group parent halves the bandwidth again (original remote-fetch rules).
  bool original_fetch_rules = true;
  // Backward data of strided convolutions costed over the zero-dilated gradient (original);
  // false: at its true FLOPs, those of the forward pass.
  bool dense_strided_data_gradient = true;
  // Activation, batch norm, LRN, softmax, element-wise, concat and up-sampling layers (and a
  // convolution's fused activation_fn / normalizer_fn) cost their memory traffic; the original
  // treats them as free.
  bool cost_memory_bound_layers = false;
  // BatchNorm layers learn 2*C parameters (scale and shift) that the update and the gradient
  // sync carry; the original's BatchNorm is a free Generic layer without any.
  bool batch_norm_parameters = false;
  // A CNN request may name a precision (formats of its tensors, tensor-core peaks) and, without
  // a PPP, has each kernel priced at a software era's efficiencies (docs/model.md); the original
  // has fp32 and one PPP only.
  bool precision_and_eras = false;
};

const ModelProfile& paleo2017_profile();
// The corrected profile: decimal units, no floors, update at the chosen PPP, true data-gradient
// FLOPs, memory-bound layers costed, batch-norm parameters, plain cross-device fetch rules
// (docs/model.md).
const ModelProfile& paleo2026_profile();
// The profile a request gets when it names none.
const ModelProfile& default_profile();

// Throws paleo::Error (field "profile") for an unknown name.
const ModelProfile& find_profile(const std::string& name);

std::vector<std::string> profile_names();

}  // namespace paleo
