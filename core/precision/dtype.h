#pragma once
// precision/: number formats, the precision policy of a training run, and which peak a kernel
// reaches in a given format. This file: the element types and their sizes.
#include <string>
#include <vector>

namespace paleo {

enum class Dtype { kFp32, kTf32, kFp16, kBf16, kFp8E4M3, kFp8E5M2 };

// Bytes one element occupies in memory (tf32 is stored as fp32).
double dtype_bytes(Dtype t);
const char* dtype_name(Dtype t);
// "fp32", "tf32", "fp16", "bf16", "fp8" (= e4m3), "fp8_e4m3", "fp8_e5m2". Throws paleo::Error
// naming `field`.
Dtype parse_dtype(const std::string& name, const std::string& field);
// The names parse_dtype reads, in that order (the schema's allowed values of a number format).
std::vector<std::string> dtype_names();
// The key of a device's peak_tensor_gflops table for this type ("fp8" for both fp8 formats).
const char* tensor_peak_key(Dtype t);

}  // namespace paleo
