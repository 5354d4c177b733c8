// The largest fitting batch is remembered across requests that differ only in the cluster's size,
// the buckets or the sections wanted (core/api/max_batch_memo.h), and never across others.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/api/max_batch_memo.h"
#include "api_answer.h"

using Json = nlohmann::ordered_json;

namespace {

Json cluster_request(const std::string& device, int nodes) {
  return {
      {"command", "estimate"},
      {"net", "resnet50_v1_5"},
      {"device", device},
      {"batch_size", 32},
      {"precision", "fp16"},
      {"cluster", {{"nodes", nodes}, {"devices_per_node", 8}, {"intra", "nvlink2_v100"}, {"inter", "infiniband_edr"}}}};
}

std::int64_t max_batch(const Json& request) {
  return ok_answer(request)["cluster"]["max_batch_per_replica"].get<std::int64_t>();
}

}  // namespace

TEST_CASE("The max-batch key leaves out the cluster's size, the buckets and the sections only", "[api][cluster]") {
  const Json a = cluster_request("V100_SXM2_16GB", 2);
  Json sized = cluster_request("V100_SXM2_16GB", 64);
  sized["cluster"]["devices_per_node"] = 4;
  sized["bucket_bytes"] = 1e6;
  sized["sections"] = {"cluster"};
  CHECK(paleo::max_batch_key(sized) == paleo::max_batch_key(a));
  Json other = a;
  other["cluster"]["inter"] = "ethernet_10g";
  CHECK(paleo::max_batch_key(other) != paleo::max_batch_key(a));
  other = a;
  other["batch_size"] = 64;
  CHECK(paleo::max_batch_key(other) != paleo::max_batch_key(a));
  CHECK(paleo::max_batch_key(cluster_request("V100_SXM2_32GB", 2)) != paleo::max_batch_key(a));
}

TEST_CASE("A remembered largest batch is the one a fresh search finds, per device", "[api][cluster]") {
  const std::int64_t small = max_batch(cluster_request("V100_SXM2_16GB", 2));
  // The same question on more nodes: answered from memory, and as a fresh search answers it (the
  // same request with its members in another order is another key, searched afresh).
  CHECK(max_batch(cluster_request("V100_SXM2_16GB", 16)) == small);
  const Json more = cluster_request("V100_SXM2_16GB", 16);
  Json reordered = {{"device", "V100_SXM2_16GB"}};
  for (auto it = more.begin(); it != more.end(); ++it)
    if (it.key() != "device") reordered[it.key()] = it.value();
  CHECK(max_batch(reordered) == small);
  // Twice the memory holds about twice the batch: not the 16 GB answer remembered.
  const std::int64_t large = max_batch(cluster_request("V100_SXM2_32GB", 2));
  CHECK(large > 2 * small - 16);
  CHECK(large < 2 * small + 64);
}
