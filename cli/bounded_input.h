#pragma once
// Every file and standard input the CLI reads (requests, specs, calibration files, device files):
// read up to the request limit plus one byte and no further (core/base/request_limits.h), so that
// /dev/zero, a huge file or an endless pipe stops at once with the limit's error instead of
// filling memory. Only a regular file or a pipe is read; a directory, a device or a socket is
// refused, naming the path.
#include <cstdio>
#include <string>

namespace paleo::cli {

// Throws std::invalid_argument naming the path unless it is a regular file or a pipe; returns a
// regular file's size in bytes (-1 for a pipe).
long long require_file_or_pipe(const std::string& path);

// The whole text of `path`. Throws std::invalid_argument naming the path: "no such file", not a
// regular file or a pipe, unreadable, or longer than kMaxRequestBytes.
std::string read_bounded_file(const std::string& path);

// The whole of standard input, bounded the same way (`what` names it in the errors).
std::string read_bounded_stdin(const std::string& what = "standard input");

// Up to kMaxRequestBytes of an open stream (a pipe from a child process); throws past it.
std::string read_bounded_stream(std::FILE* stream, const std::string& what);

// Whether `path` names an existing file system entry (of any kind).
bool path_exists(const std::string& path);

}  // namespace paleo::cli
