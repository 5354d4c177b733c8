// Gradient compression and sparse all-reduce (docs/training-schemes.md): each format's bytes
// against its closed form, the sparse all-reduce's dense switch, and the survey's top-1 % ~ 50x.
#include <catch2/catch.hpp>

#include <cmath>

#include "core/base/error.h"
#include "core/cluster/collectives.h"
#include "core/training_scheme/gradient_compression.h"
#include "core/training_scheme/sparse_all_reduce.h"

namespace {

using namespace paleo;

GradientTensor tensor(double values, double rows = 1, double cols = 1) {
  GradientTensor t;
  t.values = values;
  t.rows = rows;
  t.cols = cols;
  return t;
}

double wire(const std::string& text, const GradientTensor& t, std::int64_t workers = 8) {
  return compress_gradient(parse_compression(text, "compression"), t, workers).wire_bytes;
}

Link link_of(double latency_us, double gb_per_s) {
  Link l;
  l.latency_us = latency_us;
  l.bandwidth_gb_per_s = gb_per_s;
  return l;
}

}  // namespace

TEST_CASE("bytes on the wire of each format, by hand (n = 10^6 values)") {
  const GradientTensor t = tensor(1e6);
  CHECK(wire("none", t) == 4e6);
  CHECK(wire("fp32", t) == 4e6);
  CHECK(wire("fp16", t) == 2e6);
  CHECK(wire("bf16", t) == 2e6);
  // 1 bit per value and two fp32 reconstruction values per bucket of 512: 125000 + 8 * 1954.
  CHECK(wire("onebit", t) == 125000 + 8 * 1954);
  // Ternary: 2 bits and one fp32 scale per bucket.
  CHECK(wire("ternary", t) == 250000 + 4 * 1954);
  // QSGD with s = 4: ceil(log2 9) = 4 bits; with s = 1: ceil(log2 3) = 2; buckets of 128.
  CHECK(wire("qsgd:4", t) == 500000 + 4 * 1954);
  CHECK(wire("qsgd:1:128", t) == 250000 + 4 * 7813);
  // Top-k and threshold: k (value + index) = 10^4 x 8 bytes.
  CHECK(wire("topk:0.01", t) == 80000);
  CHECK(wire("threshold:0.001", t) == 8000);
  // PowerSGD rank 4 of a 256 x 2304 convolution gradient: r (rows + cols) fp32 values.
  CHECK(wire("powersgd:4", tensor(256 * 2304, 256, 2304)) == 4 * (256 + 2304) * 4);
  // ... and a bias vector stays dense.
  CHECK(wire("powersgd:4", tensor(256, 256, 1)) == 256 * 4);
  // Sufficient factors of a 4096 x 4096 FC layer at batch 32: u and v, 32 (4096 + 4096) values.
  GradientTensor fc = tensor(4096.0 * 4096, 4096, 4096);
  fc.fully_connected = true;
  fc.batch = 32;
  CHECK(wire("sfb", fc) == 32 * 8192 * 4);
  const CompressedTensor sfb = compress_gradient(parse_compression("sfb", "c"), fc, 8);
  CHECK(sfb.codec_flops == 2.0 * 7 * 32 * 4096 * 4096);  // the other 7 workers' outer products
  CHECK(sfb.collective == WireCollective::kAllGather);
}

TEST_CASE("top-1 % sparsification sends ~50x fewer bytes (survey Q9: 1 % of values, value + index)") {
  const GradientTensor t = tensor(25557032);  // ResNet-50's parameters
  const double ratio = 4 * t.values / wire("topk:0.01", t);
  CHECK(ratio == Approx(50).epsilon(1e-4));
}

TEST_CASE("compression's extra memory and collectives") {
  const GradientTensor t = tensor(1e6);
  auto c = [&](const char* text) { return compress_gradient(parse_compression(text, "c"), t, 8); };
  CHECK(c("onebit").extra_memory_bytes == 4e6);  // the error-feedback residual
  CHECK(c("topk:0.01").extra_memory_bytes == 4e6);
  CHECK(c("qsgd:4").extra_memory_bytes == 0);
  CHECK(c("fp16").extra_memory_bytes == 0);
  CHECK(c("fp16").collective == WireCollective::kAllReduce);
  CHECK(c("onebit").collective == WireCollective::kAllGather);
  CHECK(c("ternary").collective == WireCollective::kAllGather);
  CHECK(c("topk:0.01").collective == WireCollective::kSparseAllReduce);
  // Encoding 1-bit: read the gradient, read and write the residual, write the message.
  CHECK(c("onebit").encode_traffic_bytes == 4e6 + (125000 + 8 * 1954) + 8e6);
}

TEST_CASE("bad compression text names the field") {
  for (const char* bad : {"fp8", "topk", "topk:0", "topk:1.5", "topk:x", "qsgd", "qsgd:0", "qsgd:2.5", "powersgd:0",
                          "fp16:2", "qsgd:4:0", "topk:0.1:2:3"}) {
    INFO(bad);
    try {
      parse_compression(bad, "training_scheme.compression");
      FAIL("accepted");
    } catch (const Error& e) {
      CHECK(e.field() == "training_scheme.compression");
    }
  }
}

TEST_CASE("sparse all-reduce: rounds by hand, and the switch to dense when the sum fills in") {
  const Link link = link_of(10, 1);  // 0.01 ms, 1e-6 ms per byte
  CollectiveSettings settings;
  settings.reduction_ms_per_byte = 1e-7;
  SECTION("sparse throughout: 1000 of 10^6 values on 8 workers, 3 rounds of 8, 16, 32 kB") {
    const CollectiveCost c = sparse_all_reduce(1000, 1e6, 8, link, settings);
    CHECK(c.alpha_ms == Approx(0.03).epsilon(1e-12));
    CHECK(c.beta_ms == Approx(56000e-6).epsilon(1e-12));
    CHECK(c.reduction_ms == Approx(56000e-7).epsilon(1e-12));
    CHECK(sparse_all_reduce_bytes_sent(1000, 1e6, 8) == 56000);
  }
  SECTION("fills in: 2 x 10^5 of 10^6 on 8 workers: 1.6 MB, 3.2 MB, then dense 4 MB") {
    CHECK(sparse_all_reduce_bytes_sent(2e5, 1e6, 8) == 1.6e6 + 3.2e6 + 4e6);
  }
  SECTION("dense from the start (density >= 1/2) equals recursive doubling's dense all-reduce") {
    const CollectiveCost sparse = sparse_all_reduce(1e6, 1e6, 8, link, settings);
    const CollectiveCost dense =
        collective_cost(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRecursiveDoubling, 8, 4e6, link, settings);
    CHECK(sparse.time_ms() == Approx(dense.time_ms()).epsilon(1e-12));
    CHECK(sparse_all_reduce_bytes_sent(5e5, 1e6, 8) == 3 * 4e6);  // exactly at the switch
  }
}
