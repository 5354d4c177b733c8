#pragma once
// The protocol-buffer text format (a Caffe prototxt) read into a tree of fields, without a schema:
// `name: value`, `name { ... }` (also `name: { ... }` and `< ... >`), `name: [a, b]`, quoted
// strings, `#` comments, optional `,` / `;` separators.
#include <string>
#include <vector>

namespace paleo {

struct TextField;

struct TextMessage {
  std::vector<TextField> fields;  // in the order of the text

  const TextField* first(const std::string& name) const;
  std::vector<const TextField*> all(const std::string& name) const;
  bool has(const std::string& name) const { return first(name) != nullptr; }
};

struct TextField {
  std::string name;
  int line = 0;
  bool is_message = false;
  bool quoted = false;  // the scalar was a quoted string
  std::string scalar;   // a number, an enum identifier or the string's text
  TextMessage message;
};

// Throws paleo::Error naming `field` and the line on malformed text or nesting deeper than
// kMaxNestingDepth.
TextMessage parse_prototxt(const std::string& text, const std::string& field);

}  // namespace paleo
