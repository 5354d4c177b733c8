#include "cli/bounded_input.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "core/base/request_limits.h"

namespace paleo::cli {
namespace {

std::string too_long(const std::string& what) {
  return what + ": is longer than the limit of " + std::to_string(paleo::kMaxRequestBytes) +
         " bytes (docs/api.md); reading stopped there";
}

// What a file system entry is, in words, for the refusal.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

bool path_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

std::string read_bounded_stream(std::FILE* stream, const std::string& what) {
  std::string text;
  char buffer[65536];
  // One byte past the limit tells "at the limit" from "over it" without reading further.
  while (text.size() <= paleo::kMaxRequestBytes) {
    const std::size_t want = std::min(sizeof buffer, paleo::kMaxRequestBytes + 1 - text.size());
    const std::size_t n = std::fread(buffer, 1, want, stream);
    text.append(buffer, n);
    if (n < want) break;
  }
  if (std::ferror(stream)) throw std::invalid_argument(what + ": cannot read (" + std::strerror(errno) + ")");
  if (text.size() > paleo::kMaxRequestBytes) throw std::invalid_argument(too_long(what));
  return text;
}

long long require_file_or_pipe(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw std::invalid_argument(path + ": no such file");
    throw std::invalid_argument(path + ": cannot read (" + std::strerror(errno) + ")");
  }
  if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
    throw std::invalid_argument(path + ": is " + kind_of(st.st_mode) + "; give a regular file or a pipe");
  return S_ISREG(st.st_mode) ? static_cast<long long>(st.st_size) : -1;
}

std::string read_bounded_file(const std::string& path) {
  // A regular file's size says at once when it is too long (it may still grow while read).
  if (require_file_or_pipe(path) > static_cast<long long>(paleo::kMaxRequestBytes))
    throw std::invalid_argument(too_long(path));
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) throw std::invalid_argument(path + ": cannot read (" + std::strerror(errno) + ")");
  try {
    std::string text = read_bounded_stream(file, path);
    std::fclose(file);
    return text;
  } catch (...) {
    std::fclose(file);
    throw;
  }
}

std::string read_bounded_stdin(const std::string& what) { return read_bounded_stream(stdin, what); }

}  // namespace paleo::cli
