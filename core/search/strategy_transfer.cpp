#include "core/search/strategy_transfer.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>

#include "core/search/strategy_cost.h"

namespace paleo {
namespace {

using Dims4 = std::array<Dim, 4>;

struct Box {
  Dims4 lo{}, hi{};  // [lo, hi) in N, H, W, C
  double volume() const {
    double v = 1;
    for (int i = 0; i < 4; ++i) v *= static_cast<double>(std::max<Dim>(0, hi[i] - lo[i]));
    return v;
  }
};

// How a consumer's output part maps to the region of an input it reads.
struct NeedRule {
  enum Mode : int { kWhole = 0, kWindow = 1, kSameRegion = 2 };
  int mode = kWhole;
  bool keep_channels = false;  // pooling and element-wise layers keep their channels
  Dim sh = 0, sw = 0, kh = 0, kw = 0, ph = 0, pw = 0;
};

NeedRule need_rule(const Layer& consumer) {
  NeedRule r;
  const bool image = consumer.output.size() == 4 && consumer.inputs[0].size() == 4;
  if (image && (consumer.kind == LayerKind::kConvolution || consumer.kind == LayerKind::kPooling)) {
    const bool conv = consumer.kind == LayerKind::kConvolution;
    r.mode = NeedRule::kWindow;
    r.sh = conv ? consumer.conv.sh : consumer.pool_sh;
    r.sw = conv ? consumer.conv.sw : consumer.pool_sw;
    r.kh = conv ? consumer.conv.kh : consumer.pool_kh;
    r.kw = conv ? consumer.conv.kw : consumer.pool_kw;
    r.ph = conv ? consumer.conv.pad_h : 0;
    r.pw = conv ? consumer.conv.pad_w : 0;
  } else if (image && consumer.kind == LayerKind::kUpSampling) {
    // Its output is larger than its input, and it splits by samples only (layer_configs): a part
    // needs its samples' whole input image.
    r.mode = NeedRule::kWhole;
  } else if (image && !mixes_channels(consumer)) {
    r.mode = NeedRule::kSameRegion;
  }
  r.keep_channels = !mixes_channels(consumer);
  return r;
}

// The region of an input (dims `in`) that the consumer's part `out` needs.
Box needed(const NeedRule& r, const Dims4& in, const Box& out) {
  Box need;
  need.lo = {out.lo[0], 0, 0, 0};
  need.hi = {out.hi[0], in[1], in[2], in[3]};
  if (r.mode == NeedRule::kWindow) {
    need.lo[1] = std::clamp<Dim>(out.lo[1] * r.sh - r.ph, 0, in[1]);
    need.hi[1] = std::clamp<Dim>((out.hi[1] - 1) * r.sh - r.ph + r.kh, 0, in[1]);
    need.lo[2] = std::clamp<Dim>(out.lo[2] * r.sw - r.pw, 0, in[2]);
    need.hi[2] = std::clamp<Dim>((out.hi[2] - 1) * r.sw - r.pw + r.kw, 0, in[2]);
  } else if (r.mode == NeedRule::kSameRegion) {
    // A broadcast input (one row or column for the whole image) is needed whole along it.
    if (in[1] > 1) {
      need.lo[1] = out.lo[1];
      need.hi[1] = out.hi[1];
    }
    if (in[2] > 1) {
      need.lo[2] = out.lo[2];
      need.hi[2] = out.hi[2];
    }
  }
  if (r.keep_channels && in[3] > 1) {  // a single channel is broadcast: needed whole
    need.lo[3] = out.lo[3];
    need.hi[3] = out.hi[3];
  }
  return need;
}

// The boxes of every device of a list of configurations, stored dimension by dimension (as
// doubles: integers below 2^53, exact) so that the pair loop reads contiguous memory. Buffers are
// reused from edge to edge.
struct DeviceBoxes {
  std::vector<std::size_t> first;  // configuration k holds devices [first[k], first[k + 1])
  std::array<std::vector<double>, 4> lo, hi;
  std::vector<double> volume;      // needed boxes: their volume
  std::vector<double> tail_max;    // needed boxes: the largest volume of this device and the later ones

