// A network re-batched in place equals the network built from its spec at that batch, field for
// field, on every preset; out-of-range batches fail with the spec reader's own error; and a
// request priced through re-batching answers exactly what one built per batch answers.
#include <catch2/catch.hpp>

#include <string>

#include "core/api/request.h"
#include "core/base/error.h"
#include "core/spec/network_batch.h"
#include "core/cost/network_cost.h"
#include "core/cost/network_pricer.h"
#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;

void check_same_conv(const paleo::ConvGeometry& a, const paleo::ConvGeometry& b) {
  CHECK(a.input == b.input);
  CHECK(a.output == b.output);
  CHECK((a.kh == b.kh && a.kw == b.kw && a.cin == b.cin && a.cout == b.cout && a.sh == b.sh && a.sw == b.sw));
  CHECK((a.padding == b.padding && a.pad_h == b.pad_h && a.pad_w == b.pad_w));
  CHECK((a.holes == b.holes && a.holes_in_inputs == b.holes_in_inputs));
  CHECK((a.groups == b.groups && a.groups_split_batch == b.groups_split_batch));
}

void check_same_branch(const paleo::Branch& a, const paleo::Branch& b) {
  REQUIRE(a.steps.size() == b.steps.size());
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    CHECK(a.steps[i].layer == b.steps[i].layer);
    REQUIRE(a.steps[i].branches.size() == b.steps[i].branches.size());
    for (std::size_t k = 0; k < a.steps[i].branches.size(); ++k)
      check_same_branch(a.steps[i].branches[k], b.steps[i].branches[k]);
  }
}

void check_same_network(const paleo::Network& a, const paleo::Network& b) {
  CHECK(a.name == b.name);
  CHECK(a.batch_size == b.batch_size);
  REQUIRE(a.layers.size() == b.layers.size());
  for (std::size_t i = 0; i < a.layers.size(); ++i) {
    const paleo::Layer& x = a.layers[i];
    const paleo::Layer& y = b.layers[i];
    INFO("layer " << x.name);
    CHECK(x.name == y.name);
    CHECK(x.type == y.type);
    CHECK(x.kind == y.kind);
    CHECK(x.parents == y.parents);
    CHECK(x.inputs == y.inputs);
    CHECK(x.output == y.output);
    CHECK((x.on_split_device == y.on_split_device && x.split_device == y.split_device && x.backprop == y.backprop));
    CHECK(x.split_index == y.split_index);
    check_same_conv(x.conv, y.conv);
    CHECK((x.pool_kh == y.pool_kh && x.pool_kw == y.pool_kw && x.pool_sh == y.pool_sh && x.pool_sw == y.pool_sw));
    CHECK(x.weights == y.weights);
    CHECK((x.fused_activation == y.fused_activation && x.fused_batch_norm == y.fused_batch_norm));
    CHECK(x.conv_algorithm == y.conv_algorithm);
    CHECK((x.params == y.params && x.weights_bytes == y.weights_bytes));
  }
  check_same_branch(a.nested, b.nested);
}

paleo::Request layers_request(const Json& net, const char* profile) {
  return paleo::parse_request(Json{{"command", "layers"}, {"net", net}, {"profile", profile}});
}

}  // namespace

TEST_CASE("a re-batched network equals the network built at that batch on every preset") {
  for (const std::string& key : paleo::Presets::instance().net_keys())
    for (const char* profile : {"paleo2017", "paleo2026"}) {
      const paleo::Request r = layers_request(key, profile);
      const paleo::Scenario& s = r.scenario;
      paleo::Network net = paleo::build_network(s.spec, s.graph, 32, *s.profile);
      // Down, up, to odd sizes and back: each step from the previous one.
      for (paleo::Dim batch : {1, 2, 3, 17, 128, 1000, 32}) {
        INFO(key << " (" << profile << ") at batch " << batch);
        paleo::rebatch(net, s.spec, s.graph, batch, *s.profile);
        check_same_network(net, paleo::build_network(s.spec, s.graph, batch, *s.profile));
      }
    }
}

TEST_CASE("re-batching follows a concatenation along the samples") {
  // Two towers of 4 samples each, stacked into 8 samples; then a convolution on the stack.
  const Json net = {
      {"name", "stack"},
      {"layers",
       {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {4, 8, 8, 3}}}},
        {"a", {{"parents", {"data"}}, {"type", "ReLU"}}},
        {"b", {{"parents", {"data"}}, {"type", "Sigmoid"}}},
        {"stack", {{"parents", {"a", "b"}}, {"type", "Concatenate"}, {"dim", 0}}},
        {"conv", {{"parents", {"stack"}}, {"type", "Convolution"}, {"filter", {3, 3, 3, 8}},
                  {"strides", {1, 1, 1, 1}}, {"padding", "SAME"}}},
        {"one", {{"parents", {"conv"}}, {"type", "Concatenate"}, {"dim", 0}}},
        {"fc", {{"parents", {"one"}}, {"type", "InnerProduct"}, {"num_outputs", 10}}}}}};
  const paleo::Request r = layers_request(net, "paleo2026");
  const paleo::Scenario& s = r.scenario;
  paleo::Network n = paleo::build_network(s.spec, s.graph, 4, *s.profile);
  paleo::rebatch(n, s.spec, s.graph, 5, *s.profile);
  CHECK(n.layers.back().output == paleo::Shape{10, 10});  // 5 + 5 samples
  check_same_network(n, paleo::build_network(s.spec, s.graph, 5, *s.profile));
}

