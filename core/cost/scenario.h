#pragma once
// Everything a simulation needs: the network, the hardware, the profile and the options.
#include <memory>
#include <optional>

#include "core/efficiency/software_era.h"
#include "core/hardware/device.h"
#include "core/hardware/interconnect.h"
#include "core/cost/layer_cost.h"
#include "core/spec/layer_graph.h"
#include "core/hardware/cluster.h"
#include "core/spec/model_profile.h"
#include "core/spec/net_spec.h"
#include "core/spec/network.h"
#include "core/cost/network_cost.h"
#include "core/precision/precision_policy.h"

namespace paleo {

class Scenario {
 public:
  NetSpec spec;
  LayerGraph graph;
  Dim batch_size = 0;
  Device device;
  Interconnect interconnect;
  const ModelProfile* profile = &default_profile();
  double ppp_comp = 1.0;
  double ppp_comm = 1.0;
  // paleo2026 without a PPP: the software era pricing each kernel (docs/model.md).
  std::optional<SoftwareEra> era;
  PrecisionPolicy precision;  // fp32 unless the request names one (paleo2026 only)
  CostOptions cost;
  bool use_pipeline = false;
  // The cluster of the alpha-beta model (docs/cluster.md); absent = the original's one link.
  bool has_cluster = false;
  Cluster cluster;

  CostModel cost_model() const {
    return CostModel(device, *profile, ppp_comp, ppp_comm, precision,
                     era ? std::optional<KernelEfficiency>(era->efficiency) : std::nullopt, cost.kernel_timing,
                     cost.cuda_graph_step);
  }

  // The network as the spec built it when the request was read, kept so that pricing re-batches
  // it instead of reading the spec again (shared by copies of the scenario).
  void keep_network(Network net) {
    built_ = std::make_shared<const Network>(std::move(net));
    built_profile_ = profile;
  }
  // That network, unless the profile changed since (it decides batch norm's parameters).
  const Network* built_network() const { return built_ && built_profile_ == profile ? built_.get() : nullptr; }

 private:
  std::shared_ptr<const Network> built_;
  const ModelProfile* built_profile_ = nullptr;
};

// The network at `batch_size` and its cost under the scenario.
struct CostedNetwork {
  Network net;
  NetworkCost cost;
};

CostedNetwork cost_at_batch(const Scenario& s, Dim batch_size);

// The scenario's network at `batch_size`: the one read with the request, re-batched, else built
// from the spec.
Network network_at_batch(const Scenario& s, Dim batch_size);

// Forward, backward and update time of one pass honouring use_pipeline.
double forward_ms(const Scenario& s, const NetworkCost& c);
double backward_ms(const Scenario& s, const NetworkCost& c);
double update_ms(const Scenario& s, const NetworkCost& c);

}  // namespace paleo
