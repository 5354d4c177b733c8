#pragma once
// Time and cost to train: the steps a training run takes, their wall-clock time at a step time,
// the device-hours and what they cost. Shared by the CNN estimate (a dataset and epochs) and the
// transformer estimate (a token budget).
#include <cstdint>

namespace paleo {

struct TimeToTrain {
  double steps = 0;
  double time_s = 0;
  double time_days = 0;
  double device_hours = 0;  // time x devices
  double cost_usd = 0;      // device_hours x price; 0 without a price
};

// `steps` steps of `step_ms` each on `devices` devices, at `price_per_device_hour` US dollars.
TimeToTrain time_to_train(double steps, double step_ms, double devices, double price_per_device_hour);

// The steps of `epochs` passes over `dataset_samples` at `samples_per_step` a step: each epoch
// ends with a partial step, as a data loader that keeps the last batch runs it:
// epochs x ceil(dataset_samples / samples_per_step).
double epoch_steps(double dataset_samples, std::int64_t epochs, double samples_per_step);

}  // namespace paleo
