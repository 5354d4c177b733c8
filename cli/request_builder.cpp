#include "cli/request_builder.h"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace paleo::cli {
namespace {

using Json = nlohmann::ordered_json;

// Numbers stay numbers when they parse; anything else goes through as text so that the core
// reports the bad field.
Json number_or_text(const std::string& text) {
  try {
    std::size_t used = 0;
    long long i = std::stoll(text, &used);
    if (used == text.size()) return i;
    double d = std::stod(text, &used);
    if (used == text.size()) return d;
  } catch (const std::exception&) {
  }
  return text;
}

Json list_of(const std::string& text, bool numbers) {
  Json list = Json::array();
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) list.push_back(numbers ? number_or_text(item) : Json(item));
  return list;
}

std::string file_stem(const std::string& path) {
  std::size_t slash = path.find_last_of('/');
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
  return name;
}

}  // namespace

Json net_argument(const std::string& arg) {
  std::ifstream file(arg);
  if (file) {
    std::stringstream text;
    text << file.rdbuf();
    try {
      return Json::parse(text.str());
    } catch (const Json::parse_error& e) {
      throw std::invalid_argument("malformed JSON in " + arg + ": " + e.what());
    }
  }
  return file_stem(arg);
}

Json build_request(const std::string& command, const Arguments& args, const Json& net) {
  Json r = {{"command", command}, {"net", net}};
  const bool simulate = command == "simulate";
  if (args.has("device_name")) r["device"] = args.get("device_name", "");
  if (args.has("network_name")) r["network"] = args.get("network_name", "");
  if (args.has("software")) r["software"] = args.get("software", "");
  if (args.has("profile")) r["profile"] = args.get("profile", "");
  if (args.has("batch_size")) r["batch_size"] = number_or_text(args.get("batch_size", ""));
  else if (simulate) r["batch_size"] = 128;  // the original simulate's default
  if (args.has("ppp_comp")) r["ppp_comp"] = number_or_text(args.get("ppp_comp", ""));
  if (args.has("ppp_comm")) r["ppp_comm"] = number_or_text(args.get("ppp_comm", ""));
  // Without --use_only_gemm the original asked cuDNN's heuristics; our stand-in is "auto".
  std::string algorithm = args.has("use_only_gemm") ? "gemm" : args.get("conv_algorithm", "auto");
  r["conv_algorithm"] = algorithm;
  if (args.has("workspace_limit_bytes")) r["workspace_limit_bytes"] = number_or_text(args.get("workspace_limit_bytes", ""));
  if (args.has("fetch_bandwidth_gb_per_s"))
    r["fetch_bandwidth_gb_per_s"] = number_or_text(args.get("fetch_bandwidth_gb_per_s", ""));
  if (args.has("use_pipeline")) r["use_pipeline"] = true;
  if (simulate || command == "estimate") {
    if (args.has("num_workers")) r["workers"] = list_of(args.get("num_workers", ""), true);
    else if (simulate) r["workers"] = Json::array({1, 2, 4, 8, 16, 32, 64, 128});
    if (args.has("scaling")) r["scaling"] = list_of(args.get("scaling", ""), false);
    if (args.has("parallel")) r["parallel"] = args.get("parallel", "");
    if (args.has("hybrid_workers")) r["hybrid_workers"] = number_or_text(args.get("hybrid_workers", ""));
  }
  return r;
}

}  // namespace paleo::cli
