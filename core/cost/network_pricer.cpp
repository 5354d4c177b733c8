#include "core/cost/network_pricer.h"

#include "core/spec/network_batch.h"

namespace paleo {

NetworkPricer::NetworkPricer(const Scenario& scenario)
    : scenario_(scenario), model_(scenario.cost_model()), update_model_(update_model_for(model_)) {}

PricedNetwork NetworkPricer::at(Dim batch_size) {
  if (!built_) {
    net_ = network_at_batch(scenario_, batch_size);
    built_ = true;
  } else {
    rebatch(net_, scenario_.spec, scenario_.graph, batch_size, *scenario_.profile);
  }
  auto found = costs_.find(batch_size);
  if (found == costs_.end())
    found = costs_.emplace(batch_size, network_cost(net_, model_, update_model_, scenario_.cost)).first;
  return {net_, found->second};
}

}  // namespace paleo
