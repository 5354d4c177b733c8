// The presets are data with provenance: every number carries a source, and every ready-made
// scenario runs.
#include <catch2/catch.hpp>

#include <string>

#include "core/api.h"
#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;

// Numeric fields of `entry` (nested objects as "a.b"), except inside "sources".
void numeric_fields(const Json& entry, const std::string& prefix, std::vector<std::string>& out) {
  for (auto it = entry.begin(); it != entry.end(); ++it) {
    if (it.key() == "sources") continue;
    const std::string name = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_number()) out.push_back(name);
    if (it->is_object()) numeric_fields(*it, name, out);
  }
}

void require_sources(const Json& list, const char* what) {
  REQUIRE(list.is_array());
  REQUIRE_FALSE(list.empty());
  for (const Json& entry : list) {
    std::vector<std::string> fields;
    numeric_fields(entry.contains("request") ? entry["request"] : entry, "", fields);
    for (const std::string& f : fields) {
      INFO(what << " " << entry.value("key", "?") << " field " << f);
      REQUIRE(entry.contains("sources"));
      CHECK(entry["sources"].contains(f));
      if (entry["sources"].contains(f)) CHECK_FALSE(entry["sources"][f].get<std::string>().empty());
    }
  }
}

}  // namespace

TEST_CASE("every numeric preset field carries its source") {
  const paleo::Presets& p = paleo::Presets::instance();
  require_sources(p.devices(), "device");
  require_sources(p.interconnects(), "interconnect");
  require_sources(p.software_list(), "software");
  require_sources(p.scenarios(), "scenario");
  if (!p.links().empty()) require_sources(p.links(), "link");
  if (!p.clusters().empty()) require_sources(p.clusters(), "cluster");
}

TEST_CASE("the original's device table is reproduced exactly") {
  const paleo::Presets& p = paleo::Presets::instance();
  struct Row { const char* key; double clock, peak, bw; bool gpu; };
  const Row rows[] = {{"TITAN_X", 1000, 6144, 336.5, true}, {"K20", 1000, 3520, 208, true},
                      {"K20X", 1000, 3935, 250, true},      {"K40", 745, 4290, 288, true},
                      {"K80", 560, 5600, 480, true},        {"GEFORCE_780_TI", 875, 5040, 336, true},
                      {"GEFORCE_750_M", 941, 722.7, 80, true}, {"CPU_I7", 210000, 289, 68, false}};
  for (const Row& r : rows) {
    const paleo::Device d = p.device(r.key);
    CHECK(d.clock_mhz == r.clock);
    CHECK(d.peak_gflops == r.peak);
    CHECK(d.mem_bandwidth_gb_per_s == r.bw);
    CHECK(d.is_gpu == r.gpu);
  }
  CHECK(p.interconnect("infiniband", "interconnect").bandwidth_gbit_per_s == 70);
  CHECK(p.interconnect("pcie2", "interconnect").bandwidth_gbit_per_s == 64);
  CHECK(p.software("tensorflow").ppp_comp == 0.62);
}

TEST_CASE("every scenario and every preset net runs") {
  const paleo::Presets& p = paleo::Presets::instance();
  for (const Json& sc : p.scenarios()) {
    INFO("scenario " << sc.value("key", "?"));
    const Json r = paleo::handle_request(sc["request"]);
    CHECK(r["ok"].get<bool>());
  }
  for (const std::string& net : p.net_keys()) {
    for (const Json& dev : p.devices()) {
      INFO(net << " on " << dev["key"]);
      const Json r = paleo::handle_request(
          Json{{"command", "estimate"}, {"net", net}, {"device", dev["key"]}, {"conv_algorithm", "auto"}});
      CHECK(r["ok"].get<bool>());
    }
  }
}

TEST_CASE("a response's device sent back as a device object prices the same step and so does a preset object") {
  for (const char* key : {"H100_SXM", "V100_SXM2_16GB", "TITAN_X", "CPU_I7", "MI300X"}) {
    CAPTURE(key);
    for (const Json& net : {Json("resnet50_v1_5"), Json("llama3_8b")}) {
      Json request = {{"command", "estimate"}, {"net", net}, {"device", key}, {"precision", "bf16"}};
      if (net == "resnet50_v1_5") request["batch_size"] = 64;
      const Json by_key = paleo::handle_request(request);
      REQUIRE(by_key["ok"].get<bool>());
      // The response's device as the request's: generation, tensor peaks and SMs included.
      Json custom = by_key["device"];
      custom.erase("key");
      request["device"] = custom;
      const Json by_object = paleo::handle_request(request);
      INFO(by_object.dump().substr(0, 400));
      REQUIRE(by_object["ok"].get<bool>());
      const char* step = net == "resnet50_v1_5" ? "/totals/step_ms" : "/step_ms";
      CHECK(by_object[Json::json_pointer(step)] == by_key[Json::json_pointer(step)]);
      CHECK(by_object["warnings"] == by_key["warnings"]);
    }
    // The preset as `paleo presets` lists it (sources, notes and origin included).
    for (const Json& entry : paleo::Presets::instance().devices())
      if (entry["key"] == key) {
        const Json a = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", key}});
        const Json b = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", entry}});
        REQUIRE(b["ok"].get<bool>());
        CHECK(a["totals"]["step_ms"] == b["totals"]["step_ms"]);
      }
  }
}

