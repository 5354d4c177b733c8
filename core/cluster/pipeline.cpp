#include "core/cluster/pipeline.h"

#include <algorithm>
#include <limits>

namespace paleo {

PipelineResult pipeline_schedule(const std::vector<StageTimes>& stages, std::int64_t micro_batches) {
  PipelineResult r;
  r.stages = stages;
  double slowest = 0, one_pass = 0;
  for (const StageTimes& s : stages) {
    const double busy = s.forward_ms + s.backward_ms + 2 * s.transfer_ms;
    slowest = std::max(slowest, busy);
    one_pass += busy;
  }
  const double m = static_cast<double>(micro_batches);
  r.step_ms = (m - 1) * slowest + one_pass;
  r.ideal_ms = m * slowest;
  return r;
}

double interleaved_pipeline_ms(const std::vector<double>& stage_ms, std::int64_t micro_batches, std::int64_t virtual_stages) {
  double slowest = 0, sum = 0;
  for (double t : stage_ms) {
    slowest = std::max(slowest, t);
    sum += t;
  }
  return static_cast<double>(micro_batches) * slowest + (sum - slowest) / static_cast<double>(virtual_stages);
}

std::vector<std::int64_t> balanced_split(const std::vector<double>& layer_ms, std::int64_t stages) {
  const std::size_t n = layer_ms.size();
  const std::size_t k = static_cast<std::size_t>(std::max(std::int64_t{1}, std::min<std::int64_t>(stages, static_cast<std::int64_t>(n))));
  std::vector<double> prefix(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + layer_ms[i];
  const double inf = std::numeric_limits<double>::infinity();
  // best[j][i]: the smallest possible slowest stage for the first i layers in j stages.
  std::vector<std::vector<double>> best(k + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<std::size_t>> cut(k + 1, std::vector<std::size_t>(n + 1, 0));
  best[0][0] = 0;
  for (std::size_t j = 1; j <= k; ++j)
    for (std::size_t i = j; i <= n; ++i)
      for (std::size_t p = j - 1; p < i; ++p) {
        const double v = std::max(best[j - 1][p], prefix[i] - prefix[p]);
        if (v < best[j][i]) {
          best[j][i] = v;
          cut[j][i] = p;
        }
      }
  std::vector<std::int64_t> sizes(k);
  for (std::size_t j = k, i = n; j > 0; --j) {
    sizes[j - 1] = static_cast<std::int64_t>(i - cut[j][i]);
    i = cut[j][i];
  }
  return sizes;
}

double activations_kept(const std::string& schedule, std::int64_t stage, std::int64_t stages, std::int64_t micro_batches) {
  if (schedule == "gpipe") return static_cast<double>(micro_batches);
  return static_cast<double>(std::min(micro_batches, stages - stage));
}

}  // namespace paleo
