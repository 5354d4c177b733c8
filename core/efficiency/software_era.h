#pragma once
// A software era: the kernel efficiencies a generation of libraries and frameworks reaches
// (presets/software_eras.json: each era's parameters, the published cases they were fitted to,
// and the residuals). A request names one, or gets the era of its device's generation; an
// "efficiency" object overrides single parameters (a user's calibration).
#include <string>
#include <vector>

#include "core/spec/conv_algorithm_names.h"
#include "core/efficiency/kernel_efficiency.h"
#include "core/hardware/device.h"
#include "core/base/json.h"

namespace paleo {

struct SoftwareEra {
  std::string key = "untuned";
  std::string name = "untuned defaults";
  KernelEfficiency efficiency;
  // The convolution algorithms the era's library offered and its framework chose the fastest of
  // (cuDNN's benchmark mode); empty: the request's conv_algorithm alone decides (GEMM by default).
  std::vector<std::string> conv_algorithms;
  // What the stack does where a request is silent ({"sequence_parallel": true, "zero": 1, ...}):
  // request fields and their values, applied by the request reader, which names each one it
  // applied in the response (docs/transformer.md, "A stack's defaults").
  Json defaults = Json::object();
  // The collective library of the era's stack ("nccl_ring", "nccl"; empty: any algorithm), which
  // decides how a data-parallel step's gradient all-reduce runs (core/cluster/collectives.h).
  std::string collective_library;
  // How the stack's ZeRO-3 gathers weights ("tensor_blocking": DeepSpeed's of 2021; empty: per
  // layer, prefetched), core/transformer/zero3_exposure.h.
  std::string zero3_gather;
  // Whether the era is a serving engine's ("applies_to" lists "inference"), whose memory fraction
  // is its own; serving on a training stack's era streams at the device's measured rate instead.
  bool serving = false;
  // Why a request that named no era runs this one: "generation" (the default of its device's
  // generation) or "zero3" (the default of a ZeRO-3 request there); empty when it was named.
  std::string chosen_by;
};

// The fits recorded for an era of presets/software_eras.json: its own (generation "") and its
// refit on each device generation ("by_generation"), each with its parameters, cases and
// residuals. Throws paleo::Error (field `software_era`) for a malformed by_generation.
struct EraFit {
  std::string generation;
  const Json* fit = nullptr;
};
std::vector<EraFit> era_fits(const Json& era);

// An era is fitted to one workload, "cnn", "transformer" (training) or "inference" (a serving
// engine; its "applies_to" list; an era without one applies to all): a CNN request and a
// transformer request on the same device pick different eras. Serving may also name a training
// era, and takes its generation's training era where no serving era lists the generation. On a device `generation` the era was refitted to ("by_generation"), its
// parameters are that fit's. Throws paleo::Error naming `field` for an unknown key or another
// workload's era.
SoftwareEra software_era(const std::string& key, const std::string& field,
                         const std::string& workload = "transformer", const std::string& generation = "");
// The era of `workload` listing the device's generation; the untuned defaults when none does.
// A ZeRO-3 training request (`zero3`) first takes the era listing the generation in its
// "zero3_generations": the generation's default stack (Megatron-LM, Megatron-Core) shards no
// parameters, so a request that shards them runs on another stack, PyTorch's FSDP
// (docs/transformer.md, "The stack of a request that names none").
SoftwareEra default_software_era(const Device& device, const std::string& workload = "transformer", bool zero3 = false);

// The era a request asks for: its "software_era" (else the default of the device, workload and,
// for a transformer's training, ZeRO stage unless `by_zero_stage` is false: a plan weighs every
// stage), with its "efficiency" object laid over. Serving ("inference") on a training stack's era
// takes the device's measured streaming rate as its memory fraction where the device states one
// (Device::stream_bandwidth_gb_per_s; the request's "efficiency" still overrides it). Throws
// paleo::Error naming the field.
SoftwareEra software_era_of_request(const Json& request, const Device& device, const std::string& workload,
                                    bool by_zero_stage = true);

// `base` with the fields of `obj` ({"matmul_ceiling", "tile", "short_k", "vector_ceiling",
// "memory_fraction", "kernel_overhead_ms"}) replaced. Throws paleo::Error naming field.name.
KernelEfficiency efficiency_from_json(const Json& obj, KernelEfficiency base, const std::string& field);
Json efficiency_json(const KernelEfficiency& e);
// {"key", "name", "efficiency", "conv_algorithms"?, "collective_library"?} of an era, as responses
// report it.
Json software_era_json(const SoftwareEra& era);

}  // namespace paleo
