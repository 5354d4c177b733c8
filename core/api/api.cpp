#include "core/api.h"

#include <cmath>
#include <exception>
#include <optional>

#include "core/api/answer_sections.h"
#include "core/api/max_batch_memo.h"
#include "core/api/command_handlers.h"
#include "core/api/command_registry.h"
#include "core/api/cluster_section.h"
#include "core/api/device_section.h"
#include "core/api/estimate_warnings.h"
#include "core/api/train_section.h"
#include "core/api/training_scheme_section.h"
#include "core/api/work_depth_section.h"
#include "core/api/request.h"
#include "core/cost/conv_algorithms.h"
#include "core/cost/memory_footprint.h"
#include "core/efficiency/software_era.h"
#include "core/base/error.h"
#include "core/spec/presets.h"
#include "core/base/request_limits.h"
#include "core/original/simulation.h"
#include "core/api/search_command.h"
#include "core/base/utf8.h"
#include "core/validation/expected_error.h"
#include "core/base/version.h"

namespace paleo {
namespace {

Json shape_json(const Shape& s) { return Json(s); }

Json pass_json(const PassCost& c, bool with_details) {
  Json j = {{"comp_ms", c.comp_ms}, {"mem_ms", c.mem_ms}, {"total_ms", c.total_ms()}};
  if (with_details) {
    j["flops"] = c.flops;
    j["bytes"] = c.bytes;
    j["algorithm"] = c.algorithm;
  }
  return j;
}

Json net_header(const Scenario& s, const Network& net) {
  return {{"name", s.spec.name}, {"batch_size", s.batch_size}, {"layer_count", net.layers.size()}};
}

Json common_header(const Request& r) {
  const Scenario& s = r.scenario;
  Json h = {{"ok", true}, {"command", r.command}, {"profile", s.profile->name},
            {"device", device_json(s.device)},
            {"interconnect", {{"key", s.interconnect.key}, {"name", s.interconnect.name},
                         {"bandwidth_gbit_per_s", s.interconnect.bandwidth_gbit_per_s}}},
            {"ppp_comp", s.ppp_comp}, {"ppp_comm", s.ppp_comm}, {"use_pipeline", s.use_pipeline}};
  // paleo2026: the formats and, without a PPP, the software era pricing each kernel.
  if (s.profile->precision_and_eras) h["precision"] = precision_json(s.precision);
  if (s.era) h["software_era"] = software_era_json(*s.era);
  return h;
}

Json totals_json(const Scenario& s, const NetworkCost& c) {
  const double fwd = forward_ms(s, c), bwd = backward_ms(s, c), upd = update_ms(s, c);
  const double step = fwd + bwd + upd;
  const double throughput = step > 0 ? static_cast<double>(s.batch_size) / step * 1e3 : 0;
  return {{"forward_ms", fwd}, {"backward_ms", bwd}, {"update_ms", upd}, {"step_ms", step},
          {"throughput_samples_per_s", throughput},
          {"forward_comp_ms", c.forward.comp_ms}, {"forward_mem_ms", c.forward.mem_ms},
          {"backward_comp_ms", c.backward.comp_ms}, {"backward_mem_ms", c.backward.mem_ms},
          {"update_comp_ms", c.update.comp_ms}, {"update_mem_ms", c.update.mem_ms},
          {"forward_pipelined_ms", c.forward.pipelined_ms}, {"backward_pipelined_ms", c.backward.pipelined_ms},
          {"update_pipelined_ms", c.update.pipelined_ms()},
          {"forward_branch_parallel_ms", c.forward.branches.lower_ms},
          {"backward_branch_parallel_ms", c.backward.branches.lower_ms},
          {"forward_flops", c.forward_flops}, {"params", c.params}, {"params_bytes", c.params_bytes},
          {"activation_bytes", c.activation_bytes}};
}

// `step_ms`, when given, receives the one-device step of `totals`; `pricer`, when given, prices
// the net (the cluster section then reuses the price).
Json layers_response(const Request& r, std::vector<std::string>& warnings, double* step_ms = nullptr,
                     NetworkPricer* pricer = nullptr) {
  const Scenario& s = r.scenario;
  std::optional<NetworkPricer> own;
  if (!pricer) pricer = &own.emplace(s);
  const PricedNetwork c = pricer->at(s.batch_size);
  if (step_ms) *step_ms = forward_ms(s, c.cost) + backward_ms(s, c.cost) + update_ms(s, c.cost);
  Json out = common_header(r);
  out["net"] = net_header(s, c.net);
  Json layers = Json::array();
  // A request whose sections leave the table out is answered without building it.
  const std::size_t rows = r.sections.wanted("layers") ? c.net.layers.size() : 0;
  for (std::size_t i = 0; i < rows; ++i) {
    const Layer& l = c.net.layers[i];
    const LayerCost& lc = c.cost.layers[i];
    Json inputs = Json::array();
    for (const Shape& in : l.inputs) inputs.push_back(shape_json(in));
    layers.push_back({{"name", l.name}, {"type", l.type}, {"device_id", l.device_id()},
                      {"inputs", inputs}, {"output", shape_json(l.output)}, {"params", l.params},
                      {"weights_bytes", l.weights_bytes},
                      {"forward", pass_json(lc.forward, true)},
                      {"backward_data", pass_json(lc.backward_data, true)},
                      {"backward_filter", pass_json(lc.backward_filter, true)},
                      {"backward", pass_json(lc.backward, false)}});
  }
  out["layers"] = std::move(layers);
  out["totals"] = totals_json(s, c.cost);
  // One device holds the whole step unless a cluster section prices it (with its own memory).
  if (!s.has_cluster) {
    const MemoryFootprint m = memory_footprint(c.net, c.cost, s.cost.optimizer, s.device.memory_bytes);
    if (auto w = memory_warning(s.device, m, "one device")) warnings.push_back(*w);
  }
  if (r.layers.work_depth) out["work_depth"] = work_depth_json(s.device, c.net);
  // How far estimates of this kind land from published measurements (docs/validation.md).
  out["expected_error"] = expected_error_json(s.has_cluster ? "cnn_data_parallel" : "cnn_single_gpu");
  return out;
}

Json summary_response(const Request& r) {
  const Scenario& s = r.scenario;
  const Network net = build_network(s.spec, s.graph, s.batch_size, *s.profile);
  Json out = {{"ok", true}, {"command", r.command}, {"net", net_header(s, net)}};
  Json layers = Json::array();
  double params = 0, params_bytes = 0, activation_bytes = 0;
  for (const Layer& l : net.layers) {
    layers.push_back({{"name", l.name}, {"type", l.type}, {"output", shape_json(l.output)}, {"params", l.params}});
    params += static_cast<double>(l.params);
    params_bytes += l.weights_bytes;
    activation_bytes += product(l.output) * 4;
  }
  out["layers"] = std::move(layers);
  out["totals"] = {{"params", params}, {"params_bytes", params_bytes}, {"activation_bytes", activation_bytes}};
  return out;
}

Json data_parallel_json(const std::vector<ScalingTable>& scaling_tables) {
  Json tables = Json::array();
  for (const ScalingTable& t : scaling_tables) {
    Json rows = Json::array();
    for (const ScalingRow& row : t.rows) {
      Json comm = Json::object(), step = Json::object(), speedup = Json::object();
      for (std::size_t k = 0; k < kOriginalSchemes.size(); ++k) {
        comm[scheme_name(kOriginalSchemes[k])] = row.comm_ms[k];
        step[scheme_name(kOriginalSchemes[k])] = row.comp_ms + row.comm_ms[k];
        speedup[scheme_name(kOriginalSchemes[k])] = row.speedup[k];
      }
      const std::size_t fastest = fastest_scheme_index(row);
      rows.push_back({{"workers", row.workers}, {"batch_size", row.batch_size}, {"iter", row.iterations},
                      {"time_fwd_ms", row.fwd_ms}, {"time_bwd_ms", row.bwd_ms}, {"time_apply_ms", row.apply_ms},
                      {"time_comp_ms", row.comp_ms}, {"comm_ms", comm}, {"step_ms", step},
                      {"fastest_scheme", scheme_name(kOriginalSchemes[fastest])}, {"speedup", speedup}});
    }
    tables.push_back({{"scaling", t.scaling}, {"rows", rows}});
  }
  return tables;
}

Json bounds_json(const BranchBounds& b) { return {{"lower_ms", b.lower_ms}, {"upper_ms", b.upper_ms}}; }

Json hybrid_row_json(const HybridRow& row) {
  return {{"part", row.part}, {"workers", row.workers}, {"batch_size", row.batch_size},
          {"fwd_time_ms", row.fwd_ms}, {"bwd_time_ms", row.bwd_ms}, {"apply_time_ms", row.apply_ms},
          {"sync_time_ms", row.sync_ms}};
}

// `tables`, when given, receives the data-parallel scaling tables the section is written from.
Json simulation_json(const Request& r, std::vector<std::string>& warnings,
                     std::vector<ScalingTable>* tables = nullptr) {
  Json out = {{"parallel", r.simulation.parallel}};
  if (r.simulation.parallel == "data") {
    const std::vector<ScalingTable> scaling = simulate_data_parallel(r.scenario, r.simulation.workers, r.simulation.scalings);
    if (tables) *tables = scaling;
    out["scaling"] = data_parallel_json(scaling);
    for (std::string& w : batch_split_warnings(r.scenario.batch_size, r.simulation.workers, r.simulation.scalings)) warnings.push_back(std::move(w));
  } else if (r.simulation.parallel == "model") {
    ModelParallelResult m = simulate_model_parallel(r.scenario);
    out["forward"] = bounds_json(m.forward);
    out["backward"] = bounds_json(m.backward);
  } else {
    HybridResult h = simulate_hybrid(r.scenario, r.simulation.hybrid_workers);
    out["rows"] = Json::array({hybrid_row_json(h.data), hybrid_row_json(h.model)});
    out["iteration_ms"] = h.iteration_ms();
  }
  return out;
}

Json original_scheme_names() {
  Json names = Json::array();
  for (OriginalScheme scheme : kOriginalSchemes) names.push_back(scheme_name(scheme));
  return names;
}

Json presets_response() {
  const Presets& p = Presets::instance();
  Json nets = Json::array();
  for (const std::string& key : p.net_keys()) {
    const Json& spec = p.net(key);
    Json entry = {{"key", key}, {"name", spec.value("name", key)}, {"label", spec.value("label", key)}};
    try {
      entry["batch_size"] = spec_batch_size(expand_net_spec(spec));
    } catch (const Error&) {
      entry["batch_size"] = nullptr;
    }
    nets.push_back(std::move(entry));
  }
  Json transformers = Json::array();
  for (const std::string& key : p.transformer_keys()) {
    const Json& doc = *p.find_transformer(key);
    transformers.push_back({{"key", key}, {"name", doc.value("name", key)}, {"year", doc.value("year", Json())},
                            {"published_params", doc.value("published_params", Json())}});
  }
  // The eras a request may name (software_era): what each is, which nets and generations it is
  // for (the default of their requests; of their ZeRO-3 requests), and the generations it was
  // refitted on (where it runs with that fit's parameters).
  Json eras = Json::array();
  for (const Json& era : p.software_eras()) {
    Json refitted_on = Json::array();
    for (const EraFit& f : era_fits(era))
      if (!f.generation.empty()) refitted_on.push_back(f.generation);
    eras.push_back({{"key", era.at("key")},
                    {"name", era.at("name")},
                    {"applies_to", era.at("applies_to")},
                    {"generations", era.at("generations")},
                    {"zero3_generations", era.value("zero3_generations", Json::array())},
                    {"refitted_on", refitted_on}});
  }
  return {{"ok", true}, {"command", "presets"}, {"nets", nets}, {"transformers", transformers}, {"devices", p.devices()},
          {"interconnects", p.interconnects()}, {"software", p.software_list()}, {"software_eras", eras},
          {"scenarios", p.scenarios()},
          {"prices", p.prices()}, {"links", p.links()}, {"clusters", p.clusters()}, {"profiles", profile_names()},
          {"conv_algorithms", conv_algorithm_names()}, {"original_schemes", original_scheme_names()},
          {"collectives", gradient_collective_names()}};
}

const Request& require_net(const Request& r) {
  if (!r.has_net) throw Error("is required for command '" + r.command + "'", "", "net");
  return r;
}

// The commands a request document names are answered from the registry (core/api/command_registry.h).
Json dispatch(const Json& request) {
  // `validate`, `calibrate` and `schema` read their own fields; they take none of a request's.
  const Json named = request.is_object() ? request.value("command", Json()) : Json();
  const CommandSpec* own = named.is_string() ? find_command(named.get<std::string>()) : nullptr;
  if (own && own->handle_document) return own->handle_document(request);
  Request r = parse_request(request);
  if (r.scenario.has_cluster && !r.is_transformer) r.max_batch_key = max_batch_key(request);
  // Without sections the answer is returned as built (moved, never copied: a CNN's is large).
  const auto lean = [&r](Json answer) -> Json { return r.sections.apply(std::move(answer)); };
  const CommandSpec* command = find_command(r.command);
  if (command && command->any_net) return command->handle_parsed(r, r.warnings);
  if (r.is_transformer) {
    if (!command || !command->handle_transformer)
      throw Error("command '" + r.command + "' is for CNN specs; a transformer takes " + transformer_command_list(), "",
                  "command");
    return lean(command->handle_transformer(r));
  }
  if (!command || !command->handle_parsed)
    throw Error("unknown command '" + r.command + "' (known: " + known_command_list() + ")", "", "command");
  // Every CNN answer that lists warnings (docs/api.md, "Warnings") lists them, empty when none.
  std::vector<std::string> warnings = r.warnings;
  Json out = command->handle_parsed(r, warnings);
  if (command->lists_warnings) out["warnings"] = warnings;
  return lean(std::move(out));
}

Json error_json(const std::string& message, const std::string& layer, const std::string& field) {
  // Valid UTF-8 and short even when the message quotes the request (see core/base/error.h).
  return {{"ok", false},
          {"error", {{"message", shortened_utf8(message, kMaxErrorMessageBytes)},
                     {"layer", shortened_utf8(layer, kMaxEchoedNameBytes)},
                     {"field", shortened_utf8(field, kMaxEchoedNameBytes)}}}};
}

// A last guard: a response never carries NaN or infinity (JSON cannot, and it would be wrong).
bool all_finite(const Json& j) {
  if (j.is_number_float()) return std::isfinite(j.get<double>());
  if (j.is_structured())
    for (const Json& v : j)
      if (!all_finite(v)) return false;
  return true;
}

}  // namespace

Json version_answer(const Request&, std::vector<std::string>&) {
  return {{"ok", true}, {"command", "version"}, {"version", kVersion}, {"profiles", profile_names()}};
}

Json presets_answer(const Request&, std::vector<std::string>&) { return presets_response(); }

Json transformer_only_answer(const Request& r, std::vector<std::string>&) {
  throw Error("'" + r.command + "' needs a transformer net (a preset, a config or a Hugging Face config.json)", "",
              "net");
}

Json summary_answer(const Request& r, std::vector<std::string>&) { return summary_response(require_net(r)); }

Json layers_answer(const Request& r, std::vector<std::string>& warnings) {
  return layers_response(require_net(r), warnings);
}

Json estimate_answer(const Request& r, std::vector<std::string>& warnings) {
  // The time to train is built from the typed results of the sections (api/train_section.h).
  double step_ms = 0;
  NetworkPricer pricer(require_net(r).scenario);  // the one-device table and the cluster price the same net
  Json out = layers_response(r, warnings, &step_ms, &pricer);
  std::vector<TrainSetup> setups = {one_device_setup(r.scenario.batch_size, step_ms)};
  if (r.simulation.workers_given) {
    std::vector<ScalingTable> tables;
    out["simulation"] = simulation_json(r, warnings, &tables);
    if (!tables.empty())
      for (TrainSetup& s : original_setups(tables.front(), r.scenario.interconnect.name)) setups.push_back(std::move(s));
  }
  if (r.scenario.has_cluster) {
    ClusterStep step;
    out["cluster"] = cluster_step_json(r, warnings, &step, &pricer);
    setups.push_back(cluster_setup(step));
  }
  // The headline is the setup the response's own step is: the cluster when there is one.
  Json train = cnn_train_json(r, setups, r.scenario.has_cluster ? setups.size() - 1 : 0);
  if (!train.is_null()) out["train"] = std::move(train);
  if (r.scheme.has_training_scheme || r.scheme.comparison) out["training_scheme"] = training_scheme_json(r, warnings);
  return out;
}

Json collective_answer(const Request& r, std::vector<std::string>&) { return collective_response(r); }

Json search_answer(const Request& r, std::vector<std::string>& warnings) { return search_response(r, warnings); }

Json simulate_answer(const Request& r, std::vector<std::string>& warnings) {
  Json out = common_header(require_net(r));
  out["net"] = {{"name", r.scenario.spec.name}, {"batch_size", r.scenario.batch_size}};
  out.update(simulation_json(r, warnings));
  return out;
}

Json handle_request(const Json& request) {
  try {
    check_nesting(request, "");
    Json response = dispatch(request);
    if (!all_finite(response))
      return error_json("the inputs lead to a non-finite result (sizes or rates out of range)", "", "");
    return response;
  } catch (const Error& e) {
    return error_json(e.what(), e.layer(), e.field());
  } catch (const std::exception& e) {
    return error_json(std::string("internal error: ") + e.what(), "", "");
  }
}

std::string handle_request_json(const std::string& request_json) {
  Json request;
  try {
    request = parse_json_text(request_json, "");
  } catch (const Error& e) {
    return dump_json(error_json(e.what(), e.layer(), e.field()));
  }
  return dump_json(handle_request(request));
}

std::string add_preset_file_json(const std::string& path, const std::string& text) {
  try {
    const bool added = Presets::add_file(path, text);
    return dump_json(Json{{"ok", true}, {"path", path}, {"added", added}});
  } catch (const Error& e) {
    return dump_json(error_json(e.what(), e.layer(), e.field()));
  } catch (const std::exception& e) {
    return dump_json(error_json(e.what(), "", "path"));
  }
}

}  // namespace paleo
