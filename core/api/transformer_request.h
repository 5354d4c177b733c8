#pragma once
// api/: reading requests and writing responses (docs/api.md). This file: the fields of a
// transformer request (training layout, precision, inference and planner options).
#include <cstdint>
#include <memory>
#include <string>

#include "core/efficiency/software_era.h"
#include "core/hardware/device.h"
#include "core/base/json.h"
#include "core/hardware/link.h"
#include "core/serving/serving_estimate.h"
#include "core/transformer/training_options.h"
#include "core/transformer/transformer_net.h"

namespace paleo {

struct Zero3PlanStack;

struct TransformerRequest {
  TransformerNet net;
  TrainingOptions training;
  SoftwareEra era;                  // its efficiency is training.efficiency
  bool dp_given = false;
  bool micro_batch_given = false;
  bool global_batch_given = false;
  // The fields the request left to its stack (the era's "defaults"), with the values applied.
  Json assumed = Json::object();
  // Left to the stack as choices the estimate makes on the cluster: the least recompute that fits
  // ("least_that_fits"), and the interleaving with the least bubble that fits ("auto").
  bool recompute_auto = false;
  bool virtual_stages_auto = false;
  // "tp": "smallest_that_fits": the estimate chooses tp (and sequence parallelism with it where
  // the request and its stack leave that open).
  bool tp_auto = false;
  bool sequence_parallel_follows_tp = false;
  // The request names no layout (tp, pp, cp, dp, ep): a layout that does not fit gets a hint.
  bool layout_silent = false;
  double train_tokens = 0;          // 0 = not asked
  double price_per_gpu_hour = 0;    // US dollars per device-hour; 0 = unknown
  std::string price_key;            // the price preset it came from, if any
  // Inference.
  std::int64_t batch = 1;
  std::int64_t prompt_len = 0;              // 0 = seq_len
  std::int64_t generate_len = 128;
  // Serving under load (its `inference` options are filled in by the inference command).
  ServingOptions serving;
  Json serving_assumed = Json::object();  // the engine settings left to their defaults (serving_assumed)
  // Planner.
  std::int64_t top = 10;
  // A plan that names no era on a generation whose ZeRO-3 requests take another stack: the
  // stack its ZeRO-3 layouts run on (core/api/zero3_plan_stack.h); null otherwise.
  std::shared_ptr<const Zero3PlanStack> zero3_plan;
};

// The request fields only a transformer net takes (a CNN request naming one is an error).
const std::vector<std::string>& transformer_request_fields();

// Whether an era's "defaults" may set this request field (a choice of the training stack).
bool is_stack_default_field(const std::string& field);

// The devices a request's layout names without a cluster: tp x pp x cp x dp (each 1 when absent).
std::int64_t layout_devices(const Json& request);

// Reads the transformer fields; the device and cluster are read by the caller. `devices` is the
// cluster's device count (dp is derived from it unless given).
TransformerRequest parse_transformer_request(const Json& request, const Device& device, std::int64_t devices);

}  // namespace paleo