TEST_CASE("a device object's unknown member or generation is an error naming the device") {
  const Json base = {{"name", "mine"}, {"clock_mhz", 1500}, {"peak_gflops", 20000}, {"mem_bandwidth_gb_per_s", 1000}};
  auto error_of = [&](const Json& extra) {
    Json device = base;
    device.update(extra);
    const Json out = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", device}});
    REQUIRE_FALSE(out["ok"].get<bool>());
    CHECK(out["error"]["field"] == "device");
    return out["error"]["message"].get<std::string>();
  };
  CHECK_THAT(error_of({{"sm_cont", 80}}), Catch::Contains("unknown member \"sm_cont\""));
  CHECK_THAT(error_of({{"generation", "hoper"}}), Catch::Contains("'generation' \"hoper\" is not one Paleo knows"));
  CHECK_THAT(error_of({{"generation", "hoper"}}), Catch::Contains("hopper"));
  CHECK_THAT(error_of({{"generation", 9}}), Catch::Contains("'generation' must be a string"));
  // A known generation picks its software era; none, the untuned model.
  Json hopper = base;
  hopper["generation"] = "hopper";
  const Json out = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", hopper}});
  REQUIRE(out["ok"].get<bool>());
  CHECK(out["software_era"]["key"] == "pytorch_cudnn9_2025");
  const Json none = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"device", base}});
  CHECK(none["software_era"]["key"] == "untuned");
}

TEST_CASE("the GB200 preset is the NVL72 datasheet's rack over its 72 GPUs, dense") {
  const paleo::Presets& p = paleo::Presets::instance();
  const paleo::Device d = p.device("GB200");
  // The datasheet's rack figures: FP32 5,760 TFLOPS, 576 TB/s, 13.4 TB (186 GB a GPU); tensor
  // figures with sparsity, which halves them: TF32 180, BF16 360, FP8 720 PFLOPS.
  CHECK(d.peak_gflops == 5760e3 / 72);
  CHECK(d.mem_bandwidth_gb_per_s == 576e3 / 72);
  CHECK(d.memory_bytes == 186.0 * 1024 * 1024 * 1024);
  CHECK(d.peak_tensor_gflops.at("tf32") == 180e6 / 72 / 2);
  CHECK(d.peak_tensor_gflops.at("bf16") == 360e6 / 72 / 2);
  CHECK(d.peak_tensor_gflops.at("fp8") == 720e6 / 72 / 2);
  CHECK(d.generation == "blackwell");
  // Its node is the rack: 72 GPUs in one NVLink 5 domain.
  std::string device_key;
  const paleo::Cluster rack = p.cluster(d.node, &device_key);
  CHECK(device_key == "GB200");
  CHECK(rack.devices_per_node == 72);
  CHECK(rack.intra.key == "nvlink5_b200");
}

TEST_CASE("the Blackwell Ultra presets: GB300 the NVL72 rack over 72 GPUs, B300 the HGX figures, nodes on XDR") {
  const paleo::Presets& p = paleo::Presets::instance();
  const paleo::Device gb300 = p.device("GB300");
  // GB300 NVL72: FP8 720 PFLOPS with sparsity (360 dense), 576 TB/s, a rack of 72 GPUs; per GPU,
  // dense: BF16 2.5, TF32 1.25 PFLOPS, 279 GB.
  CHECK(gb300.peak_tensor_gflops.at("fp8") == 720e6 / 2 / 72);
  CHECK(gb300.mem_bandwidth_gb_per_s == 576e3 / 72);
  CHECK(gb300.peak_tensor_gflops.at("bf16") == 2.5e6);
  CHECK(gb300.memory_bytes == 279.0 * 1024 * 1024 * 1024);
  // HGX B300 per GPU, dense: FP8 4,500, BF16 2,250, TF32 1,125 TFLOPS; FP32 75 TFLOPS.
  const paleo::Device b300 = p.device("B300");
  CHECK(b300.peak_tensor_gflops.at("fp8") == 4500e3);
  CHECK(b300.peak_tensor_gflops.at("bf16") == 2250e3);
  CHECK(b300.peak_tensor_gflops.at("tf32") == 1125e3);
  CHECK(b300.peak_gflops == 75e3);
  // ConnectX-8: 800 Gb/s a port, 100 GB/s a direction.
  std::string device_key;
  const paleo::Cluster rack = p.cluster(gb300.node, &device_key);
  CHECK(device_key == "GB300");
  CHECK(rack.devices_per_node == 72);
  CHECK(rack.inter.peak_gb_per_s == 800.0 / 8);
  const paleo::Cluster node = p.cluster(b300.node, &device_key);
  CHECK(device_key == "B300");
  CHECK(node.devices_per_node == 8);
  CHECK(node.inter.key == "infiniband_xdr");
}
