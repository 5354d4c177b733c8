#include "core/import/onnx_gelu_pattern.h"

#include <vector>

namespace paleo {
namespace {

struct NodeIndex {
  const Json& nodes;
  std::unordered_map<std::string, std::size_t> producer;
  std::unordered_map<std::string, std::vector<std::size_t>> consumers;

  explicit NodeIndex(const Json& n) : nodes(n) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const Json& node = nodes[i];
      if (!node.is_object() || !node.contains("inputs") || !node["inputs"].is_array() || !node.contains("outputs") ||
          !node["outputs"].is_array())
        continue;
      for (const Json& out : node["outputs"])
        if (out.is_string()) producer[out.get<std::string>()] = i;
      for (const Json& in : node["inputs"])
        if (in.is_string()) consumers[in.get<std::string>()].push_back(i);
    }
  }
  // A node's field, or null for a node that is not an object or lacks it (the mapper reports those).
  const Json& field(std::size_t i, const char* key) const {
    static const Json none;
    return nodes[i].is_object() && nodes[i].contains(key) ? nodes[i][key] : none;
  }
  std::string op(std::size_t i) const {
    const Json& o = field(i, "op");
    return o.is_string() ? o.get<std::string>() : "";
  }
  std::string output(std::size_t i) const {
    const Json& outs = field(i, "outputs");
    return outs.is_array() && outs.size() == 1 && outs[0].is_string() ? outs[0].get<std::string>() : "";
  }
  std::string input(std::size_t i, std::size_t k) const {
    const Json& ins = field(i, "inputs");
    return ins.is_array() && ins.size() > k && ins[k].is_string() ? ins[k].get<std::string>() : "";
  }
  bool has_inputs(std::size_t i, std::size_t count) const {
    const Json& ins = field(i, "inputs");
    return ins.is_array() && ins.size() == count;
  }
  // The single node reading tensor `name`, of type `op`.
  bool only_consumer(const std::string& name, const std::string& op_name, std::size_t& out) const {
    auto it = consumers.find(name);
    if (it == consumers.end() || it->second.size() != 1 || op(it->second[0]) != op_name) return false;
    out = it->second[0];
    return true;
  }
};

}  // namespace

std::unordered_map<std::size_t, OnnxGelu> find_onnx_gelus(const Json& nodes, const Json& initializers,
                                                          std::unordered_map<std::size_t, bool>& absorbed) {
  std::unordered_map<std::size_t, OnnxGelu> found;
  if (!nodes.is_array()) return found;
  const NodeIndex ix(nodes);
  auto constant = [&](const std::string& name) {
    auto p = ix.producer.find(name);
    return (p != ix.producer.end() && ix.op(p->second) == "Constant") ||
           (initializers.is_object() && initializers.contains(name));
  };
  for (std::size_t e = 0; e < nodes.size(); ++e) {
    if (ix.op(e) != "Erf" || ix.output(e).empty()) continue;
    auto d = ix.producer.find(ix.input(e, 0));
    if (d == ix.producer.end() || ix.op(d->second) != "Div" || !ix.has_inputs(d->second, 2) ||
        !constant(ix.input(d->second, 1)))
      continue;
    std::size_t erf = 0;  // the division feeds the Erf only
    if (!ix.only_consumer(ix.output(d->second), "Erf", erf) || erf != e) continue;
    const std::string x = ix.input(d->second, 0);
    std::size_t add = 0, mul = 0, half = 0;
    if (!ix.only_consumer(ix.output(e), "Add", add) || !ix.only_consumer(ix.output(add), "Mul", mul)) continue;
    if (ix.input(mul, 0) != x && ix.input(mul, 1) != x) continue;
    OnnxGelu g{x, ix.output(mul)};
    std::vector<std::size_t> parts = {d->second, add, mul};
    if (ix.only_consumer(ix.output(mul), "Mul", half)) {
      const std::string other = ix.input(half, 0) == ix.output(mul) ? ix.input(half, 1) : ix.input(half, 0);
      if (constant(other)) {
        g.output = ix.output(half);
        parts.push_back(half);
      }
    }
    if (g.output.empty()) continue;
    for (std::size_t p : parts) absorbed[p] = true;
    found[e] = g;
  }
  return found;
}

}  // namespace paleo
