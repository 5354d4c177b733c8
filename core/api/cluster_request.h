#pragma once
// The links and counts of a request's cluster: a preset, a preset with overrides, an object of its
// own, or (where the request states none) the node preset its device is built into. Whatever the
// request did not state is marked assumed and named in a warning (docs/cluster.md).
#include <string>
#include <vector>

#include "core/base/json.h"
#include "core/hardware/cluster.h"
#include "core/hardware/device.h"

namespace paleo {

// The device's node preset, every link and its NICs marked assumed. A device that names none
// (presets/devices.json "node") is a paleo::Error naming `field`: Paleo does not guess its links.
Cluster device_node_cluster(const Device& device, const std::string& field);

// The request's "cluster" (absent, a preset key, or an object with an optional "preset" whose
// fields override only what they name); `device_key` receives the device a named preset is built
// of. The top-level "nodes" and "devices_per_node" are applied by the caller.
Cluster read_request_cluster(const Json& request, const Device& device, std::string* device_key);

// Checks the final cluster (NICs per node a request states must not exceed its devices per node,
// the model giving a device at most one NIC) and warns of what it assumed that the step uses.
void check_request_cluster(const Json& request, const Cluster& cluster, const Device& device,
                           std::vector<std::string>& warnings);

}  // namespace paleo
