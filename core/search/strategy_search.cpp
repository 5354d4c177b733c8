#include "core/search/strategy_search.h"

#include <algorithm>
#include <limits>

namespace paleo {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct Edge {
  int from, to;
  std::vector<double> cost;  // [from config][to config], row-major
  bool alive = true;
};

struct Elimination {
  int node, from, to;
  std::vector<int> best;  // argmin config of `node` per (from config, to config)
};

class Reducer {
 public:
  explicit Reducer(const StrategyProblem& p) : p_(p), alive_(p.configs.size(), true) {
    for (std::size_t i = 0; i < p.configs.size(); ++i)
      for (std::size_t k = 0; k < p.net->layers[i].parents.size(); ++k)
        add_edge(p.net->layers[i].parents[k], static_cast<int>(i), p.transfer.edge(i, k));
  }

  StrategyResult run() {
    StrategyResult r;
    for (bool changed = true; changed;) {
      const bool merged = merge_parallel_edges(r);
      const bool eliminated = eliminate_nodes(r);
      changed = merged || eliminated;
    }
    std::vector<int> nodes;
    for (std::size_t i = 0; i < alive_.size(); ++i)
      if (alive_[i]) nodes.push_back(static_cast<int>(i));
    r.remaining_nodes = static_cast<std::int64_t>(nodes.size());
    double space = 1;
    for (int n : nodes) space *= static_cast<double>(size(n));
    r.choice.assign(alive_.size(), 0);
    if (space > kMaxEnumeration) {
      r.reduced = false;
      return r;
    }
    enumerate(nodes, r);
    undo(r.choice);
    r.cost_ms = strategy_cost(p_, r.choice);
    return r;
  }

 private:
  std::size_t size(int node) const { return p_.configs[static_cast<std::size_t>(node)].size(); }
  double node_cost(int node, std::size_t c) const {
    return p_.compute_ms[static_cast<std::size_t>(node)][c] + p_.sync_ms[static_cast<std::size_t>(node)][c];
  }

  void add_edge(int from, int to, std::vector<double> cost) { edges_.push_back({from, to, std::move(cost), true}); }

  // Edge elimination (Equation 3): parallel edges add up.
  bool merge_parallel_edges(StrategyResult& r) {
    bool changed = false;
    for (std::size_t i = 0; i < edges_.size(); ++i) {
      if (!edges_[i].alive) continue;
      for (std::size_t j = i + 1; j < edges_.size(); ++j) {
        if (!edges_[j].alive || edges_[j].from != edges_[i].from || edges_[j].to != edges_[i].to) continue;
        for (std::size_t k = 0; k < edges_[i].cost.size(); ++k) edges_[i].cost[k] += edges_[j].cost[k];
        edges_[j].alive = false;
        ++r.edge_eliminations;
        changed = true;
      }
    }
    return changed;
  }

  // Node elimination (Equation 2): a node with one edge in and one out becomes an edge.
  bool eliminate_nodes(StrategyResult& r) {
    bool changed = false;
    for (std::size_t j = 0; j < alive_.size(); ++j) {
      if (!alive_[j]) continue;
      int in = -1, out = -1, ins = 0, outs = 0;
      for (std::size_t e = 0; e < edges_.size(); ++e) {
        if (!edges_[e].alive) continue;
        if (edges_[e].to == static_cast<int>(j)) { in = static_cast<int>(e); ++ins; }
        if (edges_[e].from == static_cast<int>(j)) { out = static_cast<int>(e); ++outs; }
      }
      if (ins != 1 || outs != 1) continue;
      const Edge& e1 = edges_[static_cast<std::size_t>(in)];
      const Edge& e2 = edges_[static_cast<std::size_t>(out)];
      const int from = e1.from, to = e2.to;
      const std::size_t ci = size(from), cj = size(static_cast<int>(j)), ck = size(to);
      std::vector<double> cost(ci * ck, kInf);
      Elimination record{static_cast<int>(j), from, to, std::vector<int>(ci * ck, 0)};
      // For each (a, c) the first b of least cost, as a loop over b innermost would find it;
      // c innermost reads both tables row by row, and keeps b as a double so that the compiler
      // runs the loop on whole vectors.
      std::vector<double> chosen(ck);
      for (std::size_t a = 0; a < ci; ++a) {
        double* least = cost.data() + a * ck;
        std::fill(chosen.begin(), chosen.end(), 0.0);
        for (std::size_t b = 0; b < cj; ++b) {
          const double into = node_cost(static_cast<int>(j), b) + e1.cost[a * cj + b];
          const double* out_of = e2.cost.data() + b * ck;
          const double b_value = static_cast<double>(b);
          for (std::size_t c = 0; c < ck; ++c) {
            const double v = into + out_of[c];
            const bool better = v < least[c];
            least[c] = better ? v : least[c];
            chosen[c] = better ? b_value : chosen[c];
          }
        }
        for (std::size_t c = 0; c < ck; ++c) record.best[a * ck + c] = static_cast<int>(chosen[c]);
      }
      edges_[static_cast<std::size_t>(in)].alive = false;
      edges_[static_cast<std::size_t>(out)].alive = false;
      alive_[j] = false;
      add_edge(from, to, std::move(cost));
      eliminations_.push_back(std::move(record));
      ++r.node_eliminations;
      changed = true;
    }
    return changed;
  }

