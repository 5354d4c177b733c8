#include "core/spec/presets.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "core/spec/embedded_presets.h"
#include "core/base/error.h"
#include "core/base/request_limits.h"

namespace paleo {
namespace {

const Json* find_by_key(const Json& list, const std::string& key) {
  for (const Json& entry : list)
    if (entry.value("key", "") == key) return &entry;
  return nullptr;
}

std::string known_keys(const Json& list) {
  std::string out;
  for (const Json& entry : list) out += (out.empty() ? "" : ", ") + entry.value("key", "");
  return out;
}

// A positive rate within physically sensible bounds: anything outside is a typo, and would
// otherwise turn into absurd (or overflowing) times.
double positive(const Json& obj, const std::string& name, const std::string& field, double low = 1e-6,
                double high = 1e12) {
  if (!obj.contains(name)) throw Error("needs '" + name + "'", "", field);
  if (!obj[name].is_number()) throw Error("'" + name + "' must be a number, got " + echo(obj[name]), "", field);
  const double v = obj[name].get<double>();
  if (!(v >= low && v <= high))
    throw Error("'" + name + "' must be between " + echo(Json(low)) + " and " + echo(Json(high)) + ", got " +
                    echo(obj[name]), "", field);
  return v;
}

const Json& list_in(const Json& doc, const char* name) {
  static const Json empty = Json::array();
  auto it = doc.find(name);
  return it != doc.end() && it->is_array() ? *it : empty;
}

// The members a device object may have: what it is priced with, and the presets' provenance
// (so that a preset of `paleo presets` can be sent back as it is).
constexpr const char* kDeviceMembers[] = {"key",
                                          "name",
                                          "generation",
                                          "node",
                                          "clock_mhz",
                                          "peak_gflops",
                                          "peak_tensor_gflops",
                                          "mem_bandwidth_gb_per_s",
                                          "memory_bytes",
                                          "stream_bandwidth_gb_per_s",
                                          "sm_count",
                                          "is_gpu",
                                          "origin",
                                          "sources",
                                          "notes"};

// The generations the device presets name (and the software eras pick by).
std::string known_generation(const std::string& generation, const std::string& field) {
  std::vector<std::string> known;
  for (const Json& entry : Presets::instance().devices()) {
    const std::string g = entry.value("generation", "");
    if (g == generation) return g;
    if (!g.empty() && std::find(known.begin(), known.end(), g) == known.end()) known.push_back(g);
  }
  std::string list;
  for (const std::string& g : known) list += (list.empty() ? "" : ", ") + g;
  throw Error("'generation' " + echo(Json(generation)) + " is not one Paleo knows (known: " + list +
                  "; leave it out for none: no software era, the untuned kernel model)",
              "", field);
}

// A user's device, link or cluster object names itself in answers by its "key", else "custom".
std::string key_or_custom(const Json& obj, const std::string& field) {
  if (!obj.contains("key")) return "custom";
  if (!obj["key"].is_string()) throw Error("'key' must be a string, got " + echo(obj["key"]), "", field);
  return obj["key"].get<std::string>();
}

}  // namespace

Device device_from_json(const Json& obj, const std::string& field) {
  if (!obj.is_object()) throw Error("must be a preset name or an object", "", field);
  for (auto it = obj.begin(); it != obj.end(); ++it)
    if (std::find_if(std::begin(kDeviceMembers), std::end(kDeviceMembers),
                     [&](const char* m) { return it.key() == m; }) == std::end(kDeviceMembers)) {
      std::string known;
      for (const char* m : kDeviceMembers) known += (known.empty() ? "" : ", ") + std::string(m);
      throw Error("unknown member " + echo(Json(it.key())) + " (known: " + known + ")", "", field);
    }
  Device d;
  d.key = key_or_custom(obj, field);
  d.name = obj.contains("name") && obj["name"].is_string() ? obj["name"].get<std::string>() : d.key;
  d.clock_mhz = positive(obj, "clock_mhz", field, 1, 1e7);
  d.peak_gflops = positive(obj, "peak_gflops", field, 1e-3, 1e9);
  d.mem_bandwidth_gb_per_s = positive(obj, "mem_bandwidth_gb_per_s", field, 1e-3, 1e8);
  if (obj.contains("memory_bytes") && !obj["memory_bytes"].is_null()) {
    d.memory_bytes = read_number(obj, "memory_bytes", "");
    if (d.memory_bytes < 0 || d.memory_bytes > 1e18) throw Error("'memory_bytes' must be from 0 to 1e18", "", field);
  }
  if (obj.contains("stream_bandwidth_gb_per_s") && !obj["stream_bandwidth_gb_per_s"].is_null()) {
    d.stream_bandwidth_gb_per_s = read_number(obj, "stream_bandwidth_gb_per_s", "");
    if (!(d.stream_bandwidth_gb_per_s >= 0 && d.stream_bandwidth_gb_per_s <= d.mem_bandwidth_gb_per_s))
      throw Error("'stream_bandwidth_gb_per_s' must be from 0 (not measured) to the device's mem_bandwidth_gb_per_s (" +
                      echo(Json(d.mem_bandwidth_gb_per_s)) + "), got " + echo(obj["stream_bandwidth_gb_per_s"]),
                  "", field);
  }
  if (obj.contains("sm_count") && !obj["sm_count"].is_null()) {
    const Json& sm = obj["sm_count"];
    d.sm_count = sm.is_number() ? sm.get<double>() : -1;
    if (!(d.sm_count >= 0 && d.sm_count <= 1e6) || d.sm_count != std::floor(d.sm_count))
      throw Error("'sm_count' must be a whole number from 0 to 1e6 (0: unknown), got " + echo(sm), "", field);
  }
  if (obj.contains("is_gpu")) {
    if (!obj["is_gpu"].is_boolean()) throw Error("'is_gpu' must be true or false", "", field);
    d.is_gpu = obj["is_gpu"].get<bool>();
  }
  if (obj.contains("generation") && !obj["generation"].is_null()) {
    if (!obj["generation"].is_string()) throw Error("'generation' must be a string, got " + echo(obj["generation"]), "", field);
    const std::string g = obj["generation"].get<std::string>();
    if (!g.empty()) d.generation = known_generation(g, field);
  }
  if (obj.contains("node") && !obj["node"].is_null()) {
    if (!obj["node"].is_string()) throw Error("'node' must be a cluster preset name, got " + echo(obj["node"]), "", field);
    d.node = obj["node"].get<std::string>();
  }
  if (obj.contains("peak_tensor_gflops") && !obj["peak_tensor_gflops"].is_null()) {
    const Json& peaks = obj["peak_tensor_gflops"];
    if (!peaks.is_object()) throw Error("'peak_tensor_gflops' must be an object {\"bf16\": GFLOP/s, ...}", "", field);
    for (auto it = peaks.begin(); it != peaks.end(); ++it) {
      const std::string& format = it.key();
      if (format != "tf32" && format != "fp16" && format != "bf16" && format != "fp8" && format != "int8")
        throw Error("'peak_tensor_gflops' has an unknown format '" + format + "' (known: tf32, fp16, bf16, fp8, int8)", "",
                    field);
      d.peak_tensor_gflops[format] = positive(peaks, format, field + ".peak_tensor_gflops", 1e-3, 1e9);
    }
  }
  return d;
}

Interconnect interconnect_from_json(const Json& obj, const std::string& field) {
  if (!obj.is_object()) throw Error("must be a preset name or an object", "", field);
  Interconnect n;
  n.key = key_or_custom(obj, field);
  n.name = obj.contains("name") && obj["name"].is_string() ? obj["name"].get<std::string>() : n.key;
  n.bandwidth_gbit_per_s = positive(obj, "bandwidth_gbit_per_s", field, 1e-3, 1e9);
  return n;
}

Link link_from_json(const Json& value, const std::string& field) {
  if (value.is_string()) return Presets::instance().link(value.get<std::string>(), field);
  if (!value.is_object()) throw Error("must be a link preset name or an object", "", field);
  Link l;
  l.key = key_or_custom(value, field);
  l.name = value.contains("name") && value["name"].is_string() ? value["name"].get<std::string>() : l.key;
  const char* bw = value.contains("achievable_gb_per_s") ? "achievable_gb_per_s" : "bandwidth_gb_per_s";
  l.bandwidth_gb_per_s = positive(value, bw, field, 1e-3, 1e8);
  l.peak_gb_per_s = value.contains("peak_gb_per_s") ? positive(value, "peak_gb_per_s", field) : l.bandwidth_gb_per_s;
  l.latency_us = value.contains("latency_us") ? read_number(value, "latency_us", "") : 0;
  if (l.latency_us < 0 || l.latency_us > 1e7) throw Error("'latency_us' must be from 0 to 1e7", "", field);
  return l;
}

Cluster cluster_from_json(const Json& value, const std::string& field, std::string* device_key) {
  if (value.is_string()) return Presets::instance().cluster(value.get<std::string>(), device_key);
  if (!value.is_object()) throw Error("must be a cluster preset name or an object", "", field);
  auto count = [&](const char* name, std::int64_t fallback) {
    if (!value.contains(name)) return fallback;
    Dim n = read_dim(value[name], name, "");
    if (n < 1 || n > kMaxDevices)
      throw Error(std::string("'") + name + "' must be from 1 to " + std::to_string(kMaxDevices), "", field);
    return n;
  };
  Cluster c;
  c.key = key_or_custom(value, field);
  c.name = value.contains("name") && value["name"].is_string() ? value["name"].get<std::string>() : c.key;
  c.nodes = count("nodes", 1);
  c.devices_per_node = count("devices_per_node", 1);
  c.nics_per_node = count("nics_per_node", 1);
  checked_multiply(c.nodes, c.devices_per_node, field, kMaxDevices);  // before devices() forms the product
  c.intra = link_from_json(require_field(value, "intra", ""), field + ".intra");
  c.inter = value.contains("inter") ? link_from_json(value["inter"], field + ".inter") : c.intra;
  if (device_key && value.contains("device") && value["device"].is_string()) *device_key = value["device"].get<std::string>();
  return c;
}

Link Presets::link(const std::string& key, const std::string& field) const {
  const Json* entry = find_by_key(links(), key);
  if (!entry) throw Error("unknown link '" + key + "' (known: " + known_keys(links()) + ")", "", field);
  return link_from_json(*entry, field);
}

Cluster Presets::cluster(const std::string& key, std::string* device_key) const {
  const Json* entry = find_by_key(clusters(), key);
  if (!entry) throw Error("unknown cluster '" + key + "' (known: " + known_keys(clusters()) + ")", "", "cluster");
  return cluster_from_json(*entry, "cluster", device_key);
}

Presets& Presets::mutable_instance() {
  // Never destroyed: nothing to release at exit but memory, and freeing every parsed document
  // would only slow the command line's exit.
  static Presets* presets = new Presets();
  return *presets;
}

const Presets& Presets::instance() { return mutable_instance(); }

Presets::Document::Document(Json parsed) : doc_(std::move(parsed)) {
  std::call_once(parsed_, [] {});  // nothing left to parse
}

const Json& Presets::Document::get() const {
  std::call_once(parsed_, [this] { doc_ = Json::parse(file_->text()); });
  return doc_;
}

const Json& Presets::List::get() const {
  static const Json empty = Json::array();
  return doc ? list_in(doc->get(), name) : empty;
}

Presets::Presets() {
  for (std::size_t i = 0; i < kEmbeddedPresetCount; ++i) {
    paths_.push_back(kEmbeddedPresets[i].path);
    file(paths_.back(), &documents_.emplace_back(&kEmbeddedPresets[i]));
  }
}

void Presets::file(const std::string& path, const Document* doc) {
  auto stem = [&](std::size_t folder) { return path.substr(folder, path.size() - folder - 5); };
  if (path.rfind("nets/", 0) == 0) {
    nets_.emplace_back(stem(5), doc);
  } else if (path.rfind("transformers/", 0) == 0) {
    transformers_.emplace_back(stem(13), doc);
  } else if (path.rfind("validation/", 0) == 0) {
    // In file-name order, however the files came: the suite reports them in that order.
    const std::pair<std::string, const Document*> entry(stem(11), doc);
    const std::lock_guard<std::mutex> lock(validation_mutex_);
    validation_sources_.insert(std::upper_bound(validation_sources_.begin(), validation_sources_.end(), entry,
                                                [](const auto& a, const auto& b) { return a.first < b.first; }),
                               entry);
  } else if (path == "devices.json") {
    devices_ = {doc, "devices"};
  } else if (path == "interconnects.json") {
    interconnects_ = {doc, "interconnects"};
  } else if (path == "software.json") {
    software_ = {doc, "software"};
  } else if (path == "scenarios.json") {
    scenarios_ = {doc, "scenarios"};
  } else if (path == "prices.json") {
    prices_ = {doc, "prices"};
  } else if (path == "links.json") {
    links_ = {doc, "links"};
  } else if (path == "clusters.json") {
    clusters_ = {doc, "clusters"};
  } else if (path == "software_eras.json") {
    software_eras_ = {doc, "eras"};
  }
}

bool Presets::has_file(const std::string& path) const {
  return std::find(paths_.begin(), paths_.end(), path) != paths_.end();
}

bool Presets::add_file(const std::string& path, const std::string& text) {
  // One folder deep, a plain file name: the keys are the file stems, which requests name.
  static const char* const kFolders[] = {"nets/", "transformers/", "validation/"};
  const auto folder =
      std::find_if(std::begin(kFolders), std::end(kFolders), [&](const char* f) { return path.rfind(f, 0) == 0; });
  const std::size_t start = folder == std::end(kFolders) ? 0 : std::string(*folder).size();
  const bool named = path.size() > start + 5 && path.compare(path.size() - 5, 5, ".json") == 0 &&
                     path.find_first_of("/\\", start) == std::string::npos;
  if (folder == std::end(kFolders) || !named)
    throw Error("preset file " + echo(Json(path)) +
                    " must be nets/<key>.json, transformers/<key>.json or "
                    "validation/<name>.json",
                "", "path");
  Presets& presets = mutable_instance();
  if (presets.has_file(path)) return false;
  Json parsed = Json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object())
    throw Error("preset file " + echo(Json(path)) + " is not a JSON object", "", "path");
  presets.paths_.push_back(path);
  presets.file(path, &presets.documents_.emplace_back(std::move(parsed)));
  return true;
}

