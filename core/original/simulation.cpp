#include "core/original/simulation.h"

#include "core/base/checked_math.h"
#include "core/base/error.h"
#include "core/cost/network_pricer.h"

namespace paleo {
namespace {

ScalingRow scaling_row(const Scenario& s, const NetworkCost& c, std::int64_t workers) {
  ScalingRow row;
  row.workers = workers;
  row.fwd_ms = forward_ms(s, c);
  row.bwd_ms = backward_ms(s, c);
  row.apply_ms = update_ms(s, c);
  row.comp_ms = row.fwd_ms + row.bwd_ms + row.apply_ms;
  for (std::size_t k = 0; k < kOriginalSchemes.size(); ++k)
    row.comm_ms[k] = all_reduce_ms(kOriginalSchemes[k], workers, gradient_bytes(c), s.interconnect, s.ppp_comm);
  return row;
}

Dim strong_batch(Dim batch, std::int64_t workers) { return (batch + workers - 1) / workers; }

}  // namespace

std::vector<ScalingTable> simulate_data_parallel(const Scenario& s, const std::vector<std::int64_t>& workers,
                                                 const std::vector<std::string>& scalings) {
  std::vector<ScalingTable> tables;
  NetworkPricer pricer(s);
  const NetworkCost& full = pricer.at(s.batch_size).cost;
  const ScalingRow one_worker = scaling_row(s, full, 1);
  for (const std::string& scaling : scalings) {
    ScalingTable table;
    table.scaling = scaling;
    for (std::int64_t n : workers) {
      ScalingRow row;
      if (scaling == "weak") {
        row = scaling_row(s, full, n);
        row.batch_size = checked_multiply(s.batch_size, n, "workers");
      } else if (scaling == "strong") {
        const Dim per_worker = strong_batch(s.batch_size, n);
        row = per_worker == s.batch_size ? scaling_row(s, full, n)
                                         : scaling_row(s, pricer.at(per_worker).cost, n);
        row.batch_size = s.batch_size;
      } else {
        throw Error("unknown scaling '" + scaling + "' (known: weak, strong)", "", "scaling");
      }
      for (std::size_t k = 0; k < kOriginalSchemes.size(); ++k) {
        const double t1 = one_worker.comp_ms + one_worker.comm_ms[k];
        const double tn = row.comp_ms + row.comm_ms[k];
        row.speedup[k] = (scaling == "weak" ? static_cast<double>(n) : 1.0) * t1 / tn;
      }
      table.rows.push_back(row);
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

ModelParallelResult simulate_model_parallel(const Scenario& s) {
  const CostedNetwork c = cost_at_batch(s, s.batch_size);
  std::vector<double> fwd, bwd;
  for (const LayerCost& l : c.cost.layers) {
    fwd.push_back(l.forward.total_ms());
    bwd.push_back(l.backward.total_ms());
  }
  return {branch_bounds(c.net.nested, fwd), branch_bounds(c.net.nested, bwd)};
}

double HybridResult::iteration_ms() const {
  return data.fwd_ms + data.bwd_ms + data.apply_ms + data.sync_ms + model.fwd_ms + model.bwd_ms +
         model.apply_ms + model.sync_ms;
}

HybridResult simulate_hybrid(const Scenario& s, std::int64_t hybrid_workers) {
  // Activations move between workers over the network link ("GB/s" = Gbit/s / 8).
  Scenario hybrid = s;
  hybrid.cost.fetch_bandwidth_gb_per_s = s.interconnect.bandwidth_gbit_per_s / 8;
  const CostedNetwork c = cost_at_batch(hybrid, s.batch_size);
  const CostModel update_model = update_model_for(hybrid.cost_model());

  HybridResult r;
  r.data.part = "data";
  r.model.part = "model";
  r.data.workers = r.model.workers = hybrid_workers;
  r.data.batch_size = r.model.batch_size = checked_multiply(s.batch_size, hybrid_workers, "hybrid_workers");
  double data_params = 0, model_params = 0;
  std::vector<double> model_fwd(c.net.layers.size(), 0), model_bwd(c.net.layers.size(), 0);
  int first_model_layer = -1;
  for (std::size_t i = 0; i < c.net.layers.size(); ++i) {
    const Layer& l = c.net.layers[i];
    const LayerCost& lc = c.cost.layers[i];
    if (!l.on_split_device) {
      r.data.fwd_ms += s.use_pipeline ? lc.forward.pipelined_ms() : lc.forward.total_ms();
      r.data.bwd_ms += s.use_pipeline ? lc.backward.pipelined_ms() : lc.backward.total_ms();
      data_params += l.weights_bytes;
    } else {
      if (first_model_layer < 0) first_model_layer = static_cast<int>(i);
      model_fwd[i] = lc.forward.total_ms();
      model_bwd[i] = lc.backward.total_ms();
      model_params += l.weights_bytes;
    }
  }
  const PassCost data_update = update_cost(update_model, data_params);
  r.data.apply_ms = s.use_pipeline ? data_update.pipelined_ms() : data_update.total_ms();
  const double data_gradient_bytes = data_params / 4 * dtype_bytes(c.cost.precision.grad_reduce);
  r.data.sync_ms = all_reduce_ms(OriginalScheme::kTreeAllReduce, hybrid_workers, data_gradient_bytes, s.interconnect,
                                 s.ppp_comm);
  r.model.fwd_ms = branch_bounds(c.net.nested, model_fwd).lower_ms;
  r.model.bwd_ms = branch_bounds(c.net.nested, model_bwd).lower_ms;
  r.model.apply_ms = update_cost(update_model, model_params).total_ms();
  if (first_model_layer >= 0 && !c.net.layers[first_model_layer].parents.empty()) {
    // The model-parallel stage runs once per worker's batch; its input fetch is pipelined, so
    // it is paid once. (Original: element count, not bytes, and no PPP.)
    const Layer& parent = c.net.layers[c.net.layers[first_model_layer].parents[0]];
    double fetch = product(parent.output) / s.profile->memory_bytes_per_gb /
                   (s.interconnect.bandwidth_gbit_per_s / 8) * 1e3;
    fetch *= static_cast<double>(hybrid_workers - 1);
    const double w = static_cast<double>(hybrid_workers);
    r.model.fwd_ms = (r.model.fwd_ms - fetch) * w + fetch;
    r.model.bwd_ms = (r.model.bwd_ms - fetch) * w + fetch;
  }
  return r;
}

std::size_t fastest_scheme_index(const ScalingRow& row) {
  std::size_t fastest = 0;
  for (std::size_t k = 1; k < row.comm_ms.size(); ++k)
    if (row.comm_ms[k] < row.comm_ms[fastest]) fastest = k;
  return fastest;
}

}  // namespace paleo