  void enumerate(const std::vector<int>& nodes, StrategyResult& r) {
    std::vector<std::size_t> index(nodes.size(), 0);
    std::vector<int> best_choice(alive_.size(), 0), current(alive_.size(), 0);
    double best = kInf;
    while (true) {
      for (std::size_t k = 0; k < nodes.size(); ++k) current[static_cast<std::size_t>(nodes[k])] = static_cast<int>(index[k]);
      double total = 0;
      for (int n : nodes) total += node_cost(n, static_cast<std::size_t>(current[static_cast<std::size_t>(n)]));
      for (const Edge& e : edges_)
        if (e.alive)
          total += e.cost[static_cast<std::size_t>(current[static_cast<std::size_t>(e.from)]) * size(e.to) +
                          static_cast<std::size_t>(current[static_cast<std::size_t>(e.to)])];
      if (total < best) {
        best = total;
        best_choice = current;
      }
      std::size_t k = 0;
      while (k < nodes.size() && ++index[k] == size(nodes[k])) index[k++] = 0;
      if (k == nodes.size()) break;
    }
    r.choice = best_choice;
  }

  void undo(std::vector<int>& choice) const {
    for (auto it = eliminations_.rbegin(); it != eliminations_.rend(); ++it) {
      const std::size_t a = static_cast<std::size_t>(choice[static_cast<std::size_t>(it->from)]);
      const std::size_t c = static_cast<std::size_t>(choice[static_cast<std::size_t>(it->to)]);
      choice[static_cast<std::size_t>(it->node)] = it->best[a * size(it->to) + c];
    }
  }

  const StrategyProblem& p_;
  std::vector<bool> alive_;
  std::vector<Edge> edges_;
  std::vector<Elimination> eliminations_;
};

// Coordinate descent from a start: each layer in turn takes its best configuration given the
// others, until nothing improves (bounded passes). The fallback for graphs that do not reduce.
std::vector<int> improve(const StrategyProblem& p, std::vector<int> choice) {
  double best = strategy_cost(p, choice);
  for (int pass = 0; pass < 4; ++pass) {
    bool better = false;
    for (std::size_t i = 0; i < choice.size(); ++i)
      for (std::size_t c = 0; c < p.configs[i].size(); ++c) {
        const int old = choice[i];
        choice[i] = static_cast<int>(c);
        const double v = strategy_cost(p, choice);
        if (v < best) {
          best = v;
          better = true;
        } else {
          choice[i] = old;
        }
      }
    if (!better) break;
  }
  return choice;
}

// A fully-connected layer, or one written as a convolution with a single output position (the
// PALEO and TF-Slim specs write fc6 to fc8 so).
bool densely_connected(const Layer& l) {
  if (l.kind == LayerKind::kInnerProduct) return true;
  return l.kind == LayerKind::kConvolution && l.output.size() == 4 && l.output[1] == 1 && l.output[2] == 1;
}

}  // namespace

std::vector<int> uniform_strategy(const StrategyProblem& p, const StrategyConfig& config) {
  std::vector<int> choice;
  for (const auto& configs : p.configs) {
    auto find = [&](const StrategyConfig& want) {
      for (std::size_t c = 0; c < configs.size(); ++c)
        if (configs[c] == want) return static_cast<int>(c);
      return -1;
    };
    int c = find(config);
    if (c < 0) c = find({config.degree(), 1, 1, 1});
    if (c < 0) c = find({1, 1, 1, 1});
    choice.push_back(std::max(c, 0));
  }
  return choice;
}

std::vector<int> one_weird_trick_strategy(const StrategyProblem& p) {
  std::vector<int> choice = uniform_strategy(p, {p.devices, 1, 1, 1});
  const std::vector<int> model = uniform_strategy(p, {1, p.devices, 1, 1});
  bool dense = false;  // layers are in topological order
  for (std::size_t i = 0; i < choice.size(); ++i) {
    dense = dense || densely_connected(p.net->layers[i]);
    if (dense) choice[i] = model[i];
  }
  return choice;
}

StrategyResult optimal_strategy(const StrategyProblem& p) {
  StrategyResult r = Reducer(p).run();
  if (r.reduced) return r;
  // The graph does not reduce to an enumerable size: the best of data parallelism and coordinate
  // descent from it. Not guaranteed optimal, and said so.
  std::vector<int> start = uniform_strategy(p, {p.devices, 1, 1, 1});
  r.choice = improve(p, start);
  r.cost_ms = strategy_cost(p, r.choice);
  r.message = "the graph did not reduce to an enumerable size (" + std::to_string(r.remaining_nodes) +
              " nodes left); the result is a local optimum from data parallelism, not proven optimal";
  return r;
}

StrategyResult exhaustive_strategy(const StrategyProblem& p, double max_assignments) {
  StrategyResult r;
  double space = 1;
  for (const auto& c : p.configs) space *= static_cast<double>(c.size());
  if (space > max_assignments) {
    r.reduced = false;
    r.message = "too many assignments for an exhaustive search";
    return r;
  }
  std::vector<int> index(p.configs.size(), 0);
  r.cost_ms = kInf;
  while (true) {
    const double v = strategy_cost(p, index);
    if (v < r.cost_ms) {
      r.cost_ms = v;
      r.choice = index;
    }
    std::size_t k = 0;
    while (k < index.size() && ++index[k] == static_cast<int>(p.configs[k].size())) index[k++] = 0;
    if (k == index.size()) break;
  }
  return r;
}

}  // namespace paleo