TEST_CASE("a batch too large for a tensor fails as building the network at that batch does") {
  // 2^40 elements per sample: 2^10 samples reach kMaxElements, 2^11 exceed it.
  const Json net = {{"name", "wide"},
                    {"layers",
                     {{"data", {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {1, 1024, 1024, 1048576}}}},
                      {"act", {{"parents", {"data"}}, {"type", "ReLU"}}}}}};
  const paleo::Request r = layers_request(net, "paleo2026");
  const paleo::Scenario& s = r.scenario;
  paleo::Network n = paleo::build_network(s.spec, s.graph, 1, *s.profile);
  paleo::rebatch(n, s.spec, s.graph, 1024, *s.profile);
  CHECK(n.layers[1].output[0] == 1024);
  std::string expected;
  try {
    paleo::build_network(s.spec, s.graph, 2048, *s.profile);
  } catch (const paleo::Error& e) {
    expected = e.what();
  }
  REQUIRE(!expected.empty());
  CHECK_THROWS_WITH(paleo::rebatch(n, s.spec, s.graph, 2048, *s.profile), expected);
  CHECK_THROWS_AS(paleo::rebatch(n, s.spec, s.graph, 0, *s.profile), paleo::Error);
}

TEST_CASE("the pricer costs each batch as building and costing the network at that batch does") {
  const paleo::Request r = paleo::parse_request(
      Json{{"command", "layers"}, {"net", "inception_v3"}, {"device", "V100_SXM2_16GB"}, {"profile", "paleo2026"}});
  paleo::NetworkPricer pricer(r.scenario);
  for (paleo::Dim batch : {64, 1, 2, 7, 64, 300}) {
    INFO("batch " << batch);
    const paleo::PricedNetwork got = pricer.at(batch);
    // Built from the spec at that batch, not re-batched: an independent expectation.
    const paleo::Scenario& s = r.scenario;
    paleo::CostedNetwork want;
    want.net = paleo::build_network(s.spec, s.graph, batch, *s.profile);
    const paleo::CostModel model = s.cost_model();
    want.cost = paleo::network_cost(want.net, model, paleo::update_model_for(model), s.cost);
    check_same_network(got.net, want.net);
    REQUIRE(got.cost.layers.size() == want.cost.layers.size());
    for (std::size_t i = 0; i < want.cost.layers.size(); ++i) {
      CHECK(got.cost.layers[i].forward.total_ms() == want.cost.layers[i].forward.total_ms());
      CHECK(got.cost.layers[i].backward.total_ms() == want.cost.layers[i].backward.total_ms());
      CHECK(got.cost.layers[i].forward.workspace_bytes == want.cost.layers[i].forward.workspace_bytes);
    }
    CHECK(got.cost.forward.total_ms == want.cost.forward.total_ms);
    CHECK(got.cost.backward.total_ms == want.cost.backward.total_ms);
    CHECK(got.cost.update.total_ms() == want.cost.update.total_ms());
  }
  CHECK(&pricer.at(64).cost == &pricer.at(64).cost);  // priced once
}

TEST_CASE("a request naming a preset holds the network its spec builds at the request's batch") {
  for (const char* key : {"inception_v3", "resnet50_v1_5", "alex_v2_4gpu", "dcgan_generator_test"})
    for (const char* profile : {"paleo2017", "paleo2026"})
      for (int batch : {1, 7, 256}) {
        INFO(key << " (" << profile << ") at batch " << batch);
        const paleo::Request r = paleo::parse_request(
            Json{{"command", "layers"}, {"net", key}, {"profile", profile}, {"batch_size", batch}});
        const paleo::Scenario& s = r.scenario;
        REQUIRE(s.built_network() != nullptr);
        check_same_network(*s.built_network(), paleo::build_network(s.spec, s.graph, batch, *s.profile));
        // The spec as the request's own copy of the preset would read it.
        const paleo::NetSpec own = paleo::expand_net_spec(paleo::Presets::instance().net(key));
        REQUIRE(own.layers.size() == s.spec.layers.size());
        for (std::size_t i = 0; i < own.layers.size(); ++i) {
          CHECK(own.layers[i].name == s.spec.layers[i].name);
          CHECK(*own.layers[i].params == *s.spec.layers[i].params);
          CHECK(own.layers[i].parents == s.spec.layers[i].parents);
        }
      }
}
