#include "core/efficiency/software_era.h"

#include <cstdint>
#include <optional>

#include "core/base/error.h"
#include "core/spec/presets.h"

namespace paleo {
namespace {

const Json* generation_refit(const Json& doc, const std::string& generation) {
  if (generation.empty()) return nullptr;
  for (const EraFit& f : era_fits(doc))
    if (f.generation == generation) return f.fit;
  return nullptr;
}

bool applies_strictly_to(const Json& doc, const std::string& workload) {
  if (!doc.contains("applies_to")) return true;
  for (const Json& w : doc["applies_to"])
    if (w.is_string() && w.get<std::string>() == workload) return true;
  return false;
}

// The era as it runs on `generation`: its parameters, with those refitted to that generation's
// published cases laid over ("by_generation": the same software reaches another fraction of an
// older or newer architecture's peak).
SoftwareEra era_from_json(const Json& doc, const std::string& field, const std::string& generation) {
  SoftwareEra era;
  era.key = doc.value("key", "custom");
  era.name = doc.value("name", era.key);
  if (doc.contains("efficiency")) era.efficiency = efficiency_from_json(doc["efficiency"], era.efficiency, field);
  const Json* refit = generation_refit(doc, generation);
  if (refit) {
    era.efficiency = efficiency_from_json((*refit)["efficiency"], era.efficiency, field);
    era.name += ", refitted on " + generation;
  }
  if (doc.contains("defaults")) {
    if (!doc["defaults"].is_object()) throw Error("an era's \"defaults\" must be an object of request fields", "", field);
    era.defaults = doc["defaults"];
  }
  if (doc.contains("conv_algorithms")) {
    era.conv_algorithms = read_strings(doc, "conv_algorithms", "");
    (void)conv_candidates_from_names(era.conv_algorithms, field + ".conv_algorithms");  // names checked once
  }
  if (doc.contains("collective_library")) {
    // Its name is checked where the cluster step reads it (core/api/cluster_section.cpp).
    era.collective_library = read_string(doc, "collective_library", "");
  }
  // Its name is checked where the transformer request reads it (core/api/transformer_request.cpp).
  if (doc.contains("zero3_gather")) era.zero3_gather = read_string(doc, "zero3_gather", "");
  era.serving = applies_strictly_to(doc, "inference");
  return era;
}

// Whether a request asks for ZeRO stage 3 ("zero": 3).
bool requests_zero3(const Json& request) {
  return request.contains("zero") && request["zero"].is_number_integer() && request["zero"].get<std::int64_t>() == 3;
}

// Serving ("inference") takes the serving eras and, named or as a fallback, the transformer ones.
bool applies_to(const Json& doc, const std::string& workload) {
  return applies_strictly_to(doc, workload) || (workload == "inference" && applies_strictly_to(doc, "transformer"));
}

// A serving step streams its weights and KV cache; a training stack's memory fraction is a fit
// over a training step's many smaller element-wise kernels. Served on a training stack's era, the
// memory-bound work runs at the device's measured streaming rate where the device has one; a
// serving era keeps its own.
SoftwareEra served_at_streaming_rate(SoftwareEra era, const Device& device) {
  if (era.serving || device.stream_bandwidth_gb_per_s <= 0 || device.mem_bandwidth_gb_per_s <= 0) return era;
  era.efficiency.memory_fraction = device.stream_bandwidth_gb_per_s / device.mem_bandwidth_gb_per_s;
  era.name += ", memory at the device's measured streaming rate";
  return era;
}

}  // namespace

std::vector<EraFit> era_fits(const Json& era) {
  std::vector<EraFit> fits = {{"", &era}};
  if (!era.contains("by_generation")) return fits;
  const std::string key = era.contains("key") && era["key"].is_string() ? era["key"].get<std::string>() : "";
  const std::string where = "presets/software_eras.json, era '" + key + "': by_generation";
  const Json& by = era["by_generation"];
  if (!by.is_object()) throw Error(where + " must be an object of device generations", "", "software_era");
  for (auto it = by.begin(); it != by.end(); ++it) {
    if (!it.value().is_object() || !it.value().contains("efficiency") || !it.value()["efficiency"].is_object())
      throw Error(where + "." + it.key() + " must hold an \"efficiency\" object", "", "software_era");
    fits.push_back({it.key(), &it.value()});
  }
  return fits;
}

KernelEfficiency efficiency_from_json(const Json& obj, KernelEfficiency base, const std::string& field) {
  if (!obj.is_object()) throw Error("must be an object of efficiency parameters (docs/transformer.md)", "", field);
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    const EfficiencyParameter* bound = find_efficiency_parameter(it.key());
    if (!bound) throw Error("unknown efficiency parameter '" + it.key() + "'", "", field);
    const double v = read_number(obj, it.key(), "");
    if (!(v >= bound->low && v <= bound->high))
      throw Error("must be from " + echo(Json(bound->low)) + " to " + echo(Json(bound->high)) + ", got " +
                      echo(it.value()), "", field + "." + it.key());
    base.*(bound->member) = v;
  }
  return base;
}

