#pragma once
// api/: the stack a plan's ZeRO-3 layouts run on. A plan weighs every ZeRO stage; one that names
// no software era runs on its generation's default (core/efficiency/software_era.h), and its
// ZeRO-3 layouts on the era a ZeRO-3 estimate of the same request would take, with that stack's
// defaults, so that plan and estimate give one answer for a layout.
#include <cstdint>
#include <memory>

#include "core/base/json.h"
#include "core/efficiency/software_era.h"
#include "core/hardware/device.h"
#include "core/transformer/training_options.h"

namespace paleo {

struct Zero3PlanStack {
  SoftwareEra era;           // chosen_by "zero3"
  TrainingOptions training;  // the request as that stack reads it, with "zero": 3
};

// For a plan request `given` that names no era: that stack, or null where the generation's
// ZeRO-3 requests take its default era. The estimate-only build has no plan: always null there.
std::shared_ptr<const Zero3PlanStack> zero3_plan_stack(const Json& given, const Device& device, std::int64_t devices);

}  // namespace paleo
