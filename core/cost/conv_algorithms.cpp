#include "core/cost/conv_algorithms.h"

#include <cmath>

#include "core/base/error.h"

namespace paleo {
namespace {

constexpr double kFloatBytes = 4;
constexpr double kComplexBytes = 8;
constexpr Dim kFftTile = 32;
constexpr Dim kWinogradOutputTile = 4;

double d(Dim v) { return static_cast<double>(v); }

// Smallest power of two >= x, and its log2 (exact, unlike the original's float logs, which
// agree for every size below 2^29).
std::pair<double, double> next_pow2(double x) {
  double p = 1, log2p = 0;
  while (p < x) {
    p *= 2;
    log2p += 1;
  }
  return {p, log2p};
}

// Original _fft_flops: 5 n log2 n per complex FFT of the padded tile, halved for 1-D filters
// and for real-to-complex transforms.
double fft_flops(double fft_size, bool real_to_complex, bool filter_1d) {
  auto [tile, log2tile] = next_pow2(std::sqrt(fft_size));
  double f = 2 * tile * 5 * tile * log2tile;
  if (filter_1d) f /= 2;
  if (real_to_complex) f /= 2;
  return f;
}

// The implicit GEMM of a convolution (or of a gradient's dummy): one row per output pixel, one
// column per output channel of a group, the filter window times the group's input channels deep.
// The filter-gradient dummy (groups_split_batch) holds the layer's input channels in its batch:
// its rows are the weight gradient's Cin/groups x kh x kw, its depth N x OH x OW.
GemmShape conv_gemm_shape(const ConvGeometry& c) {
  const double g = d(c.groups);
  GemmShape s;
  s.m = d(c.output[0]) * d(c.output[1]) * d(c.output[2]) / c.output_groups();
  s.n = d(c.cout) / g;
  s.k = d(c.kh) * d(c.kw) * d(c.cin) / c.filter_groups() * (1.0 - c.holes_in_filter_fraction());
  s.align_n = s.n;
  s.align_k = c.groups_split_batch ? d(c.input[0]) / g : d(c.cin) / g;
  s.convolution = true;
  return s;
}

// A data gradient's operands: read the output gradient and the filters, write the input gradient.
void add_data_gradient_operands(const CostModel& model, const ConvGeometry& c, PassCost& cost) {
  const double act = model.activation_bytes();
  model.add_mem(cost, product(c.output) * act);
  model.add_mem(cost, c.filter_elements() * model.weight_bytes());
  model.add_mem(cost, product(c.input) * act);
}

PassCost gemm_for(const CostModel& model, const ConvGeometry& conv, bool im2col) {
  PassCost c = gemm_cost(model, conv, im2col);
  c.algorithm = im2col ? "precomp_gemm" : "gemm";
  return c;
}

PassCost forced(const CostModel& model, const ConvGeometry& conv, ConvPass pass, ConvAlgorithm a) {
  const bool filter_pass = pass == ConvPass::kBackwardFilter;
  switch (a) {
    case ConvAlgorithm::kGemm:
      return gemm_for(model, conv, false);
    case ConvAlgorithm::kPrecompGemm:
      return gemm_for(model, conv, pass == ConvPass::kBackwardData);
    case ConvAlgorithm::kFft:
      return fft_cost(model, conv, false);
    case ConvAlgorithm::kFftTiling:
      // cuDNN offers no tiled FFT for the filter gradient; the original then used plain FFT.
      return fft_cost(model, conv, !filter_pass);
    case ConvAlgorithm::kWinograd:
      if (filter_pass || !winograd_applies(conv)) return gemm_for(model, conv, false);
      return winograd_cost(model, conv);
    case ConvAlgorithm::kAuto:
      break;
  }
  return gemm_for(model, conv, false);
}

}  // namespace

double auto_rank_ms(const CostModel& model, const PassCost& c) {
  // A software era prices each kernel as the roofline of its compute and traffic.
  if (model.per_kernel()) return c.comp_ms > c.mem_ms ? c.comp_ms : c.mem_ms;
  return c.total_ms();
}


PassCost gemm_cost(const CostModel& model, const ConvGeometry& c, bool im2col_buffer) {
  PassCost cost;
  const double holes_f = c.holes_in_filter_fraction();
  const double holes_i = c.holes_in_input_fraction();
  const Shape& in = c.input;
  double flops = 2 * c.macs() * (1.0 - holes_f);
  // Moving each non-zero of a zero-dilated gradient.
  if (holes_i > 0) flops += 2 * product(in) * (1.0 - holes_i);
  cost.flops = flops;
  cost.comp_ms = model.matmul_ms(flops, conv_gemm_shape(c));
  const double act = model.activation_bytes();
  const double padded_input = d(in[0]) * d(in[1] + 2 * c.pad_h) * d(in[2] + 2 * c.pad_w) * d(in[3]);
  model.add_mem(cost, padded_input * act);
  // The filter-gradient dummy's "filter" is the output gradient: an activation.
  model.add_mem(cost, c.filter_elements() * (1.0 - holes_f) * (c.groups_split_batch ? act : model.weight_bytes()));
  model.add_mem(cost, c.output_elements() * (c.groups_split_batch ? model.weight_bytes() : act));
  // Each group lowers its own cin/groups channels: the groups together lower the whole input.
  if (im2col_buffer) {
    const double lowered = d(in[0]) * d(c.output[1]) * d(c.output[2]) * d(c.kh) * d(c.kw) * d(c.cin) * act;
    model.add_mem(cost, lowered * 2);
    cost.workspace_bytes = lowered;
  }
  return cost;
}

PassCost transposed_gemm_cost(const CostModel& model, const ConvGeometry& c, bool im2col_buffer) {
  PassCost cost;
  const Shape& in = c.input;
  const double g = d(c.groups);
  // The transposed product: one row per input pixel, one column per input channel of a group.
  GemmShape shape;
  shape.m = d(in[0]) * d(in[1]) * d(in[2]);
  shape.n = d(c.cin) / g;
  shape.k = c.macs() / (shape.m * shape.n * g);
  shape.align_n = shape.n;
  shape.align_k = d(c.cout) / g;
  shape.convolution = true;
  model.add_matmul(cost, 2 * c.macs(), shape);
  add_data_gradient_operands(model, c, cost);
  const double act = model.activation_bytes();
  if (im2col_buffer) {
    const double lowered = d(in[0]) * d(c.output[1]) * d(c.output[2]) * d(c.kh) * d(c.kw) * d(c.cin) * act;
    model.add_mem(cost, lowered * 2);
    cost.workspace_bytes = lowered;
  }
  cost.algorithm = im2col_buffer ? "precomp_gemm" : "gemm";
  return cost;
}

PassCost scattered_gemm_cost(const CostModel& model, const ConvGeometry& c) {
  PassCost cost;
  const double g = d(c.groups);
  GemmShape shape;
  shape.m = d(c.output[0]) * d(c.output[1]) * d(c.output[2]);
  shape.n = d(c.kh) * d(c.kw) * d(c.cin) / g;
  shape.k = d(c.cout) / g;
  // The columns run over the filter taps of each input channel: the channels' count is what a
  // tensor-core kernel needs aligned, as in the other forms.
  shape.align_n = d(c.cin) / g;
  shape.align_k = d(c.cout) / g;
  shape.convolution = true;
  model.add_matmul(cost, 2 * c.macs(), shape);
  add_data_gradient_operands(model, c, cost);  // the input gradient's write is its zeroing here
  // Every product element added into the input gradient: one element of traffic each, the adds
  // meeting in L2 (counting each as a read and a write instead leaves DeepBench's one-channel
  // speech convolution at +60 %, docs/validation.md).
  model.add_mem(cost, shape.m * shape.n * g * model.activation_bytes());
  cost.algorithm = "scattered_gemm";
  return cost;
}

PassCost fft_cost(const CostModel& model, const ConvGeometry& c, bool tiled) {
  const bool filter_1d = c.kh == 1 || c.kw == 1;
  const Shape& in = c.input;
  double fft_size = 0, tiles = 1, tile_size = 0;
  if (tiled) {
    fft_size = d(kFftTile * kFftTile);
    tiles = d((in[1] + kFftTile - 1) / kFftTile) * d((in[2] + kFftTile - 1) / kFftTile);
    tile_size = d(kFftTile);
  } else {
    Dim ph = std::max(in[1] + 2 * c.pad_h, c.kh);
    Dim pw = std::max(in[2] + 2 * c.pad_w, c.kw);
    fft_size = d(ph) * d(pw);
    tile_size = d(std::max(ph, pw));
  }
  // Transforms of the inputs, the filters and the outputs; a grouped convolution transforms
  // only the filter (or, for a filter-gradient dummy, output) planes its groups hold.
  const double nc = d(in[0]) * d(in[3]);
  const double ck = d(c.cin) * d(c.cout) / c.filter_groups();
  const double nk = d(in[0]) * d(c.cout) / c.output_groups();
  const double filter_transform = filter_1d ? tile_size : fft_size;
  double comp = 0, mem = 0, flops = 0, bytes = 0;
  auto add_comp = [&](double times, double f) { comp += times * model.comp_ms(f); flops += times * f; };
  auto add_mem = [&](double times, double b) { mem += times * model.mem_ms(b); bytes += times * b; };
  // (1) forward transforms: inputs per tile, filters once.
  add_comp(tiles, nc * fft_flops(fft_size, true, filter_1d));
  add_comp(1, ck * fft_flops(fft_size, true, filter_1d));
  add_mem(tiles, nc * fft_size * kFloatBytes);
  add_mem(tiles, nc * fft_size * kComplexBytes);
  add_mem(1, ck * fft_size * kFloatBytes);
  add_mem(1, ck * filter_transform * kComplexBytes);
  // (2) element-wise complex products.
  add_comp(tiles, 4 * d(in[0]) * d(in[3]) * d(c.cout) / d(c.groups) * fft_size);
  add_mem(tiles, nc * fft_size * kComplexBytes);
  add_mem(tiles, ck * filter_transform * kComplexBytes);
  add_mem(tiles, nk * fft_size * kComplexBytes);
  // (3) inverse transform and the output.
  add_comp(tiles, nk * fft_flops(fft_size, false, filter_1d));
  add_mem(1, nk * fft_size * kComplexBytes);
  add_mem(1, c.output_elements() * kFloatBytes);
  PassCost cost;
  cost.comp_ms = comp;
  cost.mem_ms = mem;
  cost.flops = flops;
  cost.bytes = bytes;
  // The original's estimate of the transformed buffers of one tile.
  cost.workspace_bytes = (nc + ck + nk) * fft_size * kComplexBytes;
  cost.algorithm = tiled ? "fft_tiling" : "fft";
  return cost;
}

bool winograd_applies(const ConvGeometry& c) {
  return c.sh == 1 && c.sw == 1 && c.kh == c.kw && c.kh >= 2 && c.kh <= 5;
}

PassCost winograd_cost(const CostModel& model, const ConvGeometry& c) {
  const double m = d(kWinogradOutputTile);
  const double r = d(c.kh);
  const double alpha = m + r - 1;  // input tile (survey Appendix B; Table 6 misprints it)
  const double tiles = d(c.output[0]) * d((c.output[1] + kWinogradOutputTile - 1) / kWinogradOutputTile) *
                       d((c.output[2] + kWinogradOutputTile - 1) / kWinogradOutputTile);
  const double cin = d(c.cin), cout = d(c.cout);
  // Filter pairs (input, output channel): a grouped convolution pairs each output channel with
  // cin/groups inputs. Winograd never runs a filter-gradient dummy, so groups split channels.
  const double pairs = cin * cout / d(c.groups);
  // Multiply-adds of the survey's Algorithm 6 with its loop counts; 2 FLOPs each.
  const double filter_transform = pairs * (r * r * alpha + alpha * alpha * r);
  const double data_transform = tiles * cin * 2 * alpha * alpha * alpha;
  const double batched_gemm = alpha * alpha * pairs * tiles;
  const double output_transform = cout * tiles * (alpha * alpha * m + m * m * alpha);
  PassCost cost;
  model.add_winograd(cost, 2 * (filter_transform + data_transform + batched_gemm + output_transform));
  const Shape& in = c.input;
  const double padded_input = d(in[0]) * d(in[1] + 2 * c.pad_h) * d(in[2] + 2 * c.pad_w) * d(in[3]);
  model.add_mem(cost, padded_input * kFloatBytes);
  model.add_mem(cost, c.filter_elements() * kFloatBytes);
  model.add_mem(cost, product(c.output) * kFloatBytes);
  const double transformed = alpha * alpha * (tiles * cin + pairs + tiles * cout) * kFloatBytes;
  model.add_mem(cost, 2 * transformed);  // written once, read once
  cost.workspace_bytes = transformed;
  cost.algorithm = "winograd";
  return cost;
}

bool winograd_filter_applies(const ConvGeometry& c) {
  return c.sh == 1 && c.sw == 1 && c.kh == c.kw && (c.kh == 3 || c.kh == 5) && c.holes == 0 && !c.groups_split_batch;
}

PassCost winograd_filter_gradient_cost(const CostModel& model, const ConvGeometry& c) {
  // Forward: filter transform per pair, data transform per tile, products, output transform per
  // tile. Filter gradient: inverse transform per pair (the same alpha^2 r + r^2 alpha), data
  // transform per tile, products, output-gradient transform per tile (the same m^2 alpha +
  // alpha^2 m). The operands (input, output gradient, weight gradient) are the forward's.
  PassCost cost = winograd_cost(model, c);
  cost.algorithm = "winograd_nonfused";
  return cost;
}

PassCost conv_pass_cost(const CostModel& model, const ConvGeometry& conv, ConvPass pass,
                        ConvAlgorithm algorithm, bool one_by_one, double workspace_limit_bytes,
                        const ConvCandidates& allowed) {
  if (one_by_one) return gemm_for(model, conv, false);
  if (algorithm != ConvAlgorithm::kAuto) return forced(model, conv, pass, algorithm);
  PassCost best = gemm_for(model, conv, false);
  const ConvAlgorithm candidates[] = {ConvAlgorithm::kFft, ConvAlgorithm::kFftTiling, ConvAlgorithm::kWinograd};
  for (ConvAlgorithm a : candidates) {
    if (!allowed.allows(a)) continue;
    if (a == ConvAlgorithm::kWinograd && (pass == ConvPass::kBackwardFilter || !winograd_applies(conv))) continue;
    if (a == ConvAlgorithm::kFftTiling && pass == ConvPass::kBackwardFilter) continue;
    if (conv.sh != 1 || conv.sw != 1) continue;  // cuDNN's FFT and Winograd need stride 1
    PassCost c = forced(model, conv, pass, a);
    if (c.workspace_bytes <= workspace_limit_bytes && auto_rank_ms(model, c) < auto_rank_ms(model, best)) best = c;
  }
  return best;
}

}  // namespace paleo
