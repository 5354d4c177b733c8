#include "core/import/prototxt_text.h"

#include <cctype>

#include "core/base/error.h"
#include "core/base/request_limits.h"

namespace paleo {

const TextField* TextMessage::first(const std::string& name) const {
  for (const TextField& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

std::vector<const TextField*> TextMessage::all(const std::string& name) const {
  std::vector<const TextField*> out;
  for (const TextField& f : fields)
    if (f.name == name) out.push_back(&f);
  return out;
}

namespace {

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
bool is_bare_char(char c) { return is_name_char(c) || c == '.' || c == '+' || c == '-'; }

class Reader {
 public:
  Reader(const std::string& text, const std::string& field) : text_(text), field_(field) {}

  TextMessage document() {
    TextMessage m = fields_until('\0', 0);
    return m;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw Error("line " + std::to_string(line_) + ": " + what, "", field_);
  }

  void skip_space() {
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else {
        return;
      }
    }
  }

  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }

  // Fields up to `close` ('}' or '>', or '\0' for the end of the text), which is consumed.
  TextMessage fields_until(char close, int depth) {
    if (depth >= kMaxNestingDepth) fail("messages nested more than " + std::to_string(kMaxNestingDepth) + " deep");
    TextMessage m;
    for (;;) {
      const char c = peek();
      if (c == close) {
        if (c != '\0') ++pos_;
        return m;
      }
      if (c == '\0') fail(std::string("missing '") + close + "' at the end of the text");
      if (!is_name_char(c)) fail(std::string("expected a field name, found '") + c + "'");
      read_field(m, depth);
      const char sep = peek();
      if (sep == ',' || sep == ';') ++pos_;
    }
  }

  std::string name() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_name_char(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  void read_field(TextMessage& m, int depth) {
    TextField f;
    f.line = line_;
    f.name = name();
    bool colon = false;
    if (peek() == ':') {
      ++pos_;
      colon = true;
    }
    const char c = peek();
    if (c == '{' || c == '<') {
      ++pos_;
      f.is_message = true;
      f.message = fields_until(c == '{' ? '}' : '>', depth + 1);
      m.fields.push_back(std::move(f));
      return;
    }
    if (!colon) fail("field '" + f.name + "': expected ':' or '{'");
    if (c == '[') {  // a repeated field's short form: one entry per element
      ++pos_;
      if (peek() == ']') {
        ++pos_;
        return;
      }
      for (;;) {
        TextField item = f;
        if (peek() == '{' || peek() == '<') {
          const char open = text_[pos_++];
          item.is_message = true;
          item.message = fields_until(open == '{' ? '}' : '>', depth + 1);
        } else {
          read_scalar(item);
        }
        m.fields.push_back(std::move(item));
        const char next = peek();
        if (next == ']') {
          ++pos_;
          return;
        }
        if (next != ',') fail("field '" + f.name + "': expected ',' or ']' in a list");
        ++pos_;
      }
    }
    read_scalar(f);
    m.fields.push_back(std::move(f));
  }

  void read_scalar(TextField& f) {
    const char c = peek();
    if (c == '"' || c == '\'') {
      f.quoted = true;
      while (peek() == '"' || peek() == '\'') f.scalar += quoted_string();  // "a" "b" is "ab"
      return;
    }
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_bare_char(text_[pos_])) ++pos_;
    if (pos_ == start) fail("field '" + f.name + "': expected a value");
    f.scalar = text_.substr(start, pos_ - start);
  }

  std::string quoted_string() {
    const char quote = text_[pos_++];
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_++];
      if (c == '\n') fail("a string runs past the end of its line");
      if (c == '\\' && pos_ < text_.size()) {
        const char e = text_[pos_++];
        c = e == 'n' ? '\n' : e == 't' ? '\t' : e;
      }
      out += c;
    }
    if (pos_ >= text_.size()) fail("a string is not closed");
    ++pos_;
    return out;
  }

  const std::string& text_;
  const std::string& field_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

}  // namespace

TextMessage parse_prototxt(const std::string& text, const std::string& field) {
  if (text.size() > kMaxRequestBytes)
    throw Error("is " + std::to_string(text.size()) + " bytes; the limit is " + std::to_string(kMaxRequestBytes), "", field);
  return Reader(text, field).document();
}

}  // namespace paleo
