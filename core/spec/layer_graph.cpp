#include "core/spec/layer_graph.h"

#include <algorithm>
#include <set>
#include <utility>

#include "core/base/error.h"

namespace paleo {
namespace {

// The walk's budget, in frontier entries looked at: series-parallel nets (every preset) look at
// a few per layer.
constexpr double kStepsPerLayer = 20;
constexpr double kMinSteps = 100000;

class GraphWalker {
 public:
  GraphWalker(std::vector<std::vector<int>> children, std::vector<int> indegree)
      : children_(std::move(children)), indegree_(std::move(indegree)),
        steps_left_(kStepsPerLayer * static_cast<double>(children_.size()) + kMinSteps) {
    for (std::size_t i = 0; i < indegree_.size(); ++i)
      if (indegree_[i] > 1) joints_.insert(static_cast<int>(i));
  }

  // Original nested_list_till_joints(), as a loop: returns the walked sequence and the joints
  // at which it stopped. At the top level, joints that are ready (all parents walked) are
  // walked on: the original returned there and silently dropped the rest of such graphs.
  std::pair<Branch, std::vector<int>> walk(std::vector<int> frontiers, bool top_level = false) {
    Branch history;
    while (!frontiers.empty()) {
      // Graphs whose branches cross each other (not series-parallel) make the walk re-walk
      // branches, exponentially in the worst case: bounded, with a clear error.
      steps_left_ -= 1 + static_cast<double>(frontiers.size());
      if (steps_left_ < 0)
        throw Error("the branches of the net cross each other too much to be ordered (docs/api.md, Limits)", "",
                    "layers");
      bool all_joints = std::all_of(frontiers.begin(), frontiers.end(),
                                    [&](int n) { return joints_.count(n) > 0; });
      if (all_joints) {
        bool ready = std::all_of(frontiers.begin(), frontiers.end(),
                                 [&](int n) { return indegree_[n] == 0; });
        if (!top_level || !ready) return {std::move(history), frontiers};
        for (int j : frontiers) joints_.erase(j);
        continue;
      }
      if (frontiers.size() == 1) {
        int node = frontiers[0];
        history.steps.push_back(Step{node, {}});
        for (int child : children_[node]) --indegree_[child];
        frontiers = children_[node];
        continue;
      }
      Step parallel;
      std::vector<int> merged;  // insertion-ordered set
      for (int node : frontiers) {
        auto [sub, joints] = walk({node});
        if (!sub.steps.empty()) parallel.branches.push_back(std::move(sub));
        for (int j : joints)
          if (indegree_[j] == 0 && std::find(merged.begin(), merged.end(), j) == merged.end())
            merged.push_back(j);
      }
      if (!parallel.branches.empty()) history.steps.push_back(std::move(parallel));
      for (int j : merged) joints_.erase(j);
      frontiers = merged;
    }
    return {std::move(history), {}};
  }

 private:
  std::vector<std::vector<int>> children_;
  std::vector<int> indegree_;
  std::set<int> joints_;
  double steps_left_;
};

void flatten(const Branch& branch, std::vector<int>& order) {
  for (const Step& step : branch.steps) {
    if (step.layer >= 0) {
      order.push_back(step.layer);
    } else {
      for (const Branch& b : step.branches) flatten(b, order);
    }
  }
}

// Names the layers left on a cycle (Kahn's algorithm), for the error message.
std::vector<int> layers_on_cycles(const std::vector<std::vector<int>>& children,
                                  std::vector<int> indegree) {
  std::vector<int> ready;
  for (std::size_t i = 0; i < indegree.size(); ++i)
    if (indegree[i] == 0) ready.push_back(static_cast<int>(i));
  while (!ready.empty()) {
    int n = ready.back();
    ready.pop_back();
    for (int c : children[n])
      if (--indegree[c] == 0) ready.push_back(c);
  }
  std::vector<int> cyclic;
  for (std::size_t i = 0; i < indegree.size(); ++i)
    if (indegree[i] > 0) cyclic.push_back(static_cast<int>(i));
  return cyclic;
}

// Whether `order` lists every layer it holds once, each after all its parents.
bool parents_first(const std::vector<int>& order, const std::vector<std::vector<int>>& parents) {
  std::vector<int> position(parents.size(), -1);
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (position[order[k]] >= 0) return false;
    position[order[k]] = static_cast<int>(k);
  }
  for (int i : order)
    for (int p : parents[i])
      if (position[p] < 0 || position[p] > position[i]) return false;
  return true;
}

// The layers reached from `root`, each once after its parents, in spec order where free (Kahn's
// algorithm, the smallest ready index first).
std::vector<int> topological_order(int root, const std::vector<std::vector<int>>& children, std::vector<int> indegree) {
  std::set<int> ready = {root};
  std::vector<int> order;
  while (!ready.empty()) {
    const int n = *ready.begin();
    ready.erase(ready.begin());
    order.push_back(n);
    for (int c : children[n])
      if (--indegree[c] == 0) ready.insert(c);
  }
  return order;
}

}  // namespace

LayerGraph build_layer_graph(const NetSpec& spec) {
  const int n = static_cast<int>(spec.layers.size());
  LayerGraph graph;
  graph.parents.resize(n);
  std::vector<std::vector<int>> children(n);
  std::vector<int> indegree(n, 0);
  for (int i = 0; i < n; ++i) {
    const LayerSpec& layer = spec.layers[i];
    for (const std::string& p : layer.parents) {
      auto it = spec.index_of.find(p);
      if (it == spec.index_of.end()) throw Error("unknown parent '" + p + "'", layer.name, "parents");
      if (it->second == i) throw Error("a layer cannot be its own parent", layer.name, "parents");
      auto& mine = graph.parents[i];
      if (std::find(mine.begin(), mine.end(), it->second) != mine.end())
        throw Error("parent '" + p + "' is listed twice", layer.name, "parents");
      mine.push_back(it->second);
      children[it->second].push_back(i);
      ++indegree[i];
    }
  }
  auto data = spec.index_of.find("data");
  if (data == spec.index_of.end())
    throw Error("the network needs an input layer named 'data'", "data", "layers");
  if (indegree[data->second] != 0)
    throw Error("the input layer cannot have parents", "data", "parents");

  std::vector<int> cyclic = layers_on_cycles(children, indegree);
  if (!cyclic.empty()) {
    std::string names;
    for (std::size_t k = 0; k < cyclic.size() && k < 8; ++k)
      names += (k ? ", " : "") + spec.layers[cyclic[k]].name;
    throw Error("the parents form a cycle through: " + names, spec.layers[cyclic[0]].name, "parents");
  }

  GraphWalker walker(children, indegree);
  graph.nested = walker.walk({data->second}, /*top_level=*/true).first;
  flatten(graph.nested, graph.order);
  // Where branches cross, the original's walk can release a joint inside one branch and walk it
  // again from another: the layer listed twice, before some of its parents. Such nets (never a
  // series-parallel one) are ordered topologically instead, as one sequence.
  if (!parents_first(graph.order, graph.parents)) {
    graph.order = topological_order(data->second, children, indegree);
    graph.nested = Branch{};
    for (int i : graph.order) graph.nested.steps.push_back(Step{i, {}});
  }
  if (static_cast<int>(graph.order.size()) != n) {
    std::vector<bool> seen(n, false);
    for (int i : graph.order) seen[i] = true;
    for (int i = 0; i < n; ++i)
      if (!seen[i])
        throw Error("is not connected to the input layer 'data'", spec.layers[i].name, "parents");
  }
  return graph;
}

}  // namespace paleo