  void clear() {
    first.assign(1, 0);
    for (int d = 0; d < 4; ++d) {
      lo[d].clear();
      hi[d].clear();
    }
    volume.clear();
    tail_max.clear();
  }
  void add(const Box& b) {
    for (int d = 0; d < 4; ++d) {
      lo[d].push_back(static_cast<double>(b.lo[d]));
      hi[d].push_back(static_cast<double>(b.hi[d]));
    }
  }
  void end_config() { first.push_back(lo[0].size()); }
  std::size_t devices(std::size_t k) const { return first[k + 1] - first[k]; }
};

// Calls `visit(box)` with the part of a tensor of dims `dims` that device q holds under `cfg`, for
// q = 0 .. degree - 1 in order: q = ((n * c + c) * h + h) * w + w of its indices along the splits.
template <typename Visit>
void for_each_part(const Dims4& dims, const StrategyConfig& cfg, Visit visit) {
  Box b;
  for (long in = 0; in < cfg.n; ++in) {
    b.lo[0] = dims[0] * in / cfg.n;
    b.hi[0] = dims[0] * (in + 1) / cfg.n;
    for (long ic = 0; ic < cfg.c; ++ic) {
      b.lo[3] = dims[3] * ic / cfg.c;
      b.hi[3] = dims[3] * (ic + 1) / cfg.c;
      for (long ih = 0; ih < cfg.h; ++ih) {
        b.lo[1] = dims[1] * ih / cfg.h;
        b.hi[1] = dims[1] * (ih + 1) / cfg.h;
        for (long iw = 0; iw < cfg.w; ++iw) {
          b.lo[2] = dims[2] * iw / cfg.w;
          b.hi[2] = dims[2] * (iw + 1) / cfg.w;
          visit(b);
        }
      }
    }
  }
}

void add_owned(DeviceBoxes& out, const Dims4& dims, const StrategyConfig& cfg) {
  for_each_part(dims, cfg, [&](const Box& b) { out.add(b); });
  out.end_config();
}

void add_needed(DeviceBoxes& out, const NeedRule& rule, const Dims4& in, const Dims4& dims, const StrategyConfig& cfg) {
  const std::size_t begin = out.volume.size();
  for_each_part(dims, cfg, [&](const Box& part) {
    const Box need = needed(rule, in, part);
    out.add(need);
    out.volume.push_back(need.volume());
  });
  out.tail_max.resize(out.volume.size());
  double largest = 0;
  for (std::size_t q = out.volume.size(); q-- > begin;) {
    largest = std::max(largest, out.volume[q]);
    out.tail_max[q] = largest;
  }
  out.end_config();
}

// The largest count of elements a device of consumer configuration `b` needs and producer
// configuration `a` did not leave on it (device q holds part q of both).
double worst_missing(const DeviceBoxes& own, std::size_t a, const DeviceBoxes& need, std::size_t b) {
  const std::size_t oa = own.first[a], ob = need.first[b];
  const std::size_t da = own.devices(a), db = need.devices(b);
  const std::size_t shared = std::min(da, db);
  const double *ol0 = own.lo[0].data() + oa, *ol1 = own.lo[1].data() + oa, *ol2 = own.lo[2].data() + oa,
               *ol3 = own.lo[3].data() + oa;
  const double *oh0 = own.hi[0].data() + oa, *oh1 = own.hi[1].data() + oa, *oh2 = own.hi[2].data() + oa,
               *oh3 = own.hi[3].data() + oa;
  const double *nl0 = need.lo[0].data() + ob, *nl1 = need.lo[1].data() + ob, *nl2 = need.lo[2].data() + ob,
               *nl3 = need.lo[3].data() + ob;
  const double *nh0 = need.hi[0].data() + ob, *nh1 = need.hi[1].data() + ob, *nh2 = need.hi[2].data() + ob,
               *nh3 = need.hi[3].data() + ob;
  const double* volume = need.volume.data() + ob;
  // No device lacks more than the largest box it needs: once one does, the answer is known.
  const double bound = need.tail_max[ob];
  // Blocks of devices: the missing counts of a block have no dependence on one another (the
  // compiler computes several at once), and the bound is checked between blocks.
  constexpr std::size_t kBlock = 8;
  double missing[kBlock];
  double worst = 0;
  for (std::size_t start = 0; start < shared && worst < bound; start += kBlock) {
    const std::size_t count = std::min(kBlock, shared - start);
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t q = start + k;
      const double x0 = std::max(0.0, std::min(nh0[q], oh0[q]) - std::max(nl0[q], ol0[q]));
      const double x1 = std::max(0.0, std::min(nh1[q], oh1[q]) - std::max(nl1[q], ol1[q]));
      const double x2 = std::max(0.0, std::min(nh2[q], oh2[q]) - std::max(nl2[q], ol2[q]));
      const double x3 = std::max(0.0, std::min(nh3[q], oh3[q]) - std::max(nl3[q], ol3[q]));
      missing[k] = volume[q] - x0 * x1 * x2 * x3;
    }
    for (std::size_t k = 0; k < count; ++k) worst = std::max(worst, missing[k]);
  }
  // Devices beyond the producer's configuration hold nothing of it.
  if (db > da) worst = std::max(worst, need.tail_max[ob + da]);
  return worst;
}

std::size_t devices_per_node(const StrategyProblem& p) {
  return static_cast<std::size_t>(std::max<std::int64_t>(1, p.cluster.devices_per_node));
}

// The elements missing on all the devices of consumer configuration `b` together, by where they
// come from: the producer's parts on the other devices of the consumer device's node (device q is
// on node q / per_node), and those on other nodes. The producer's parts tile its output, so a
// device's missing elements are its needed box less what it holds.
struct MissingElements {
  double same_node = 0, other_nodes = 0;
  double total() const { return same_node + other_nodes; }
};

MissingElements missing_by_source(const DeviceBoxes& own, std::size_t a, const DeviceBoxes& need, std::size_t b,
                                  std::size_t per_node) {
  const std::size_t oa = own.first[a], ob = need.first[b];
  const std::size_t da = own.devices(a), db = need.devices(b);
  const bool one_node = std::max(da, db) <= per_node;  // then every part comes from the node
  auto overlap = [&](std::size_t p, std::size_t q) {  // producer part p within consumer q's box
    double v = 1;
    for (int d = 0; d < 4; ++d)
      v *= std::max(0.0, std::min(need.hi[d][ob + q], own.hi[d][oa + p]) -
                             std::max(need.lo[d][ob + q], own.lo[d][oa + p]));
    return v;
  };
  MissingElements out;
  for (std::size_t q = 0; q < db; ++q) {
    const double missing = need.volume[ob + q] - (q < da ? overlap(q, q) : 0.0);
    const std::size_t first = q / per_node * per_node, last = std::min(first + per_node, da);
    double near = one_node ? missing : 0.0;
    for (std::size_t p = first; !one_node && p < last; ++p)
      if (p != q) near += overlap(p, q);
    out.same_node += near;
    out.other_nodes += missing - near;
  }
  return out;
}

// Missing elements as time over the links. Moved at once, the slowest device's elements over the
// link the two configurations span: across nodes every device of a node takes its part at the same
// time, so the node's devices share its NICs, as the collectives price it (Cluster::shared_inter,
// docs/cluster.md). Moved one device pair after another (the era's transfer_serialization), the
// elements of all devices in sequence, each pair at its own link's rate (the node's link inside a
// node, one inter-node link between nodes), as OptCNN's cost model prices t_x.
struct TransferPrice {
  std::size_t per_node = 1;
  double intra_alpha_ms = 0, inter_alpha_ms = 0;
  double intra_ms_per_byte = 0;         // the node's link
  double shared_inter_ms_per_byte = 0;  // a device's share of its node's NICs
  double inter_ms_per_byte = 0;         // one inter-node link, whole
  double element_bytes = 0;
  double serialization = 0;

