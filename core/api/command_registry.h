#pragma once
// api/: every command of the JSON API and every request field, described once as data. The
// dispatcher (core/api.h), the known-command list, field checking, the "unused" warnings and the
// `schema` command's answer all read these tables; a new command or field is a row here.
#include <string>
#include <vector>

#include "core/base/json.h"

namespace paleo {

struct Request;

// Which nets a field applies to; a field of the other kind is an error rather than ignored.
// kOwn: read by its command's own reader (`validate`, `calibrate`), unknown to every other command.
enum class FieldNets { kAny, kCnn, kTransformer, kOwn };

struct FieldSpec {
  std::string name;
  std::string type;     // "string", "integer", "number", "boolean", "object", "array", or alternatives "a|b"
  std::string unit;     // empty: none (a count, a name)
  // A closed enumeration of the core (its name table), or empty.
  std::vector<std::string> (*allowed)() = nullptr;
  // Preset keys a string may name (the presets' own list; an object is accepted too), or empty.
  std::vector<std::string> (*preset_keys)() = nullptr;
  Json default_value;   // null: none, or derived from other fields (`meaning` says how)
  std::string meaning;  // one line
  std::vector<std::string> commands;  // the commands that read it
  FieldNets nets = FieldNets::kAny;
  // The one command that uses the field, and a field without which it has no effect (empty: none);
  // a request breaking either is answered with a warning naming it. A transformer request is
  // warned of its own fields only (kTransformer: the serving fields); a field both kinds take is
  // warned of in CNN requests.
  std::string only_command;
  std::string needs;
  // Values a request may give a field whose strings take a parameter ("qsgd:4"), each one its
  // reader accepts; the page offers them as suggestions.
  std::vector<std::string> examples;
  // The members of an object field (training_scheme), each described as a field.
  std::vector<FieldSpec> members;
};

// How a command is answered: from the request document itself (it reads its own fields), or
// from the parsed request; `lists_warnings`: a CNN answer carries the request's `warnings`.
struct CommandSpec {
  std::string name;
  std::string meaning;  // one line
  Json (*handle_document)(const Json& request) = nullptr;
  Json (*handle_parsed)(const Request& r, std::vector<std::string>& warnings) = nullptr;
  bool any_net = false;         // answered the same whatever the net (version, presets)
  bool lists_warnings = false;  // a CNN answer lists the request's warnings
  // A transformer's answer (core/api/transformer_response.h); null: the command is a CNN's.
  Json (*handle_transformer)(const Request& r) = nullptr;
};

// In the order of docs/api.md; fields in reading order of their first command. The command table
// is a file of its own, core/api/command_table.cpp, so that a build may link fewer commands: the
// estimate-only module links core/api/estimate_only/command_table.cpp instead (docs/embed.md).
const std::vector<CommandSpec>& command_specs();
const std::vector<FieldSpec>& field_specs();

const CommandSpec* find_command(const std::string& name);
const FieldSpec* find_field_spec(const std::string& name);

// Whether `value` is one of the allowed values of the field `field` (false for a field with none).
bool is_allowed(const std::string& field, const std::string& value);
// The allowed values of `field` as an error lists them: "\"a\", \"b\" or \"c\"".
std::string allowed_alternatives(const std::string& field);

// "estimate, simulate, ..." for the unknown-command error.
std::string known_command_list();
// The commands that take a transformer net (a handle_transformer), as "a, b or c".
std::string transformer_command_list();

// The commands that read a field, as 'a', 'b' or 'c' (a warning's list).
std::string field_command_list(const FieldSpec& f);

// The `schema` command's answer: {"commands": [{name, meaning, fields}], "fields": {name: {...}}}.
Json schema_json();

// The values of a request's "collective": auto, each flat all-reduce, hierarchical.
std::vector<std::string> gradient_collective_names();

}  // namespace paleo
