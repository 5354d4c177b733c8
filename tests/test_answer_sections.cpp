// A request's "sections" or "omit_sections" (core/api/answer_sections.h): the answer keeps its
// header, its warnings and the members named (or all but those named), each equal to the full
// answer's; a name the answer lacks stays absent; a list that is not of names, or both fields, is
// an error naming the field.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/api.h"
#include "core/api/answer_sections.h"

namespace {

using Json = nlohmann::ordered_json;

std::vector<std::string> keys(const Json& j) {
  std::vector<std::string> out;
  for (auto it = j.begin(); it != j.end(); ++it) out.push_back(it.key());
  return out;
}

}  // namespace

TEST_CASE("sections: a CNN estimate keeps the members named, as the full answer has them") {
  Json q = {{"command", "estimate"},
            {"net", "alex_v2"},
            {"device", "V100_SXM2_16GB"},
            {"cluster", "dgx1_v100_edr"},
            {"dataset_samples", 1000}};
  const Json full = paleo::handle_request(q);
  REQUIRE(full["ok"] == true);
  REQUIRE(full.contains("layers"));
  q["sections"] = {"train", "totals", "simulation"};  // no workers, so no simulation
  const Json lean = paleo::handle_request(q);
  // In the answer's own order, the header and the warnings always.
  CHECK(keys(lean) == std::vector<std::string>{"ok", "command", "totals", "train", "warnings"});
  CHECK(lean["totals"] == full["totals"]);
  CHECK(lean["train"] == full["train"]);
  CHECK(lean["warnings"] == full["warnings"]);
  CHECK(lean.dump().size() * 4 < full.dump().size());  // the layer table was most of it
  // An empty list: the header alone (what kind of net a caller has).
  q["sections"] = Json::array();
  CHECK(keys(paleo::handle_request(q)) == std::vector<std::string>{"ok", "command", "warnings"});
}

TEST_CASE("sections: a transformer's estimate and summary, and a name the answer lacks stays absent") {
  Json q = {{"command", "estimate"},
            {"net", "llama3_8b"},
            {"nodes", 1},
            {"devices_per_node", 8},
            {"sections", {"step_ms", "mfu", "fits", "no_such_member"}}};
  const Json lean = paleo::handle_request(q);
  q.erase("sections");
  const Json full = paleo::handle_request(q);
  CHECK(keys(lean) == std::vector<std::string>{"ok", "command", "kind", "step_ms", "mfu", "fits", "warnings"});
  CHECK(lean["step_ms"] == full["step_ms"]);
  CHECK(lean["mfu"] == full["mfu"]);
  CHECK(lean["warnings"] == full["warnings"]);
  const Json summary =
      paleo::handle_request({{"command", "summary"}, {"net", "llama3_8b"}, {"sections", Json::array()}});
  CHECK(summary == Json({{"ok", true}, {"command", "summary"}, {"kind", "transformer"}}));
}

TEST_CASE("sections: not a list of names is an error naming the field") {
  for (const Json& bad : {Json("totals"), Json({1}), Json({{"totals", true}})}) {
    const Json out = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"sections", bad}});
    INFO(bad.dump());
    REQUIRE(out["ok"] == false);
    CHECK(out["error"]["field"] == "sections");
  }
  Json many = Json::array();
  for (int i = 0; i < 65; ++i) many.push_back("totals");
  CHECK(paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"sections", many}})["error"]["field"] ==
        "sections");
}

TEST_CASE("sections: which members an answer builds") {
  const paleo::AnswerSections all;
  CHECK(all.wanted("layers"));  // neither field: everything
  paleo::AnswerSections cluster_only;
  paleo::read_sections(Json({"cluster"}), "sections", cluster_only);
  CHECK_FALSE(cluster_only.wanted("layers"));
  CHECK(cluster_only.wanted("cluster"));
  paleo::AnswerSections header_only;
  paleo::read_sections(Json::array(), "sections", header_only);
  CHECK_FALSE(header_only.wanted("cluster"));  // an empty list: the header alone
  paleo::AnswerSections no_layers;
  paleo::read_sections(Json({"layers"}), "omit_sections", no_layers);
  CHECK_FALSE(no_layers.wanted("layers"));
  CHECK(no_layers.wanted("cluster"));
}

TEST_CASE("omit_sections: every member but those named, each as the full answer has it") {
  Json q = {{"command", "estimate"},      {"net", "inception_v3"}, {"device", "V100_SXM2_16GB"},
            {"cluster", "dgx1_v100_edr"}, {"workers", {1, 2}},     {"dataset_samples", 1000}};
  const Json full = paleo::handle_request(q);
  REQUIRE(full["ok"] == true);
  q["omit_sections"] = {"layers", "ok", "no_such_member"};  // the header always comes
  const Json lean = paleo::handle_request(q);
  std::vector<std::string> expected;
  for (const std::string& k : keys(full))
    if (k != "layers") expected.push_back(k);
  CHECK(keys(lean) == expected);
  for (const std::string& k : expected) CHECK(lean[k] == full[k]);
  // A transformer's too.
  const Json llm = paleo::handle_request({{"command", "estimate"},
                                          {"net", "llama3_8b"},
                                          {"nodes", 1},
                                          {"devices_per_node", 8},
                                          {"omit_sections", {"layers"}}});
  CHECK(llm["ok"] == true);
  CHECK_FALSE(llm.contains("layers"));
  CHECK(llm.contains("step_ms"));
}

TEST_CASE("sections and omit_sections together, or omit_sections not a list of names, is an error naming the field") {
  const Json both = paleo::handle_request(
      {{"command", "estimate"}, {"net", "alex_v2"}, {"omit_sections", {"layers"}}, {"sections", {"totals"}}});
  REQUIRE(both["ok"] == false);
  CHECK(std::string(both["error"]["message"]).find("not both") != std::string::npos);
  const Json bad = paleo::handle_request({{"command", "estimate"}, {"net", "alex_v2"}, {"omit_sections", "layers"}});
  REQUIRE(bad["ok"] == false);
  CHECK(bad["error"]["field"] == "omit_sections");
}
