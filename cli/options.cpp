#include "cli/options.h"

#include <algorithm>
#include <stdexcept>

namespace paleo::cli {

std::string Arguments::get(const std::string& name, const std::string& fallback) const {
  auto it = options.find(name);
  return it == options.end() ? fallback : it->second;
}

Arguments parse_arguments(int argc, char** argv, const std::vector<std::string>& flags,
                          const std::vector<std::string>& valued) {
  Arguments args;
  if (argc >= 2) args.command = argv[1];
  auto contains = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) {
      args.positional.push_back(a);
      continue;
    }
    std::string name = a.substr(2), value;
    const std::size_t eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    if (contains(flags, name)) {
      if (eq != std::string::npos) throw std::invalid_argument("option --" + name + " takes no value");
      args.options[name] = "";
    } else if (contains(valued, name)) {
      if (eq == std::string::npos) {
        if (i + 1 >= argc) throw std::invalid_argument("option --" + name + " needs a value");
        value = argv[++i];
      }
      args.options[name] = value;
    } else {
      throw std::invalid_argument("unknown option --" + name + " for '" + args.command + "'");
    }
  }
  return args;
}

}  // namespace paleo::cli
