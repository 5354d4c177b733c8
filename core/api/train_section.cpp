#include "core/api/train_section.h"

#include <cstdint>
#include <string>
#include <vector>

#include "core/cost/time_to_train.h"

namespace paleo {
namespace {

struct Setup {
  std::string name;
  std::int64_t devices = 1;
  Json scheme;  // the all-reduce it uses; null on one device
  double samples_per_step = 0;
  double step_ms = 0;
};

Json setup_json(const Setup& setup, const Request& r) {
  const double steps = epoch_steps(r.dataset_samples, r.epochs, setup.samples_per_step);
  const TimeToTrain t =
      time_to_train(steps, setup.step_ms, static_cast<double>(setup.devices), r.price.usd_per_device_hour);
  Json j = {{"setup", setup.name}, {"devices", setup.devices}, {"scheme", setup.scheme},
            {"samples_per_step", setup.samples_per_step}, {"step_ms", setup.step_ms}, {"steps", t.steps},
            {"time_s", t.time_s}, {"time_days", t.time_days}, {"device_hours", t.device_hours}};
  if (r.price.usd_per_device_hour > 0) j["cost_usd"] = t.cost_usd;
  return j;
}

// One device, then the data-parallel rows of the first scaling table (one worker is the device
// itself), then the cluster.
std::vector<Setup> setups_of(const Json& estimate) {
  std::vector<Setup> setups;
  setups.push_back({"one device", 1, nullptr, estimate["net"]["batch_size"].get<double>(),
                    estimate["totals"]["step_ms"].get<double>()});
  const Json simulation = estimate.value("simulation", Json());
  if (simulation.is_object() && simulation.value("parallel", "") == "data") {
    const std::string interconnect = estimate["interconnect"]["name"].get<std::string>();
    for (const Json& row : simulation["scaling"][0]["rows"]) {
      const std::int64_t workers = row["workers"].get<std::int64_t>();
      if (workers == 1) continue;
      const std::string scheme = row["fastest_scheme"].get<std::string>();
      setups.push_back({std::to_string(workers) + " workers, PALEO 2017 over " + interconnect, workers, scheme,
                        row["batch_size"].get<double>(), row["step_ms"][scheme].get<double>()});
    }
  }
  if (estimate.contains("cluster")) {
    const Json& c = estimate["cluster"];
    const Json& shape = c["cluster"];
    setups.push_back({"cluster " + std::to_string(shape["nodes"].get<std::int64_t>()) + "x" +
                          std::to_string(shape["devices_per_node"].get<std::int64_t>()),
                      shape["devices"].get<std::int64_t>(), c["chosen"]["algorithm"], c["global_batch"].get<double>(),
                      c["step_ms"].get<double>()});
  }
  return setups;
}

}  // namespace

Json cnn_train_json(const Request& r, const Json& estimate) {
  if (r.dataset_samples <= 0) return nullptr;
  Json rows = Json::array();
  std::size_t fastest = 0;
  for (const Setup& setup : setups_of(estimate)) {
    rows.push_back(setup_json(setup, r));
    if (rows.back()["time_s"].get<double>() < rows[fastest]["time_s"].get<double>()) fastest = rows.size() - 1;
  }
  Json j = {{"dataset_samples", r.dataset_samples}, {"epochs", r.epochs},
            {"price_per_gpu_hour", r.price.usd_per_device_hour}};
  if (!r.price.key.empty()) j["price_key"] = r.price.key;
  // The headline is the setup the response's own step is: the cluster when there is one.
  j["headline"] = estimate.contains("cluster") ? rows.size() - 1 : 0;
  j["fastest"] = fastest;
  j["setups"] = std::move(rows);
  return j;
}

}  // namespace paleo
