// The estimate-only build (PALEO_ESTIMATE_ONLY) answers no plan: in place of
// core/api/zero3_plan_stack.cpp, so that the plan's second reading of a request is not linked.
#include "core/api/zero3_plan_stack.h"

namespace paleo {

std::shared_ptr<const Zero3PlanStack> zero3_plan_stack(const Json&, const Device&, std::int64_t) { return nullptr; }

}  // namespace paleo
