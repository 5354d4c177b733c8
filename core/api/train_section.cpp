#include "core/api/train_section.h"

#include "core/cost/time_to_train.h"

namespace paleo {
namespace {

Json setup_json(const TrainSetup& setup, const Request& r) {
  const double steps = epoch_steps(static_cast<double>(r.train.dataset_samples), r.train.epochs, setup.samples_per_step);
  const TimeToTrain t =
      time_to_train(steps, setup.step_ms, static_cast<double>(setup.devices), r.train.price.usd_per_device_hour);
  Json j = {{"setup", setup.name}, {"kind", setup.kind}, {"devices", setup.devices},
            {"scheme", setup.scheme.empty() ? Json() : Json(setup.scheme)},
            {"samples_per_step", setup.samples_per_step}, {"step_ms", setup.step_ms}, {"steps", t.steps},
            {"time_s", t.time_s}, {"time_days", t.time_days}, {"device_hours", t.device_hours}};
  if (r.train.price.usd_per_device_hour > 0) j["cost_usd"] = t.cost_usd;
  return j;
}

}  // namespace

TrainSetup one_device_setup(std::int64_t batch_size, double step_ms) {
  return {"one device", "one_device", 1, "", static_cast<double>(batch_size), step_ms};
}

std::vector<TrainSetup> original_setups(const ScalingTable& table, const std::string& interconnect_name) {
  std::vector<TrainSetup> setups;
  for (const ScalingRow& row : table.rows) {
    if (row.workers == 1) continue;  // the one device itself
    const std::size_t k = fastest_scheme_index(row);
    setups.push_back({std::to_string(row.workers) + " workers, PALEO 2017 over " + interconnect_name,
                      "paleo2017_workers", row.workers, scheme_name(kOriginalSchemes[k]),
                      static_cast<double>(row.batch_size), row.comp_ms + row.comm_ms[k]});
  }
  return setups;
}

TrainSetup cluster_setup(const ClusterStep& step) {
  return {"cluster " + std::to_string(step.cluster.nodes) + "x" + std::to_string(step.cluster.devices_per_node),
          "cluster",
          step.cluster.devices(),
          step.chosen.algorithm,
          static_cast<double>(step.global_batch),
          step.step_ms};
}

Json cnn_train_json(const Request& r, const std::vector<TrainSetup>& setups, std::size_t headline_index) {
  if (r.train.dataset_samples <= 0) return nullptr;
  Json rows = Json::array();
  std::size_t fastest = 0;
  for (const TrainSetup& setup : setups) {
    rows.push_back(setup_json(setup, r));
    if (rows.back()["time_s"].get<double>() < rows[fastest]["time_s"].get<double>()) fastest = rows.size() - 1;
  }
  Json j = {{"dataset_samples", r.train.dataset_samples}, {"epochs", r.train.epochs}};
  // The price only when one was given (as a transformer's `train`).
  if (r.train.price.usd_per_device_hour > 0) {
    j["price_per_gpu_hour"] = r.train.price.usd_per_device_hour;
    if (!r.train.price.key.empty()) j["price_key"] = r.train.price.key;
  }
  // Indices into `setups`: the setup the response's own step is, and the one of the least time.
  j["headline_index"] = headline_index;
  j["fastest_index"] = fastest;
  j["setups"] = std::move(rows);
  return j;
}

}  // namespace paleo