  explicit TransferPrice(const StrategyProblem& p)
      : per_node(devices_per_node(p)),
        intra_alpha_ms(p.cluster.intra.alpha_ms()),
        inter_alpha_ms(p.cluster.inter.alpha_ms()),
        intra_ms_per_byte(p.cluster.intra.ms_per_byte()),
        shared_inter_ms_per_byte(p.cluster.shared_inter().ms_per_byte()),
        inter_ms_per_byte(p.cluster.inter.ms_per_byte()),
        element_bytes(p.model.activation_bytes()),
        serialization(p.model.transfer_serialization()) {}

  // The t_x of producer configuration `a` to consumer configuration `b` (their positions in the
  // boxes' lists).
  double ms(const DeviceBoxes& own, std::size_t a, const DeviceBoxes& need, std::size_t b) const {
    const double worst = worst_missing(own, a, need, b);
    if (worst <= 0) return 0;
    const bool one_node = std::max(own.devices(a), need.devices(b)) <= per_node;
    const double at_once_ms = worst * element_bytes * (one_node ? intra_ms_per_byte : shared_inter_ms_per_byte);
    double in_turn_ms = 0;
    if (serialization > 0) {
      const MissingElements m = missing_by_source(own, a, need, b, per_node);
      in_turn_ms = element_bytes * (m.same_node * intra_ms_per_byte + m.other_nodes * inter_ms_per_byte);
    }
    return (one_node ? intra_alpha_ms : inter_alpha_ms) + (1 - serialization) * at_once_ms + serialization * in_turn_ms;
  }
};

// What a table depends on besides the problem's cluster and precision: the producer's and the
// consumer's dims and configuration lists, and the consumer's need rule.
using EdgeSignature = std::array<Dim, 18>;

EdgeSignature signature(const Dims4& in, const Dims4& out, int producer_list, int consumer_list, const NeedRule& r) {
  return {in[0], in[1], in[2], in[3], out[0], out[1], out[2], out[3], producer_list, consumer_list,
          r.mode, r.keep_channels ? 1 : 0, r.sh, r.sw, r.kh, r.kw, r.ph, r.pw};
}

// The boxes of one edge for one pair of configurations, as configuration 0 of each list.
void lay_out_pair(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                  const StrategyConfig& b, DeviceBoxes& own, DeviceBoxes& need) {
  const Layer& to = p.net->layers[static_cast<std::size_t>(consumer)];
  const Dims4 in = nhwc_dims(p.net->layers[static_cast<std::size_t>(producer)].output);
  own.clear();
  add_owned(own, in, a);
  need.clear();
  add_needed(need, need_rule(to), in, nhwc_dims(to.output), b);
}

}  // namespace

