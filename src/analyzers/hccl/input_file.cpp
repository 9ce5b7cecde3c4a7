#include "analyzers/hccl/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

namespace npu_doctor::hccl {
namespace {

// Reads up to max_bytes + 1 bytes so that "too large" can be told apart from "exactly at the cap".
std::string read_fd(int fd, std::size_t max_bytes, std::string& error) {
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR) continue;
      error = std::strerror(errno);
      return {};
    }
    if (r == 0) break;
    out.append(buf, static_cast<std::size_t>(r));
    if (out.size() > max_bytes) {
      error = "larger than " + human_bytes(max_bytes) + " (not an input this command reads)";
      return {};
    }
  }
  return out;
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
  if (path == "-") {
    in.text = read_fd(STDIN_FILENO, max_bytes, in.error);
    return in;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    in.error = errno == ENOENT ? "no such file" : std::strerror(errno);
    return in;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    in.error = std::strerror(errno);
  } else if (S_ISDIR(st.st_mode)) {
    in.error = "is a directory";
  } else if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode)) {
    in.error = "not a regular file";
  } else if (S_ISREG(st.st_mode) && static_cast<std::size_t>(st.st_size) > max_bytes) {
    in.error = "larger than " + human_bytes(max_bytes) + " (not an input this command reads)";
  } else {
    // Back to blocking reads (O_NONBLOCK only kept open() from waiting on a FIFO).
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    in.text = read_fd(fd, max_bytes, in.error);
  }
  ::close(fd);
  return in;
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
