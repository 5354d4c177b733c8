#pragma once
// A scenario's network priced at the batch sizes one request asks for (the step, batch 1 and 2,
// each guess of the largest batch that fits, the micro-batch, every point of a sweep): the spec is
// read once, one network re-batched in place for each size, and each size costed once.
#include <map>

#include "core/cost/scenario.h"

namespace paleo {

// The network at one batch size and its cost.
struct PricedNetwork {
  const Network& net;       // valid until the pricer is asked for another batch size
  const NetworkCost& cost;  // valid as long as the pricer
};

class NetworkPricer {
 public:
  // Keeps a reference to `scenario`, which must outlive the pricer and keep its network, hardware
  // and cost options (its cluster may change: the network's cost does not depend on it).
  explicit NetworkPricer(const Scenario& scenario);

  PricedNetwork at(Dim batch_size);

 private:
  const Scenario& scenario_;
  CostModel model_;
  CostModel update_model_;
  bool built_ = false;
  Network net_;
  std::map<Dim, NetworkCost> costs_;
};

}  // namespace paleo