std::array<Dim, 4> nhwc_dims(const Shape& s) {
  if (s.size() == 4) return {s[0], s[1], s[2], s[3]};
  Dim rest = 1;
  for (std::size_t i = 1; i < s.size(); ++i) rest *= s[i];
  return {s[0], 1, 1, rest};
}

bool mixes_channels(const Layer& l) {
  return l.kind == LayerKind::kConvolution || l.kind == LayerKind::kDeconvolution ||
         l.kind == LayerKind::kInnerProduct || l.kind == LayerKind::kSoftmax || l.kind == LayerKind::kReshape ||
         l.kind == LayerKind::kConcatenate;
}

TransferTables transfer_tables(const StrategyProblem& p) {
  const auto& layers = p.net->layers;
  // Layers with equal configuration lists share an id.
  std::vector<int> list_id(layers.size(), 0);
  std::vector<std::size_t> distinct;  // a layer holding each id's list
  for (std::size_t i = 0; i < layers.size(); ++i) {
    std::size_t id = 0;
    while (id < distinct.size() && p.configs[distinct[id]] != p.configs[i]) ++id;
    if (id == distinct.size()) distinct.push_back(i);
    list_id[i] = static_cast<int>(id);
  }
  // The edges grouped by producer, whose boxes are then laid out once.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> consumers(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i)
    for (std::size_t k = 0; k < layers[i].parents.size(); ++k)
      consumers[static_cast<std::size_t>(layers[i].parents[k])].emplace_back(i, k);
  const TransferPrice price(p);
  TransferTables out;
  out.of_edge.resize(layers.size());
  for (std::size_t i = 0; i < layers.size(); ++i) out.of_edge[i].resize(layers[i].parents.size());
  std::map<EdgeSignature, int> seen;
  DeviceBoxes own, need;
  for (std::size_t from = 0; from < layers.size(); ++from) {
    const Dims4 in = nhwc_dims(layers[from].output);
    const auto& as = p.configs[from];
    bool laid_out = false;
    for (const auto& [i, k] : consumers[from]) {
      const Layer& to = layers[i];
      const Dims4 dims = nhwc_dims(to.output);
      const NeedRule rule = need_rule(to);
      const auto [it, fresh] = seen.emplace(signature(in, dims, list_id[from], list_id[i], rule),
                                            static_cast<int>(out.tables.size()));
      out.of_edge[i][k] = it->second;
      if (!fresh) continue;
      if (!laid_out) {
        own.clear();
        for (const StrategyConfig& a : as) add_owned(own, in, a);
        laid_out = true;
      }
      const auto& bs = p.configs[i];
      need.clear();
      for (const StrategyConfig& b : bs) add_needed(need, rule, in, dims, b);
      std::vector<double> table(as.size() * bs.size());
      for (std::size_t a = 0; a < as.size(); ++a)
        for (std::size_t b = 0; b < bs.size(); ++b)
          table[a * bs.size() + b] = price.ms(own, a, need, b);
      out.tables.push_back(std::move(table));
    }
  }
  return out;
}

double transfer_entry_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                         const StrategyConfig& b) {
  DeviceBoxes own, need;
  lay_out_pair(p, producer, a, consumer, b, own, need);
  return TransferPrice(p).ms(own, 0, need, 0);
}

double transfer_entry_bytes(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                            const StrategyConfig& b) {
  DeviceBoxes own, need;
  lay_out_pair(p, producer, a, consumer, b, own, need);
  return missing_by_source(own, 0, need, 0, devices_per_node(p)).total() * p.model.activation_bytes();
}

}  // namespace paleo
