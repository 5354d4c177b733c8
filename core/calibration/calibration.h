#pragma once
// calibration/: the `calibrate` command (docs/calibration.md, docs/api.md). Fits the kernel
// efficiencies of one device and software stack (matmul_ceiling, memory_fraction,
// kernel_overhead_ms by default) to a user's measured step or layer times: a robust loss on
// log(predicted / measured), minimised by Nelder-Mead within bounds, starting from the software
// era the requests get. Returns the fitted profile ({"software_era", "efficiency"}: request
// fields any command takes) and the errors before and after, on the fitted measurements and,
// with "holdout", on the measurements held out of the fit.
#include "core/base/json.h"
#include "core/base/request_runner.h"

namespace paleo {

// Each measurement's request runs through `run` (the API hands in handle_request). Throws
// paleo::Error naming the field for bad input.
Json calibration_response(const Json& request, const RequestRunner& run);

}  // namespace paleo
