#pragma once
// Runs the built `paleo` CLI (PALEO_CLI_PATH) through std::system with standard output and
// error captured in temporary files.
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__unix__) || defined(__APPLE__)
#include <sys/wait.h>
#include <unistd.h>
#endif

namespace paleo_test {

struct CliResult {
  int exit_code = -1;
  std::string out, err;
};

// A fresh path in the system's temporary directory.
inline std::filesystem::path temp_path(const std::string& stem, const std::string& extension) {
  static std::atomic<int> counter{0};
  long pid = 0;
#if defined(__unix__) || defined(__APPLE__)
  pid = static_cast<long>(::getpid());
#endif
  return std::filesystem::temp_directory_path() /
         ("paleo_test_" + std::to_string(pid) + "_" + std::to_string(counter++) + "_" + stem + extension);
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::filesystem::path write_temp_file(const std::string& stem, const std::string& extension,
                                             const std::string& content) {
  const std::filesystem::path path = temp_path(stem, extension);
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

inline std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// `arguments` are appended to the CLI path as they are (quote paths with quoted()).
inline CliResult run_cli(const std::string& arguments) {
  const std::filesystem::path out = temp_path("stdout", ".txt"), err = temp_path("stderr", ".txt");
  const std::string command =
      quoted(PALEO_CLI_PATH) + " " + arguments + " > " + quoted(out.string()) + " 2> " + quoted(err.string());
  const int status = std::system(command.c_str());
  CliResult r;
#if defined(__unix__) || defined(__APPLE__)
  r.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
#else
  r.exit_code = status;
#endif
  r.out = read_text(out);
  r.err = read_text(err);
  std::error_code ignored;
  std::filesystem::remove(out, ignored);
  std::filesystem::remove(err, ignored);
  return r;
}

}  // namespace paleo_test