Json efficiency_json(const KernelEfficiency& e) {
  Json j = Json::object();
  for (const EfficiencyParameter& p : efficiency_parameters()) j[p.name] = e.*(p.member);
  return j;
}

Json software_era_json(const SoftwareEra& era) {
  Json j = {{"key", era.key}, {"name", era.name}, {"efficiency", efficiency_json(era.efficiency)}};
  if (!era.conv_algorithms.empty()) j["conv_algorithms"] = era.conv_algorithms;
  if (!era.collective_library.empty()) j["collective_library"] = era.collective_library;
  if (!era.zero3_gather.empty()) j["zero3_gather"] = era.zero3_gather;
  if (!era.chosen_by.empty()) j["chosen_by"] = era.chosen_by;
  return j;
}

SoftwareEra software_era(const std::string& key, const std::string& field, const std::string& workload,
                         const std::string& generation) {
  for (const Json& doc : Presets::instance().software_eras())
    if (doc.value("key", "") == key && applies_to(doc, workload)) return era_from_json(doc, field, generation);
  std::string known;
  for (const Json& doc : Presets::instance().software_eras())
    if (applies_to(doc, workload)) known += (known.empty() ? "" : ", ") + doc.value("key", "");
  throw Error("unknown software era '" + key + "' for " + workload + " nets (known: " + known + ")", "", field);
}

SoftwareEra software_era_of_request(const Json& request, const Device& device, const std::string& workload,
                                    bool by_zero_stage) {
  SoftwareEra era =
      request.contains("software_era")
          ? software_era(read_string(request, "software_era", ""), "software_era", workload, device.generation)
          : default_software_era(device, workload, by_zero_stage && requests_zero3(request));
  if (workload == "inference") era = served_at_streaming_rate(std::move(era), device);
  if (request.contains("efficiency")) {
    era.efficiency = efficiency_from_json(request["efficiency"], era.efficiency, "efficiency");
    era.name += ", with the request's efficiency";
  }
  return era;
}

SoftwareEra default_software_era(const Device& device, const std::string& workload, bool zero3) {
  // The first era listing the device's generation in `list`, as the default for `reason`.
  const auto listing = [&](const char* list, const char* reason) -> std::optional<SoftwareEra> {
    for (const Json& doc : Presets::instance().software_eras())
      if (applies_strictly_to(doc, workload))
        for (const Json& g : doc.value(list, Json::array()))
          if (g.is_string() && g.get<std::string>() == device.generation) {
            SoftwareEra era = era_from_json(doc, "software_era", device.generation);
            era.chosen_by = reason;
            return era;
          }
    return std::nullopt;
  };
  if (zero3 && workload == "transformer")
    if (std::optional<SoftwareEra> era = listing("zero3_generations", "zero3")) return *era;
  if (std::optional<SoftwareEra> era = listing("generations", "generation")) return *era;
  // A generation without a serving era of its own is served with its training stack's kernels.
  if (workload == "inference") return default_software_era(device, "transformer");
  SoftwareEra untuned;
  untuned.chosen_by = "generation";
  return untuned;
}

}  // namespace paleo
