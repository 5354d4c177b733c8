#pragma once
// The built-in presets: presets/*.json compiled into the core (core/spec/embedded_presets.h), plus
// the files a host added (add_file): a build may leave folders out (the WebAssembly module leaves
// the validation cases out, CMake's PALEO_PRESETS_LEFT_OUT) and its host hands them in when needed.
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/spec/embedded_presets.h"
#include "core/hardware/device.h"
#include "core/hardware/interconnect.h"
#include "core/hardware/software.h"
#include "core/base/json.h"
#include "core/hardware/cluster.h"

namespace paleo {

class Presets {
 public:
  static const Presets& instance();  // each file parsed once, on first use

  // Adds a presets/ file the build left out (path relative to presets/: "validation/<name>.json",
  // "nets/<key>.json", "transformers/<key>.json"). Returns false, adding nothing, when a file of
  // that path is already there. Throws paleo::Error for another path or text that is not JSON.
  // Not synchronised with lookups: a host adds files between requests (the page's worker, one
  // request at a time); the native build embeds everything and never calls it.
  static bool add_file(const std::string& path, const std::string& text);

  // Each throws paleo::Error (field = the request field) for an unknown key.
  const Json& net(const std::string& key) const;
  // The same as a shared pointer that owns nothing (presets live as long as the process), for a
  // NetSpec to read in place.
  std::shared_ptr<const Json> net_document(const std::string& key) const;
  Device device(const std::string& key) const;
  Interconnect interconnect(const std::string& key, const std::string& field) const;
  Software software(const std::string& key) const;
  Link link(const std::string& key, const std::string& field) const;
  // A cluster preset; its "device" (if any) is returned through `device_key`.
  Cluster cluster(const std::string& key, std::string* device_key) const;

  std::vector<std::string> net_keys() const;
  // Transformer presets (presets/transformers/<key>.json: {key, name, transformer: {...}, ...}).
  const Json* find_transformer(const std::string& key) const;  // nullptr when unknown
  std::vector<std::string> transformer_keys() const;
  // Validation case files (presets/validation/<name>.json: {"cases": [...]}, docs/validation.md),
  // as (file stem, document) in file-name order: a snapshot, safe to keep while a host adds files
  // (documents are never freed, so the pointers stay valid).
  std::vector<std::pair<std::string, const Json*>> validation_files() const;
  const Json& devices() const { return devices_.get(); }
  const Json& interconnects() const { return interconnects_.get(); }
  const Json& software_list() const { return software_.get(); }
  const Json& scenarios() const { return scenarios_.get(); }
  const Json& prices() const { return prices_.get(); }
  const Json& links() const { return links_.get(); }
  const Json& clusters() const { return clusters_.get(); }
  const Json& software_eras() const { return software_eras_.get(); }

 private:
  // A compiled-in file, parsed the first time it is asked for: a command reads a few of them, and
  // parsing all at start-up costs more than most commands.
  class Document {
   public:
    explicit Document(const EmbeddedFile* file) : file_(file) {}
    explicit Document(Json parsed);  // a file a host added, parsed when added
    const Json& get() const;

   private:
    const EmbeddedFile* file_ = nullptr;
    mutable std::once_flag parsed_;
    mutable Json doc_;
  };
  // A list under `name` in one document ({"devices": [...]}).
  struct List {
    const Document* doc = nullptr;
    const char* name = "";
    const Json& get() const;
  };

  Presets();
  static Presets& mutable_instance();
  bool has_file(const std::string& path) const;
  // Files a document under the sets below by its path (nets/, transformers/, validation/, the lists).
  void file(const std::string& path, const Document* doc);

  std::deque<Document> documents_;                             // a deque: adding a file moves none already read
  std::vector<std::string> paths_;                             // documents_' paths
  std::vector<std::pair<std::string, const Document*>> nets_;  // key = file stem of nets/<key>.json
  std::vector<std::pair<std::string, const Document*>> transformers_;  // key = file stem of transformers/<key>.json
  std::vector<std::pair<std::string, const Document*>> validation_sources_;  // validation/<name>.json
  mutable std::mutex validation_mutex_;  // validation_sources_ grows when a host adds a file
  List devices_, interconnects_, software_, scenarios_, prices_, links_, clusters_, software_eras_;
};

// Device and interconnect from a request object ({"name", "peak_gflops", ...}); throws with the
// request field named.
Device device_from_json(const Json& obj, const std::string& field);
Interconnect interconnect_from_json(const Json& obj, const std::string& field);
// A link: a preset key or {"latency_us", "bandwidth_gb_per_s"} (or "achievable_gb_per_s").
Link link_from_json(const Json& value, const std::string& field);
// A cluster: a preset key or {"nodes", "devices_per_node", "intra", "inter", "nics_per_node"}.
Cluster cluster_from_json(const Json& value, const std::string& field, std::string* device_key);

}  // namespace paleo
