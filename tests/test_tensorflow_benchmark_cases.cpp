// TensorFlow's 2017 benchmark tables in the validation suite (presets/validation/cnn_cases.json):
// each K80 case's measured step is the batch of its GPUs over the images/s of the column of its
// net in the table row it quotes, on the GPUs that row counts.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/spec/presets.h"

namespace {

using Json = nlohmann::ordered_json;

// "a | b | c" as its trimmed fields.
std::vector<std::string> fields(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream s(row);
  std::string f;
  while (std::getline(s, f, '|')) {
    const auto first = f.find_first_not_of(' '), last = f.find_last_not_of(' ');
    out.push_back(first == std::string::npos ? "" : f.substr(first, last - first + 1));
  }
  return out;
}

// The table's column header of each preset net the cases run, and the batch per GPU the K80
// sections' "Batch size per GPU" row gives it.
struct Column {
  std::string header;
  long batch;
};
const std::map<std::string, Column>& column_of_net() {
  static const std::map<std::string, Column> columns = {{"inception_v3", {"InceptionV3", 64}},
                                                        {"resnet50_v1", {"ResNet-50", 64}},
                                                        {"resnet152_v1", {"ResNet-152", 32}},
                                                        {"alex_v2_227", {"Alexnet", 512}},
                                                        {"vgg16", {"VGG16", 32}}};
  return columns;
}

// Where the doc's table keeps a net's parameters on the host CPU (variable_update
// parameter_server, local_parameter_device cpu): every net on Compute Engine, Inception v3 alone
// on EC2 (ResNets replicated without NCCL, AlexNet and VGG-16 on a GPU).
bool host_parameter_server(bool compute_engine, const std::string& net) {
  return compute_engine || net == "inception_v3";
}

}  // namespace

TEST_CASE("TensorFlow's K80 cases give the step of the table cell they quote", "[validation]") {
  int single = 0, several = 0;
  for (const auto& [file, doc] : paleo::Presets::instance().validation_files())
    for (const Json& c : (*doc)["cases"]) {
      const std::string id = c["id"].get<std::string>();
      if (id.rfind("TFB-K80-", 0) != 0) continue;
      INFO(id);
      const Json& r = c["request"];
      // The cloud of the id is the section the quote comes from.
      const bool compute_engine = id.find("-GCE-") != std::string::npos;
      CHECK(compute_engine != (id.find("-AWS-") != std::string::npos));
      const std::string location = c["source"]["location"].get<std::string>();
      CHECK((location.find("Google Compute Engine") != std::string::npos) == compute_engine);
      CHECK((location.find("Amazon EC2") != std::string::npos) == !compute_engine);
      CHECK(r["device"] == "K80_GK210");
      CHECK(r["software_era"] == "tensorflow_2017");
      // "header ... row": the header names the columns, the row's first field counts the GPUs.
      const std::string quote = c["source"]["quote"].get<std::string>();
      const auto cut = quote.find(" ... ");
      REQUIRE(cut != std::string::npos);
      const std::vector<std::string> header = fields(quote.substr(0, cut)), row = fields(quote.substr(cut + 5));
      REQUIRE(header.size() == row.size());
      const std::string net = r["net"].get<std::string>();
      REQUIRE(column_of_net().count(net) == 1);
      std::size_t column = 0;
      for (std::size_t k = 1; k < header.size(); ++k)
        if (header[k].rfind(column_of_net().at(net).header, 0) == 0) column = k;
      REQUIRE(column > 0);
      const long gpus = std::stol(row[0]);
      CHECK(gpus == (r.contains("cluster") ? r["cluster"]["devices_per_node"].get<long>() : 1));
      // The "Other Results" table's header gives its batch in each column.
      const bool batch_32 = header[column].find("(batch size 32)") != std::string::npos;
      CHECK(r["batch_size"].get<long>() == (batch_32 ? 32 : column_of_net().at(net).batch));
      const double images_per_s = std::stod(row[column]);
      const double step_ms = static_cast<double>(r["batch_size"].get<long>() * gpus) / images_per_s * 1000;
      CHECK(std::fabs(c["measured"].get<double>() - step_ms) < 1e-4 * step_ms);
      CHECK(c["measured_as_reported"].get<std::string>().rfind(row[column] + " images/sec", 0) == 0);
      if (gpus == 1) {
        ++single;
        CHECK_FALSE(r.contains("cluster"));
      } else {
        // 2, 4 or 8 GPUs of one instance exchanging through the host's parameter server, as the doc ran them.
        CHECK((gpus == 2 || gpus == 4 || gpus == 8));
        ++several;
        CHECK(r["cluster"]["nodes"] == 1);
        CHECK(r["collective"] == "parameter_server");
        CHECK(host_parameter_server(compute_engine, net));
      }
    }
  CHECK(single == 14);
  CHECK(several == 27);
}
