#include "core/training_scheme/scheme_comparison.h"

namespace paleo {

std::vector<ComparedScheme> compared_schemes(const StragglerModel& jitter) {
  std::vector<ComparedScheme> out(6);
  out[0].name = "sync all-reduce";
  out[1].name = "SSP, s = 4";
  out[1].scheme.consistency = Consistency::kStaleSynchronous;
  out[1].scheme.staleness = 4;
  out[2].name = "async parameter server";
  out[2].scheme.consistency = Consistency::kAsynchronous;
  out[3].name = "top-1 % sparsified";
  out[3].scheme.compression = parse_compression("topk:0.01", "training_scheme.compression");
  out[4].name = "fp16 gradients";
  out[4].scheme.compression = parse_compression("fp16", "training_scheme.compression");
  out[5].name = "local SGD every 8";
  out[5].scheme.averaging.kind = AveragingKind::kLocalSgd;
  out[5].scheme.averaging.every = 8;
  for (ComparedScheme& c : out) c.scheme.jitter = jitter;
  return out;
}

std::vector<SchemeSweep> scheme_comparison(const Scenario& scenario, const ClusterOptions& options,
                                           const StragglerModel& jitter, NetworkPricer& pricer) {
  std::vector<std::int64_t> nodes;
  for (std::int64_t n = 1; n < scenario.cluster.nodes; n *= 2) nodes.push_back(n);
  nodes.push_back(scenario.cluster.nodes);
  std::vector<SchemeSweep> out;
  Scenario s = scenario;
  for (const ComparedScheme& c : compared_schemes(jitter)) {
    SchemeSweep sweep;
    sweep.name = c.name;
    for (std::int64_t n : nodes) {
      s.cluster.nodes = n;
      const SchemeStep st = training_scheme_step(s, options, c.scheme, pricer);
      ComparisonPoint p;
      p.nodes = n;
      p.workers = st.workers;
      p.step_ms = st.consistency.step_ms;
      p.throughput_samples_per_s = st.throughput_samples_per_s;
      p.wire_bytes_per_step = st.wire_bytes_per_step;
      sweep.points.push_back(p);
    }
    out.push_back(sweep);
  }
  return out;
}

}  // namespace paleo
