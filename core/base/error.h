#pragma once
// The one error type of the core: bad input, reported with the layer and field it concerns. The
// layer and field are cut to kMaxEchoedNameBytes and the message to kMaxErrorMessageBytes
// (core/base/request_limits.h), all made valid UTF-8.
#include <stdexcept>
#include <string>

namespace paleo {

class Error : public std::runtime_error {
 public:
  Error(const std::string& message, std::string layer = "", std::string field = "");

  const std::string& layer() const { return layer_; }
  const std::string& field() const { return field_; }
  // The message without the "layer 'x': field 'y': " prefix.
  const std::string& detail() const { return detail_; }

 private:
  struct Checked {};
  Error(std::string message, std::string layer, std::string field, Checked);

  std::string layer_;
  std::string field_;
  std::string detail_;
};

}  // namespace paleo
