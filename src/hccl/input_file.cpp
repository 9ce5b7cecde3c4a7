#include "input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/line_assembler.hpp"

namespace npu_doctor::hccl {
namespace {

// Reads the whole input in blocks, handing each to `take`; fails when more than max_bytes
// arrive (a FIFO or stdin has no size to check first) or a read fails.
template <typename Take>
bool read_blocks(int fd, std::size_t max_bytes, std::string& error, Take&& take) {
  char buf[65536];
  std::size_t total = 0;
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return false;
    }
    if (r == 0) return true;
    total += static_cast<std::size_t>(r);
    if (total > max_bytes) {
      error = "larger than " + human_bytes(max_bytes) + " (not an input this command reads)";
      return false;
    }
    take(std::string_view(buf, static_cast<std::size_t>(r)));
  }
}

// Opens `path` ("-" = stdin) for reading when it is a regular file of at most max_bytes
// or a FIFO; -1 with the reason in plain words otherwise.
int open_input(const std::string& path, std::size_t max_bytes, std::string& error) {
  if (path == "-") return STDIN_FILENO;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    error = errno == ENOENT ? "no such file" : std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    error = std::strerror(errno);
  } else if (S_ISDIR(st.st_mode)) {
    error = "is a directory";
  } else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    error = "not a regular file";
  } else if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > max_bytes) {
    error = "larger than " + human_bytes(max_bytes) + " (not an input this command reads)";
  } else {
    // Back to blocking reads (O_NONBLOCK only kept open() from waiting on a FIFO).
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    return fd;
  }
  ::close(fd);
  return -1;
}

void close_input(int fd) {
  if (fd != STDIN_FILENO) ::close(fd);
}

}  // namespace

std::string human_bytes(std::size_t bytes) {
  if (bytes >= (1u << 30) && bytes % (1u << 30) == 0) return std::to_string(bytes >> 30) + " GiB";
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

InputText read_input(const std::string& path, std::size_t max_bytes) {
  InputText in;
  in.path = path;
  const int fd = open_input(path, max_bytes, in.error);
  if (fd < 0) return in;
  if (!read_blocks(fd, max_bytes, in.error, [&](std::string_view block) { in.text.append(block); })) in.text.clear();
  close_input(fd);
  return in;
}

bool read_input_lines(const std::string& path, std::size_t max_bytes, std::size_t max_line,
                      const std::function<void(std::string_view)>& on_line, std::string& error) {
  const int fd = open_input(path, max_bytes, error);
  if (fd < 0) return false;
  LineAssembler lines(max_line + 1);  // one byte more than max_line: the parser sees it was cut
  const bool ok = read_blocks(fd, max_bytes, error, [&](std::string_view block) { lines.feed(block, on_line); });
  if (ok) lines.finish(on_line);
  close_input(fd);
  return ok;
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& paths, std::vector<std::string>& errors) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    std::error_code ec;
    if (p != "-" && std::filesystem::is_directory(p, ec)) {
      std::vector<std::string> files;
      for (std::filesystem::directory_iterator it(p, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.front() == '.') continue;
        std::error_code fec;
        if (it->is_regular_file(fec)) files.push_back(it->path().string());
      }
      if (ec) {
        errors.push_back(p + ": cannot list the directory: " + ec.message());
        continue;
      }
      if (files.empty()) {
        errors.push_back(p + ": no files in this directory");
        continue;
      }
      std::sort(files.begin(), files.end());
      out.insert(out.end(), files.begin(), files.end());
    } else {
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace npu_doctor::hccl
