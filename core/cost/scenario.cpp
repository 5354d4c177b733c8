#include "core/cost/scenario.h"

#include "core/spec/network_batch.h"

namespace paleo {

Network network_at_batch(const Scenario& s, Dim batch_size) {
  const Network* read = s.built_network();
  if (!read) return build_network(s.spec, s.graph, batch_size, *s.profile);
  Network net = *read;
  rebatch(net, s.spec, s.graph, batch_size, *s.profile);
  return net;
}

CostedNetwork cost_at_batch(const Scenario& s, Dim batch_size) {
  CostedNetwork out;
  out.net = network_at_batch(s, batch_size);
  CostModel model = s.cost_model();
  out.cost = network_cost(out.net, model, update_model_for(model), s.cost);
  return out;
}

double forward_ms(const Scenario& s, const NetworkCost& c) {
  return s.use_pipeline ? c.forward.pipelined_ms : c.forward.total_ms;
}

double backward_ms(const Scenario& s, const NetworkCost& c) {
  return s.use_pipeline ? c.backward.pipelined_ms : c.backward.total_ms;
}

double update_ms(const Scenario& s, const NetworkCost& c) {
  return s.use_pipeline ? c.update.pipelined_ms() : c.update.total_ms();
}

}  // namespace paleo
