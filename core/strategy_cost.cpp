#include "core/strategy_cost.h"

#include <algorithm>
#include <array>

#include "core/cluster_step.h"

namespace paleo {
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
  } else if (image && !channel_mixing(consumer)) {  // element-wise: the same region
    need.lo[1] = out.lo[1];
    need.hi[1] = out.hi[1];
    need.lo[2] = out.lo[2];
    need.hi[2] = out.hi[2];
  }
  if (!channel_mixing(consumer)) {  // pooling and element-wise layers keep their channels
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

std::string StrategyConfig::to_string() const {
  return "n" + std::to_string(n) + " c" + std::to_string(c) + " h" + std::to_string(h) + " w" + std::to_string(w);
}

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
        // The product checked before it is formed: 1024^4 wraps to 0 in a 32-bit long (WebAssembly).
        if (n * c > devices || s * s > devices / (n * c) || devices % (n * c * s * s) != 0) continue;
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
    std::vector<StrategyConfig> configs = layer_configs(l, p.devices);
    std::vector<double> compute, synchronise;
    for (const StrategyConfig& cfg : configs) {
      const Layer part = part_layer(l, cfg);
      const LayerCost c = layer_compute_cost(part, model, options);
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
  double worst = 0;
  for (long q = 0; q < b.degree(); ++q) {
    const Box need = needed(to, in, part(out, b, q));
    double missing = need.volume();
    if (q < a.degree()) missing -= intersect(need, part(in, a, q)).volume();
    worst = std::max(worst, missing);
  }
  if (worst <= 0) return 0;
  const bool one_node = std::max(a.degree(), b.degree()) <= p.cluster.devices_per_node;
  const Link& link = one_node ? p.cluster.intra : p.cluster.inter;
  return link.alpha_ms() + worst * p.model.activation_bytes() * link.ms_per_byte();
}

double strategy_cost(const StrategyProblem& p, const std::vector<int>& choice) {
  double total = 0;
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

}  // namespace paleo
