#pragma once
// The step a CNN training test varies one option of: ResNet-50 v1.5 on an A100 80 GB in fp16
// under the 2021 NGC PyTorch era, at a given batch and per-kernel overhead (the step's slope in
// that overhead counts its kernels), and the step time an estimate gives.
#include <nlohmann/json.hpp>

#include "api_answer.h"

inline nlohmann::ordered_json resnet50_a100_step_request(int batch_size, double kernel_overhead_ms) {
  return {{"command", "estimate"},
          {"net", "resnet50_v1_5"},
          {"device", "A100_80GB_SXM"},
          {"batch_size", batch_size},
          {"software_era", "pytorch_cudnn8_2021"},
          {"precision", "fp16"},
          {"efficiency", {{"kernel_overhead_ms", kernel_overhead_ms}}}};
}

// The one-device step of an estimate the test expects to succeed.
inline double step_ms(const nlohmann::ordered_json& request) {
  return ok_answer(request)["totals"]["step_ms"].get<double>();
}
