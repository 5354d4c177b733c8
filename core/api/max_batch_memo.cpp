#include "core/api/max_batch_memo.h"

#include <utility>
#include <vector>

namespace paleo {
namespace {

constexpr std::size_t kMaxKeys = 256;

// A few keys at a time (a sweep asks one): a list, searched in order. One per thread: callers on
// several threads share nothing, and need no lock.
using Memo = std::vector<std::pair<std::string, std::int64_t>>;

Memo& memo() {
  thread_local Memo m;
  return m;
}

bool size_field(const std::string& name) { return name == "nodes" || name == "devices_per_node" || name == "devices"; }

}  // namespace

std::string max_batch_key(const Json& request) {
  // Each kept member as its name (after its length: unambiguous) and its value's JSON text, in
  // the request's order.
  const auto named = [](const std::string& name) { return std::to_string(name.size()) + ':' + name; };
  std::string key;
  for (auto it = request.begin(); it != request.end(); ++it) {
    const std::string& name = it.key();
    if (size_field(name) || name == "sections" || name == "omit_sections" || name == "bucket_bytes" ||
        name == "node_scaling_max_nodes")
      continue;
    key += named(name);
    if (name != "cluster" || !it.value().is_object()) {
      key += it.value().dump();
      continue;
    }
    for (auto c = it.value().begin(); c != it.value().end(); ++c)
      if (!size_field(c.key())) key += '/' + named(c.key()) + c.value().dump();
  }
  return key;
}

std::optional<std::int64_t> remembered_max_batch(const std::string& key) {
  for (const auto& [k, batch] : memo())
    if (k == key) return batch;
  return std::nullopt;
}

void remember_max_batch(const std::string& key, std::int64_t batch) {
  Memo& m = memo();
  if (m.size() >= kMaxKeys) m.clear();
  m.emplace_back(key, batch);
}

}  // namespace paleo
