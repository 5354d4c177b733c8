#include "core/cost/time_to_train.h"

#include <cmath>

namespace paleo {

TimeToTrain time_to_train(double steps, double step_ms, double devices, double price_per_device_hour) {
  TimeToTrain t;
  t.steps = steps;
  t.time_s = steps * step_ms / 1e3;
  t.time_days = t.time_s / 86400;
  t.device_hours = t.time_s / 3600 * devices;
  t.cost_usd = t.device_hours * price_per_device_hour;
  return t;
}

double epoch_steps(double dataset_samples, std::int64_t epochs, double samples_per_step) {
  if (!(samples_per_step > 0)) return 0;
  return static_cast<double>(epochs) * std::ceil(dataset_samples / samples_per_step);
}

}  // namespace paleo
