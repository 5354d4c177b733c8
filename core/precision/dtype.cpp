#include "core/precision/dtype.h"

#include "core/base/enum_names.h"
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

namespace {

// Every name a request may give a number format, in the order the error lists them.
const EnumName<Dtype> kDtypeNames[] = {
    {Dtype::kFp32, "fp32"},   {Dtype::kTf32, "tf32"},        {Dtype::kFp16, "fp16"},       {Dtype::kBf16, "bf16"},
    {Dtype::kFp8E4M3, "fp8"}, {Dtype::kFp8E4M3, "fp8_e4m3"}, {Dtype::kFp8E5M2, "fp8_e5m2"}};

}  // namespace

std::vector<std::string> dtype_names() {
  std::vector<std::string> names;
  for (const EnumName<Dtype>& d : kDtypeNames) names.push_back(d.name);
  return names;
}

Dtype parse_dtype(const std::string& name, const std::string& field) {
  std::string known;
  for (const EnumName<Dtype>& d : kDtypeNames) {
    if (name == d.name) return d.value;
    known += (known.empty() ? "" : ", ") + std::string(d.name);
  }
  throw Error("unknown number format '" + name + "' (known: " + known + ")", "", field);
}

}  // namespace paleo
