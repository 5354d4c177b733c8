#pragma once
// The dependency structure of a network, walked the way the original GraphWalker walks it:
// chains of layers, and tuples of parallel branches (which may themselves fork) between a fork
// and the joint where they meet again.
#include <vector>

#include "core/spec/net_spec.h"

namespace paleo {

struct Branch;

// One step of a sequence: a single layer, or parallel branches.
struct Step {
  int layer = -1;                 // index into NetSpec::layers, or -1 for parallel branches
  std::vector<Branch> branches;
};

struct Branch {
  std::vector<Step> steps;
};

struct LayerGraph {
  Branch nested;                          // the original's nested_list
  std::vector<int> order;                 // its flattening: the topological order
  std::vector<std::vector<int>> parents;  // per NetSpec layer, parent indices in listed order
};

// Throws paleo::Error for: no layer named "data", unknown or repeated parents, a layer that is
// its own parent, cycles, and layers that the input does not reach.
LayerGraph build_layer_graph(const NetSpec& spec);

}  // namespace paleo
