// presets/ files a host hands the core (core/api.h add_preset_file_json): the WebAssembly module
// leaves the validation cases out and the page adds them when its accuracy section opens. The
// native build has every file compiled in, so these tests add a net under a new key (a copy of
// alex_v2) and check that it answers as the compiled-in copy does, and that paths already there,
// other paths and text that is not JSON are turned away.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "core/api.h"

namespace {

using Json = nlohmann::ordered_json;

std::string preset_text(const std::string& path) {
  std::ifstream in(std::string(PALEO_TEST_DATA_DIR) + "/../../presets/" + path);
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

Json add(const std::string& path, const std::string& text) {
  return Json::parse(paleo::add_preset_file_json(path, text));
}

}  // namespace

TEST_CASE("An added net answers as the compiled-in file it copies", "[presets]") {
  const Json added = add("nets/added_copy_of_alex_v2.json", preset_text("nets/alex_v2.json"));
  REQUIRE(added["ok"] == true);
  CHECK(added["added"] == true);
  const Json request = {{"command", "estimate"}, {"batch_size", 64}, {"sections", {"totals"}}};
  Json original = request;
  original["net"] = "alex_v2";
  Json copy = request;
  copy["net"] = "added_copy_of_alex_v2";
  const Json a = paleo::handle_request(original);
  const Json b = paleo::handle_request(copy);
  REQUIRE(a["ok"] == true);
  REQUIRE(b["ok"] == true);
  CHECK(b["totals"]["step_ms"].get<double>() == a["totals"]["step_ms"].get<double>());
  // Listed with the presets, as the page's select reads them.
  bool listed = false;
  const Json presets = paleo::handle_request(Json{{"command", "presets"}});
  for (const Json& net : presets["nets"]) listed = listed || net["key"] == "added_copy_of_alex_v2";
  CHECK(listed);
  // The same path again adds nothing.
  CHECK(add("nets/added_copy_of_alex_v2.json", "{}")["added"] == false);
}

TEST_CASE("A file already compiled in is not replaced", "[presets]") {
  const Json answer = add("validation/never_a_case.json", "{\"cases\": []}");
  REQUIRE(answer["ok"] == true);  // a new name: added
  const Json again = add("nets/alex_v2.json", "{\"layers\": {}}");
  REQUIRE(again["ok"] == true);
  CHECK(again["added"] == false);
}

TEST_CASE("Paths outside the added folders and text that is not JSON are turned away", "[presets]") {
  for (const char* path :
       {"devices.json", "nets/../devices.json", "nets/sub/x.json", "nets/x.txt", "nets/.json", "calibration/x.json"}) {
    const Json answer = add(path, "{}");
    INFO(path);
    CHECK(answer["ok"] == false);
    CHECK(answer["error"]["field"] == "path");
  }
  const Json broken = add("nets/broken_text.json", "{\"layers\": ");
  CHECK(broken["ok"] == false);
  CHECK(broken["error"]["message"].get<std::string>().find("not a JSON object") != std::string::npos);
}