std::vector<std::pair<std::string, const Json*>> Presets::validation_files() const {
  std::vector<std::pair<std::string, const Document*>> sources;
  {
    const std::lock_guard<std::mutex> lock(validation_mutex_);
    sources = validation_sources_;
  }
  std::vector<std::pair<std::string, const Json*>> files;
  for (const auto& [name, doc] : sources) files.emplace_back(name, &doc->get());
  return files;
}

const Json& Presets::net(const std::string& key) const {
  for (const auto& [k, doc] : nets_)
    if (k == key) return doc->get();
  std::string known;
  for (const auto& [k, spec] : nets_) known += (known.empty() ? "" : ", ") + k;
  for (const auto& [k, doc] : transformers_) known += ", " + k;
  throw Error("unknown preset net '" + key + "' (known: " + known + ")", "", "net");
}

std::shared_ptr<const Json> Presets::net_document(const std::string& key) const {
  return std::shared_ptr<const Json>(std::shared_ptr<const Json>(), &net(key));
}

const Json* Presets::find_transformer(const std::string& key) const {
  for (const auto& [k, doc] : transformers_)
    if (k == key) return &doc->get();
  return nullptr;
}

std::vector<std::string> Presets::transformer_keys() const {
  std::vector<std::string> keys;
  for (const auto& entry : transformers_) keys.push_back(entry.first);
  return keys;
}

std::vector<std::string> Presets::net_keys() const {
  std::vector<std::string> keys;
  for (const auto& entry : nets_) keys.push_back(entry.first);
  return keys;
}

Device Presets::device(const std::string& key) const {
  const Json* entry = find_by_key(devices(), key);
  if (!entry) throw Error("unknown device '" + key + "' (known: " + known_keys(devices()) + ")", "", "device");
  return device_from_json(*entry, "device");
}

Interconnect Presets::interconnect(const std::string& key, const std::string& field) const {
  const Json* entry = find_by_key(interconnects(), key);
  if (!entry) throw Error("unknown interconnect '" + key + "' (known: " + known_keys(interconnects()) + ")", "", field);
  return interconnect_from_json(*entry, field);
}

Software Presets::software(const std::string& key) const {
  const Json* entry = find_by_key(software_list(), key);
  if (!entry) throw Error("unknown software '" + key + "' (known: " + known_keys(software_list()) + ")", "", "software");
  Software s;
  s.key = key;
  s.name = entry->value("name", key);
  s.ppp_comp = read_number(*entry, "ppp_comp", "");
  s.ppp_comm = read_number(*entry, "ppp_comm", "");
  return s;
}

}  // namespace paleo
