#pragma once
// Work and depth of each layer's forward pass (Ben-Nun & Hoefler's survey, section 2.5 and Table 4;
// features F1-F3 of docs/training-schemes.md): W the multiply-adds (the survey counts one MAC as
// one unit of work), D the longest chain of dependent operations, W / D the average parallelism,
// and a flag on layers whose parallelism cannot fill the device's lanes (batch-1 inference, small
// FC layers). W and D bound a layer's time on p lanes: max(W / p, D) <= T_p <= W / p + D (Brent).
#include <string>
#include <vector>

#include "core/hardware/device.h"
#include "core/spec/network.h"

namespace paleo {

struct LayerWorkDepth {
  std::string name, type;
  double work = 0;         // forward multiply-adds (elementwise layers: one per output value)
  double depth = 0;        // longest dependent chain
  double parallelism() const { return depth > 0 ? work / depth : 0; }
  bool fills_device = true;  // parallelism >= the device's lanes
};

// The device's parallel lanes: its peak over two FLOPs (a multiply-add) per lane per clock.
double device_lanes(const Device& device);

// Forward W and D by the survey's Table 4 (direct convolution): convolution
// W = N C_out H' W' (C_in / groups) K_y K_x, D = ceil(log2 (C_in / groups)) + ceil(log2 K_y) +
// ceil(log2 K_x); inner product W = N C_in C_out, D = ceil(log2 C_in); pooling W = N C H' W' K_y K_x,
// D = ceil(log2 K_y) + ceil(log2 K_x); batch norm W = N C H W, D = ceil(log2 N); softmax
// W = its values, D = ceil(log2 C); activations and the other shape-keeping layers
// W = their values, D = 1; the input and reshapes none.
std::vector<LayerWorkDepth> work_depth(const Network& net, double lanes);

}  // namespace paleo
