#include "core/precision/dtype.h"

#include "core/base/error.h"

namespace paleo {

double dtype_bytes(Dtype t) {
  switch (t) {
    case Dtype::kFp32:
    case Dtype::kTf32: return 4;
    case Dtype::kFp16:
    case Dtype::kBf16: return 2;
    case Dtype::kFp8E4M3:
    case Dtype::kFp8E5M2: return 1;
  }
  return 4;
}

const char* dtype_name(Dtype t) {
  switch (t) {
    case Dtype::kFp32: return "fp32";
    case Dtype::kTf32: return "tf32";
    case Dtype::kFp16: return "fp16";
    case Dtype::kBf16: return "bf16";
    case Dtype::kFp8E4M3: return "fp8_e4m3";
    case Dtype::kFp8E5M2: return "fp8_e5m2";
  }
  return "fp32";
}

const char* tensor_peak_key(Dtype t) {
  switch (t) {
    case Dtype::kFp8E4M3:
    case Dtype::kFp8E5M2: return "fp8";
    default: return dtype_name(t);
  }
}

Dtype parse_dtype(const std::string& name, const std::string& field) {
  if (name == "fp32") return Dtype::kFp32;
  if (name == "tf32") return Dtype::kTf32;
  if (name == "fp16") return Dtype::kFp16;
  if (name == "bf16") return Dtype::kBf16;
  if (name == "fp8" || name == "fp8_e4m3") return Dtype::kFp8E4M3;
  if (name == "fp8_e5m2") return Dtype::kFp8E5M2;
  throw Error("unknown number format '" + name + "' (known: fp32, tf32, fp16, bf16, fp8, fp8_e4m3, fp8_e5m2)", "",
              field);
}

}  // namespace paleo
