#pragma once
// The primitive time functions of the model: compute time of F FLOPs and memory time of B bytes
// on one device at a platform percent of peak (PPP), in milliseconds.
#include <string>

#include "core/hardware.h"
#include "core/model_profile.h"

namespace paleo {

// Time, work and traffic of one pass of one layer (or of the weight update).
struct PassCost {
  double comp_ms = 0;
  double comm_ms = 0;       // local memory traffic, plus any cross-device fetch
  double flops = 0;
  double bytes = 0;         // local memory traffic only
  double workspace_bytes = 0;
  double overlapped_ms = 0; // compute and memory time that overlap (the roofline option)
  std::string algorithm;    // convolutions only

  double total_ms() const { return comp_ms + comm_ms - overlapped_ms; }
  double pipelined_ms() const { return comp_ms > comm_ms ? comp_ms : comm_ms; }
  PassCost& operator+=(const PassCost& other);
};

class CostModel {
 public:
  CostModel(const Device& device, const ModelProfile& profile, double ppp_comp, double ppp_comm);

  double comp_ms(double flops) const;
  // Local memory traffic at the device bandwidth and ppp_comp.
  double mem_ms(double bytes) const;
  // Traffic over another bandwidth ("GB/s" in the profile's unit) at ppp_comm: cross-device fetch.
  double fetch_ms(double bytes, double bandwidth_gb_per_s) const;

  void add_comp(PassCost& cost, double flops) const;
  void add_mem(PassCost& cost, double bytes) const;

  const Device& device() const { return device_; }
  const ModelProfile& profile() const { return profile_; }
  double ppp_comp() const { return ppp_comp_; }
  double ppp_comm() const { return ppp_comm_; }

 private:
  double floored(double ms) const;

  Device device_;
  const ModelProfile& profile_;
  double ppp_comp_;
  double ppp_comm_;
  double cycle_ms_;
};

}  // namespace paleo
