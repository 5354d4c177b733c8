// The CLI's files and standard input, read to the request limit plus one byte and no further
// (cli/bounded_input.h): /dev/zero, a huge file, an endless pipe or a directory stop at once with an
// error naming the path; and its CSV and table cells escaped, as the page's export escapes them.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_runner.h"
#include "core/base/request_limits.h"
#include "csv_table.h"

namespace {

using paleo_test::CliResult;
using paleo_test::quoted;
using Json = nlohmann::ordered_json;

// A shell command line run with the CLI's path in $PALEO, under a time limit so that a regression
// to an unbounded read fails instead of running forever.
CliResult run_shell(const std::string& line) {
  const std::filesystem::path out = paleo_test::temp_path("stdout", ".txt"), err = paleo_test::temp_path("stderr", ".txt");
  std::string single = "'";  // the line in single quotes: $PALEO is expanded by the inner shell
  for (char c : line) single += c == '\'' ? std::string("'\\''") : std::string(1, c);
  single += "'";
  const std::string command = "PALEO=" + quoted(PALEO_CLI_PATH) + " timeout 60 sh -c " + single + " > " +
                              quoted(out.string()) + " 2> " + quoted(err.string());
  const int status = std::system(command.c_str());
  CliResult r;
  r.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = paleo_test::read_text(out);
  r.err = paleo_test::read_text(err);
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  return r;
}

void check_refused(const CliResult& r, const std::string& words) {
  INFO("stdout: " << r.out.substr(0, 300) << "\nstderr: " << r.err.substr(0, 600));
  CHECK(r.exit_code == 2);
  CHECK(r.err.find(words) != std::string::npos);
  CHECK(r.err.find("malformed JSON") == std::string::npos);
  CHECK(r.err.find("unknown preset") == std::string::npos);
}

const std::string kLimit = std::to_string(paleo::kMaxRequestBytes);

}  // namespace

TEST_CASE("CLI: endless and oversized input stops at the request limit", "[cli][bounded]") {
  // Standard input of /dev/zero, and a pipe of 20 MB: read to the limit, then the limit's error.
  check_refused(run_shell("$PALEO api < /dev/zero"), "standard input: is longer than the limit of " + kLimit);
  check_refused(run_shell("head -c 20000000 /dev/zero | $PALEO api"), "standard input: is longer than the limit of " + kLimit);
  // A regular file over the limit, for every command that reads one.
  const auto big = paleo_test::write_temp_file("big", ".json", std::string(paleo::kMaxRequestBytes + 1, ' '));
  const std::string p = quoted(big.string());
  for (const std::string& args : {"api " + p, "layers " + p, "calibrate " + p, "layers vgg16 --calibration " + p,
                                  "layers vgg16 --device_name " + p, "calibrate " + p + " --request " + p})
    check_refused(paleo_test::run_cli(args), big.string() + ": is longer than the limit of " + kLimit);
  std::filesystem::remove(big);
  // A request of exactly the limit is read whole and answered.
  std::string exact = R"({"command": "version"})";
  exact.resize(paleo::kMaxRequestBytes, ' ');
  const auto at_limit = paleo_test::write_temp_file("exact", ".json", exact);
  const CliResult r = paleo_test::run_cli("api " + quoted(at_limit.string()));
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"ok\":true") != std::string::npos);
  std::filesystem::remove(at_limit);
}

TEST_CASE("CLI: api --lines answers each line, and a line past the limit with the limit's error", "[cli][bounded]") {
  // An endless line of zeros: one error line, then the next request is still answered.
  const CliResult r = run_shell("( head -c 20000000 /dev/zero; printf '\\n{\"command\": \"version\"}\\n' ) | $PALEO api --lines");
  INFO("stdout: " << r.out.substr(0, 300) << "\nstderr: " << r.err.substr(0, 300));
  CHECK(r.exit_code == 2);  // not every line was answered ok
  const auto first_end = r.out.find('\n');
  REQUIRE(first_end != std::string::npos);
  const Json first = Json::parse(r.out.substr(0, first_end));
  CHECK(first["ok"] == false);
  CHECK(first["error"]["message"].get<std::string>().find("longer than the request limit of " + kLimit) != std::string::npos);
  const Json second = Json::parse(r.out.substr(first_end + 1, r.out.find('\n', first_end + 1) - first_end - 1));
  CHECK(second["ok"] == true);
  CHECK(second["command"] == "version");
}

