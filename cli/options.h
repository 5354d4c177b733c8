#pragma once
// Command-line parsing: the original's `--name=value` / `--name value` options and flags.
#include <map>
#include <string>
#include <vector>

namespace paleo::cli {

struct Arguments {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // name without dashes -> value ("" for flags)

  bool has(const std::string& name) const { return options.count(name) > 0; }
  std::string get(const std::string& name, const std::string& fallback) const;
};

// Throws std::invalid_argument for an option this command does not take.
Arguments parse_arguments(int argc, char** argv, const std::vector<std::string>& flags,
                          const std::vector<std::string>& valued);

}  // namespace paleo::cli
