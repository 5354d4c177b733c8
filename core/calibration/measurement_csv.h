#pragma once
// calibration/: measurements as CSV text (docs/calibration.md). The first line that is neither
// blank nor a '#' comment is the header; each further line is one measurement. Columns:
//   measured_ms | measured   the measured figure (one of the two is required)
//   layer, pass              a layer row to compare (pass defaults to forward)
//   compare                  a JSON pointer into the response instead
//   weight, label            optional
//   any other name           a request field of that row (net, device, micro_batch, ...), over
//                            the shared request; a cell that reads as a JSON number, true, false,
//                            list or object is that value, any other cell a string
// An empty cell leaves its field out. Cells may be quoted ("a,b", with "" for a quote).
#include <string>

#include "core/base/json.h"

namespace paleo {

// The measurement objects of parse_measurements. Throws paleo::Error naming `field` and the line.
Json measurements_from_csv(const std::string& text, const std::string& field);

}  // namespace paleo
