#include "core/api/estimate_warnings.h"

#include <algorithm>
#include <cstdio>

#include "core/base/request_limits.h"
#include "core/base/utf8.h"

namespace paleo {
namespace {

// "12.3 GB" (1e9 bytes), with the digits a reader needs.
std::string gigabytes(double bytes) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f GB", bytes / 1e9);
  return text;
}

std::string milliseconds(double ms) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3g ms", ms);
  return text;
}

std::string name_of(const std::string& name) { return "'" + shortened_utf8(name, kMaxEchoedNameBytes) + "'"; }

}  // namespace

std::optional<std::string> memory_warning(const Device& device, const MemoryFootprint& m, const std::string& where) {
  if (m.fits()) return std::nullopt;
  return "memory: the step needs " + gigabytes(m.total_bytes()) + " on " + where + " (weights " +
         gigabytes(m.weights_bytes) + ", gradients " + gigabytes(m.gradients_bytes) + ", optimizer state " +
         gigabytes(m.optimizer_bytes) + ", activations " + gigabytes(m.activations_bytes) + ", workspace " +
         gigabytes(m.workspace_bytes) + "), more than the " + gigabytes(m.capacity_bytes) + " of the " +
         name_of(device.name) + ": it does not fit; the time is that of a device with enough memory";
}

std::vector<std::string> batch_split_warnings(std::int64_t batch, const std::vector<std::int64_t>& workers,
                                              const std::vector<std::string>& scalings) {
  std::vector<std::string> out;
  if (std::find(scalings.begin(), scalings.end(), "strong") == scalings.end()) return out;
  for (std::int64_t n : workers) {
    if (n < 1 || batch % n == 0) continue;
    const std::int64_t per_worker = (batch + n - 1) / n;
    out.push_back("batch: strong scaling splits the batch of " + std::to_string(batch) + " over " + std::to_string(n) +
                  " workers, which does not divide evenly; each worker is priced with " + std::to_string(per_worker) +
                  " samples (" + std::to_string(per_worker * n) + " in all)");
  }
  return out;
}

std::optional<std::string> slow_link_warning(const Cluster& cluster, const std::string& algorithm, double comm_ms,
                                             double compute_ms) {
  if (!(comm_ms > compute_ms)) return std::nullopt;
  const std::string links = cluster.nodes > 1 ? name_of(cluster.intra.name) + " and " + name_of(cluster.inter.name)
                                              : name_of(cluster.intra.name);
  return "links: the gradient all-reduce (" + algorithm + ", " + milliseconds(comm_ms) +
         ") takes longer than the compute of a step (" + milliseconds(compute_ms) + "): " + links +
         " cannot keep up with the devices; a larger batch per device or faster links would use them better";
}

}  // namespace paleo
