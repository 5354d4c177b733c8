// The layer-wise search as it was before the strategy cost was restructured, kept as the
// reference of tests/test_strategy_reference.cpp (see reference_strategy_search.h).
#include "tests/reference_strategy_search.h"

#include <algorithm>
#include <array>
#include <limits>

#include "core/cluster/cluster_step.h"

namespace paleo::reference {

namespace {

// A tensor as [N, H, W, C]; flat tensors [N, D] become [N, 1, 1, D].
std::array<Dim, 4> dims4(const Shape& s) {
  if (s.size() == 4) return {s[0], s[1], s[2], s[3]};
  Dim rest = 1;
  for (std::size_t i = 1; i < s.size(); ++i) rest *= s[i];
  return {s[0], 1, 1, rest};
}

struct Box {
  std::array<Dim, 4> lo{}, hi{};  // [lo, hi) in N, H, W, C
  double volume() const {
    double v = 1;
    for (int i = 0; i < 4; ++i) v *= static_cast<double>(std::max<Dim>(0, hi[i] - lo[i]));
    return v;
  }
};

Box intersect(const Box& a, const Box& b) {
  Box r;
  for (int i = 0; i < 4; ++i) {
    r.lo[i] = std::max(a.lo[i], b.lo[i]);
    r.hi[i] = std::min(a.hi[i], b.hi[i]);
  }
  return r;
}

// The part of a tensor of dims `d` that device `device` holds under `cfg` (order n, c, h, w).
Box part(const std::array<Dim, 4>& d, const StrategyConfig& cfg, long device) {
  const long iw = device % cfg.w;
  const long ih = (device / cfg.w) % cfg.h;
  const long ic = (device / (cfg.w * cfg.h)) % cfg.c;
  const long in = device / (cfg.w * cfg.h * cfg.c);
  auto range = [](Dim size, long degree, long index, Dim& lo, Dim& hi) {
    lo = size * index / degree;
    hi = size * (index + 1) / degree;
  };
  Box b;
  range(d[0], cfg.n, in, b.lo[0], b.hi[0]);
  range(d[1], cfg.h, ih, b.lo[1], b.hi[1]);
  range(d[2], cfg.w, iw, b.lo[2], b.hi[2]);
  range(d[3], cfg.c, ic, b.lo[3], b.hi[3]);
  return b;
}

bool channel_mixing(const Layer& l) {
  return l.kind == LayerKind::kConvolution || l.kind == LayerKind::kDeconvolution ||
         l.kind == LayerKind::kInnerProduct || l.kind == LayerKind::kSoftmax || l.kind == LayerKind::kReshape ||
         l.kind == LayerKind::kConcatenate;
}

// The region of input `input` (dims `in`) that the consumer's part `out` needs.
Box needed(const Layer& consumer, const std::array<Dim, 4>& in, const Box& out) {
  Box need;
  need.lo = {out.lo[0], 0, 0, 0};
  need.hi = {out.hi[0], in[1], in[2], in[3]};
  const bool image = consumer.output.size() == 4 && consumer.inputs[0].size() == 4;
  if (image && (consumer.kind == LayerKind::kConvolution || consumer.kind == LayerKind::kPooling)) {
    const bool conv = consumer.kind == LayerKind::kConvolution;
    const Dim sh = conv ? consumer.conv.sh : consumer.pool_sh, sw = conv ? consumer.conv.sw : consumer.pool_sw;
    const Dim kh = conv ? consumer.conv.kh : consumer.pool_kh, kw = conv ? consumer.conv.kw : consumer.pool_kw;
    const Dim ph = conv ? consumer.conv.pad_h : 0, pw = conv ? consumer.conv.pad_w : 0;
    need.lo[1] = std::clamp<Dim>(out.lo[1] * sh - ph, 0, in[1]);
    need.hi[1] = std::clamp<Dim>((out.hi[1] - 1) * sh - ph + kh, 0, in[1]);
    need.lo[2] = std::clamp<Dim>(out.lo[2] * sw - pw, 0, in[2]);
    need.hi[2] = std::clamp<Dim>((out.hi[2] - 1) * sw - pw + kw, 0, in[2]);
  } else if (image && !channel_mixing(consumer) && consumer.kind != LayerKind::kUpSampling) {
    // element-wise: the same region (an upsampling, split by samples only, reads its whole image)
    if (in[1] > 1) {  // a broadcast input ([N, 1, 1, C]) whole
      need.lo[1] = out.lo[1];
      need.hi[1] = out.hi[1];
    }
    if (in[2] > 1) {
      need.lo[2] = out.lo[2];
      need.hi[2] = out.hi[2];
    }
  }
  if (!channel_mixing(consumer) && in[3] > 1) {  // pooling and element-wise layers keep their channels
    need.lo[3] = out.lo[3];
    need.hi[3] = out.hi[3];
  }
  return need;
}

Dim ceil_div(Dim a, long b) { return (a + b - 1) / b; }

// The layer as the largest of its parts computes it.
Layer part_layer(const Layer& l, const StrategyConfig& cfg) {
  Layer p = l;
  const bool image = l.output.size() == 4;
  p.output[0] = ceil_div(l.output[0], cfg.n);
  if (image) {
    p.output[1] = ceil_div(l.output[1], cfg.h);
    p.output[2] = ceil_div(l.output[2], cfg.w);
    p.output[3] = ceil_div(l.output[3], cfg.c);
  } else if (l.output.size() == 2) {
    p.output[1] = ceil_div(l.output[1], cfg.c);
  }
  for (Shape& in : p.inputs) {
    in[0] = p.output[0];
    if (image && in.size() == 4) {
      in[1] = std::max<Dim>(1, ceil_div(in[1], cfg.h));
      in[2] = std::max<Dim>(1, ceil_div(in[2], cfg.w));
      if (!channel_mixing(l)) in[3] = ceil_div(in[3], cfg.c);
    }
  }
  if (l.kind == LayerKind::kConvolution) {
    ConvGeometry& g = p.conv;
    g.output = p.output;
    g.cout = p.output[3];
    g.input[0] = p.output[0];
    // The input rows a part reads, halo included (the padding counted once).
    g.input[1] = std::clamp<Dim>((p.output[1] - 1) * g.sh + g.kh - 2 * g.pad_h, 1, l.conv.input[1]);
    g.input[2] = std::clamp<Dim>((p.output[2] - 1) * g.sw + g.kw - 2 * g.pad_w, 1, l.conv.input[2]);
    p.inputs[0] = g.input;
  } else if (l.kind == LayerKind::kInnerProduct) {
    p.weights[1] = p.output[1];
  }
  p.weights_bytes = l.weights_bytes / cfg.c;
  return p;
}

void divisors(long d, std::vector<long>& out) {
  for (long k = 1; k <= d; ++k)
    if (d % k == 0) out.push_back(k);
}

}  // namespace

std::vector<StrategyConfig> layer_configs(const Layer& l, long devices) {
  const std::array<Dim, 4> d = dims4(l.output);
  bool split_c = false, split_hw = false;
  switch (l.kind) {
    case LayerKind::kConvolution:
    case LayerKind::kPooling:
    case LayerKind::kDropout:
    case LayerKind::kZeroCost:
      split_c = true;
      split_hw = l.output.size() == 4;
      break;
    case LayerKind::kInnerProduct:
      split_c = true;
      break;
    case LayerKind::kConcatenate:
    case LayerKind::kElementwise:
      split_hw = l.output.size() == 4;
      break;
    default:
      break;  // Input, Softmax, Reshape, UpSampling2D, Deconvolution: samples only
  }
  std::vector<long> ks;
  divisors(devices, ks);
  std::vector<StrategyConfig> out;
  for (long n : ks)
    for (long c : ks)
      for (long s : ks) {
        if (devices % (n * c * s * s) != 0) continue;
        if ((c > 1 && !split_c) || (s > 1 && !split_hw)) continue;
        if (n > d[0] || c > d[3] || s > d[1] || s > d[2]) continue;
        out.push_back({n, c, s, s});
      }
  return out;
}

StrategyProblem make_strategy_problem(const Network& net, const CostModel& model, const CostOptions& options,
                                      const Cluster& cluster, const CollectiveSettings& sync) {
  StrategyProblem p{&net, model, options, cluster, sync, cluster.devices(), {}, {}, {}};
  for (const Layer& l : net.layers) {
    std::vector<StrategyConfig> configs = reference::layer_configs(l, p.devices);
    std::vector<double> compute, synchronise;
    for (const StrategyConfig& cfg : configs) {
      const Layer part = part_layer(l, cfg);
      const LayerCost c = layer_compute_cost(part, model, options, BatchNormFusion::kNone);
      compute.push_back(c.forward.total_ms() + c.backward.total_ms());
      const long replicas = cfg.n * cfg.h * cfg.w;
      double t_s = 0;
      // The gradients in the format they are reduced in (fp32 keeps weights_bytes).
      const double gradient_bytes =
          static_cast<double>(part.weights_bytes) / 4 * dtype_bytes(model.precision().grad_reduce);
      if (part.weights_bytes > 0 && replicas > 1) {
        const long per_node = cluster.devices_per_node;
        if (cfg.degree() <= per_node) {
          t_s = best_collective(CollectiveOp::kAllReduce, replicas, gradient_bytes, cluster.intra, sync).time_ms();
        } else {
          Cluster group = cluster;
          group.nodes = cfg.degree() / per_node;
          group.devices_per_node = std::max<long>(1, replicas / group.nodes);
          t_s = cluster_collective(CollectiveOp::kAllReduce, CollectiveAlgorithm::kAuto, group, gradient_bytes, sync)
                    .time_ms();
        }
      }
      synchronise.push_back(t_s);
    }
    p.configs.push_back(std::move(configs));
    p.compute_ms.push_back(std::move(compute));
    p.sync_ms.push_back(std::move(synchronise));
  }
  return p;
}

double transfer_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                   const StrategyConfig& b) {
  const Layer& from = p.net->layers[static_cast<std::size_t>(producer)];
  const Layer& to = p.net->layers[static_cast<std::size_t>(consumer)];
  const std::array<Dim, 4> in = dims4(from.output);
  const std::array<Dim, 4> out = dims4(to.output);
  const long g = p.cluster.devices_per_node;
  double worst = 0, near = 0, far = 0;  // in turn: from the consumer's node, from other nodes
  for (long q = 0; q < b.degree(); ++q) {
    const Box need = needed(to, in, part(out, b, q));
    double missing = need.volume();
    if (q < a.degree()) missing -= intersect(need, part(in, a, q)).volume();
    worst = std::max(worst, missing);
    double here = 0;
    for (long src = q / g * g; src < std::min(q / g * g + g, a.degree()); ++src)
      if (src != q) here += intersect(need, part(in, a, src)).volume();
    near += here;
    far += missing - here;
  }
  if (worst <= 0) return 0;
  const bool one_node = std::max(a.degree(), b.degree()) <= g;
  const Link& link = one_node ? p.cluster.intra : p.cluster.inter;
  // At once, across nodes a node's devices share its NICs; in turn, each pair has a whole link.
  const double per_node = static_cast<double>(g);
  const double share =
      one_node ? 1.0 : std::min(static_cast<double>(p.cluster.nics_per_node), per_node) / per_node;
  const double s = p.model.transfer_serialization();
  const double at_once_ms = worst * link.ms_per_byte() / share;
  const double in_turn_ms = near * p.cluster.intra.ms_per_byte() + far * p.cluster.inter.ms_per_byte();
  return link.alpha_ms() + p.model.activation_bytes() * ((1 - s) * at_once_ms + s * in_turn_ms);
}

