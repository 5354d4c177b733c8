#pragma once
// Reading and validating a request document (docs/api.md) into a Scenario and its options.
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/answer_sections.h"
#include "core/api/command_options.h"
#include "core/api/transformer_request.h"
#include "core/base/json.h"
#include "core/cost/scenario.h"

namespace paleo {

// A request read and checked: the command, the net and the device it is priced on, and each
// group of command options (core/api/command_options.h). Every field is read whatever the
// command, so a bad value is an error even where the command would not use it.
struct Request {
  std::string command;
  bool has_net = false;
  Scenario scenario;  // complete when has_net

  SimulationOptions simulation;
  ClusterStepOptions cluster_step;
  TrainOptions train;
  SchemeOptions scheme;
  CollectiveOptions collective_command;
  SearchOptions search;
  LayersOptions layers;

  // A transformer net (docs/transformer.md): its model and options; `scenario` then holds only
  // the device and cluster.
  bool is_transformer = false;
  TransformerRequest transformer;

  // What the answer should say beside its numbers: a choice of the request that does not apply,
  // a point of a sweep left out (the response's `warnings`).
  std::vector<std::string> warnings;

  // The members of the answer wanted (core/api/answer_sections.h); all when not given.
  AnswerSections sections;

  // A cluster request's key for the largest fitting batch (core/api/max_batch_memo.h); empty:
  // searched afresh.
  std::string max_batch_key;
};

// Throws paleo::Error naming the request field (or the layer and field of the spec).
Request parse_request(const Json& request);

// The fields parse_request reads, in reading order (each a row of core/api/command_registry.h).
std::vector<std::string> request_reader_names();

}  // namespace paleo
