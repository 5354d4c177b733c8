#pragma once
// The largest batch that fits one device does not depend on how many nodes and devices per node
// the cluster has, on the gradient buckets or on which parts of the answer are wanted: a sweep
// of cluster sizes asks the same search of every request (each probe prices the whole net). The
// answer is remembered per request, keyed by the request without those fields; anything else
// that differs, even only in key order, is another key and searched afresh. The estimate-only
// module (core/api/estimate_only/) remembers nothing.
#include <cstdint>
#include <optional>
#include <string>

#include "core/base/json.h"

namespace paleo {

// The key of `request`: its text without "sections", "bucket_bytes", "node_scaling_max_nodes",
// "nodes", "devices_per_node" and "devices", at the top or inside a "cluster" object.
std::string max_batch_key(const Json& request);

// The largest fitting batch found for `key`, if one was.
std::optional<std::int64_t> remembered_max_batch(const std::string& key);
// Remembers it (at most 256 keys, all forgotten together when full). Each thread remembers its own.
void remember_max_batch(const std::string& key, std::int64_t batch);

}  // namespace paleo
