#include "core/api/cnn_request.h"

#include "core/base/error.h"

namespace paleo {

void read_cnn_kernel_model(const Json& request, Scenario& s) {
  const bool ppp_given = request.contains("software") || request.contains("ppp_comp") || request.contains("ppp_comm");
  for (const char* field : {"precision", "software_era", "efficiency"}) {
    if (!request.contains(field)) continue;
    if (!s.profile->precision_and_eras)
      throw Error("applies to the paleo2026 profile only: paleo2017 costs fp32 at one PPP", "", field);
    if (ppp_given && std::string(field) != "precision")
      throw Error("a software era replaces the PPP: give \"software_era\"/\"efficiency\" or \"software\"/"
                  "\"ppp_comp\"/\"ppp_comm\", not both", "", field);
  }
  if (request.contains("precision")) s.precision = precision_from_json(request["precision"], "precision");
  if (!s.profile->precision_and_eras || ppp_given) return;
  s.era = software_era_of_request(request, s.device, "cnn");
  // The era's library chose among its algorithms unless the request names one.
  if (!s.era->conv_algorithms.empty() && !request.contains("conv_algorithm") && s.device.is_gpu) {
    s.cost.algorithm = ConvAlgorithm::kAuto;
    s.cost.auto_candidates = conv_candidates_from_names(s.era->conv_algorithms, "software_era.conv_algorithms");
  }
}

}  // namespace paleo
