#pragma once
// base/: an enum's request names in one table, read (parse_enum) and written (enum_name) from it,
// so a name and its value are listed once.
#include <cstddef>
#include <string>

#include "core/base/error.h"

namespace paleo {

template <class E>
struct EnumName {
  E value;
  const char* name;
};

// The value named `text`; else paleo::Error "unknown WHAT 'text' (name, name, ...)" naming `field`.
template <class E, std::size_t N>
E parse_enum(const EnumName<E> (&table)[N], const std::string& text, const char* what, const std::string& field) {
  std::string known;
  for (const EnumName<E>& e : table) {
    if (text == e.name) return e.value;
    known += (known.empty() ? "" : ", ") + std::string(e.name);
  }
  throw Error("unknown " + std::string(what) + " '" + text + "' (" + known + ")", "", field);
}

// The name of `value` (the table's first name for a value it does not list).
template <class E, std::size_t N>
const char* enum_name(const EnumName<E> (&table)[N], E value) {
  for (const EnumName<E>& e : table)
    if (e.value == value) return e.name;
  return table[0].name;
}

}  // namespace paleo
