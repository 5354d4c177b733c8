#include "core/api/zero3_plan_stack.h"

#include "core/api/transformer_request.h"

namespace paleo {

std::shared_ptr<const Zero3PlanStack> zero3_plan_stack(const Json& given, const Device& device, std::int64_t devices) {
  const SoftwareEra zero3 = default_software_era(device, "transformer", true);
  if (zero3.chosen_by != "zero3") return nullptr;
  // The request as a ZeRO-3 estimate of that stack reads it (its defaults applied).
  Json as_zero3 = given;
  as_zero3["software_era"] = zero3.key;
  as_zero3["zero"] = 3;
  const TransformerRequest z = parse_transformer_request(as_zero3, device, devices);
  auto stack = std::make_shared<Zero3PlanStack>();
  stack->era = z.era;
  stack->era.chosen_by = zero3.chosen_by;
  stack->training = z.training;
  return stack;
}

}  // namespace paleo