double strategy_cost(const StrategyProblem& p, const std::vector<int>& choice) {
  double total = p.model.step_overhead_ms();  // the era's runtime time per step, once
  const auto& layers = p.net->layers;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const auto c = static_cast<std::size_t>(choice[i]);
    total += p.compute_ms[i][c] + p.sync_ms[i][c];
    for (int parent : layers[i].parents)
      total += transfer_ms(p, parent, p.configs[static_cast<std::size_t>(parent)][static_cast<std::size_t>(choice[static_cast<std::size_t>(parent)])],
                           static_cast<int>(i), p.configs[i][c]);
  }
  return total;
}

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
      for (int parent : p.net->layers[i].parents) add_edge(parent, static_cast<int>(i), transfer_matrix(parent, static_cast<int>(i)));
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
    r.remaining_nodes = static_cast<long>(nodes.size());
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

  std::vector<double> transfer_matrix(int from, int to) const {
    const auto& a = p_.configs[static_cast<std::size_t>(from)];
    const auto& b = p_.configs[static_cast<std::size_t>(to)];
    std::vector<double> m(a.size() * b.size());
    for (std::size_t i = 0; i < a.size(); ++i)
      for (std::size_t j = 0; j < b.size(); ++j) m[i * b.size() + j] = transfer_ms(p_, from, a[i], to, b[j]);
    return m;
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
      for (std::size_t a = 0; a < ci; ++a)
        for (std::size_t c = 0; c < ck; ++c)
          for (std::size_t b = 0; b < cj; ++b) {
            const double v = node_cost(static_cast<int>(j), b) + e1.cost[a * cj + b] + e2.cost[b * ck + c];
            if (v < cost[a * ck + c]) {
              cost[a * ck + c] = v;
              record.best[a * ck + c] = static_cast<int>(b);
            }
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



}  // namespace paleo::reference