TEST_CASE("CLI: a device, a directory or a missing path is refused naming it", "[cli][bounded]") {
  check_refused(paleo_test::run_cli("api /dev/zero"), "/dev/zero: is a character device; give a regular file or a pipe");
  check_refused(paleo_test::run_cli("layers /dev/urandom"), "/dev/urandom: is a character device");
  check_refused(paleo_test::run_cli("calibrate /dev/zero"), "/dev/zero: is a character device");
  check_refused(paleo_test::run_cli("layers vgg16 --calibration /dev/urandom"), "/dev/urandom: is a character device");
  // A .json file linking to /dev/zero as the device.
  const auto link = paleo_test::temp_path("zero", ".json");
  std::filesystem::create_symlink("/dev/zero", link);
  check_refused(paleo_test::run_cli("layers vgg16 --device_name " + quoted(link.string())),
                "--device_name " + link.string() + ": is a character device");
  std::filesystem::remove(link);
  const std::string dir = std::filesystem::temp_directory_path().string();
  check_refused(paleo_test::run_cli("api " + quoted(dir)), dir + ": is a directory");
  check_refused(paleo_test::run_cli("layers " + quoted(dir)), dir + ": is a directory");
  check_refused(paleo_test::run_cli("api no_such_request.json"), "no_such_request.json: no such file");
  check_refused(paleo_test::run_cli("layers no_such_net.json"), "no_such_net.json: no such file");
  check_refused(paleo_test::run_cli("layers some/dir/no_such_net.prototxt"), "some/dir/no_such_net.prototxt: no such file");
  // The original's nets/<key>.json, where no such file is, still names the preset.
  const CliResult original = paleo_test::run_cli("summary nets/alex_v2.json --format csv");
  INFO(original.err);
  CHECK(original.exit_code == 0);
  // A pipe is read (process substitution gives /dev/fd/N).
  const CliResult piped = run_shell("echo '{\"command\": \"version\"}' | $PALEO api /dev/stdin");
  INFO(piped.err);
  CHECK(piped.exit_code == 0);
}

TEST_CASE("CLI: CSV cells are quoted and formulas defused, as the page's export does", "[cli][csv]") {
  // Layers named with a comma and a quote, a formula, and a tab.
  Json spec = {{"name", "hostile"}, {"layers", Json::object()}};
  spec["layers"]["data"] = {{"parents", Json::array()}, {"type", "Input"}, {"tensor", {1, 8, 8, 3}}};
  spec["layers"]["a,b\"c"] = {{"parents", {"data"}}, {"type", "ReLU"}};
  spec["layers"]["=HYPERLINK(\"http://x\")"] = {{"parents", {"a,b\"c"}}, {"type", "ReLU"}};
  spec["layers"]["-1+2"] = {{"parents", {"=HYPERLINK(\"http://x\")"}}, {"type", "ReLU"}};
  spec["layers"]["tab\there"] = {{"parents", {"-1+2"}}, {"type", "ReLU"}};
  const auto file = paleo_test::write_temp_file("hostile", ".json", spec.dump());
  const CliResult csv = paleo_test::run_cli("layers " + quoted(file.string()) + " --format csv");
  INFO(csv.err);
  REQUIRE(csv.exit_code == 0);
  // RFC 4180: the cell in quotes, its quotes doubled; the formula and the leading minus get a '.
  CHECK(csv.out.find("\n\"a,b\"\"c\",ReLU,") != std::string::npos);
  CHECK(csv.out.find("\n\"'=HYPERLINK(\"\"http://x\"\")\",ReLU,") != std::string::npos);
  CHECK(csv.out.find("\n'-1+2,ReLU,") != std::string::npos);
  // Read back as CSV, each name is one cell and the type the next.
  const paleo_test::CsvTable t = paleo_test::parse_csv(csv.out);
  REQUIRE(t.rows.size() == 5);
  CHECK(paleo_test::cell(t.rows[1], "name") == "a,b\"c");
  CHECK(paleo_test::cell(t.rows[2], "name") == "'=HYPERLINK(\"http://x\")");
  for (const auto& row : t.rows) CHECK(paleo_test::cell(row, "type") == (row.at("name") == "data" ? "Input" : "ReLU"));
  const CliResult summary = paleo_test::run_cli("summary " + quoted(file.string()) + " --format csv");
  CHECK(summary.out.find("\n\"a,b\"\"c\",ReLU,") != std::string::npos);
  // The table: a tab in a name is written \t, so the row keeps its columns; numbers keep their sign.
  const CliResult table = paleo_test::run_cli("layers " + quoted(file.string()));
  CHECK(table.out.find("\ntab\\there\tReLU\t") != std::string::npos);
  CHECK(table.out.find("\n'=HYPERLINK(\"http://x\")\tReLU\t") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("CLI: --input_shape gives an ONNX graph input the sizes the file leaves symbolic", "[cli][onnx]") {
  const auto graph = paleo_test::write_temp_file("dynamic", ".graph.json", R"({"onnx_graph": {
    "inputs": [{"name": "images", "shape": ["batch", 3, "height", "width"]}],
    "initializers": {"w": {"dims": [8, 3, 3, 3]}},
    "nodes": [{"name": "conv", "op": "Conv", "inputs": ["images", "w"], "outputs": ["y"],
               "attributes": {"kernel_shape": [3, 3], "pads": [1, 1, 1, 1]}}]}})");
  const std::string g = quoted(graph.string());
  check_refused(paleo_test::run_cli("summary " + g), "the graph input 'images' has no known size for dimension 2");
  // NCHW [1, 3, 32, 48]: Paleo's [1, 32, 48, 3]; the padded 3x3 convolution to 8 channels keeps 32 x 48
  // and holds 3 x 3 x 3 x 8 = 216 weights.
  const CliResult r = paleo_test::run_cli("summary " + g + " --input_shape 1,3,32,48 --format csv");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "name,type,output,params\ndata,Input,1x32x48x3,0\nconv,Convolution,1x32x48x8,216\n");
  check_refused(paleo_test::run_cli("summary vgg16 --input_shape 1,3,32,48"), "--input_shape applies to an ONNX net");
  std::filesystem::remove(graph);
}
