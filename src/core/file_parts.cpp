#include "file_parts.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "fd_io.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor {

std::vector<FilePart> split_at_lines(int fd, uint64_t size, std::size_t parts, uint64_t min_part) {
  parts = std::max<std::size_t>(1, std::min<uint64_t>(parts, min_part == 0 ? parts : size / min_part));
  std::vector<FilePart> out;
  uint64_t begin = 0;
  std::string window(64 * 1024, '\0');
  for (std::size_t i = 1; i < parts; ++i) {
    uint64_t cut = size / parts * i;
    if (cut <= begin) continue;
    // The first newline at or after the nominal cut ends this part.
    bool found = false;
    while (cut < size && !found) {
      const std::size_t got = read_at(fd, window.data(), window.size(), cut);
      if (got == 0) break;
      if (const void* nl = std::memchr(window.data(), '\n', got)) {
        cut += static_cast<uint64_t>(static_cast<const char*>(nl) - window.data()) + 1;
        found = true;
      } else {
        cut += got;
      }
    }
    if (!found || cut >= size) break;
    out.push_back({begin, cut});
    begin = cut;
  }
  out.push_back({begin, size});
  return out;
}

std::shared_ptr<const SplitFile> SplitFile::open(const InputItem& item, unsigned jobs, uint64_t min_part) {
  if (item.is_stdin || jobs < 2 || min_part == 0) return nullptr;
  const int fd = ::open(item.display.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // a FIFO must not block
  if (fd < 0) return nullptr;  // visit_streams() reports why
  auto file = std::make_shared<SplitFile>();
  file->fd = fd;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  file->size = static_cast<uint64_t>(st.st_size);
  if (file->size < 2 * min_part) return nullptr;
  std::string head(64 * 1024, '\0');
  head.resize(read_at(fd, head.data(), head.size(), 0));
  if (looks_like_archive(head) || looks_binary(head)) return nullptr;
  file->parts = split_at_lines(fd, file->size, jobs, min_part);
  if (file->parts.size() < 2) return nullptr;
  file->mapping = MappedFile::map_if_large(fd, file->size);
  return file;
}

SplitFile::~SplitFile() {
  if (fd >= 0) ::close(fd);
}

long FileRangeStream::read(char* buf, std::size_t n) {
  if (pos_ >= end_) return 0;
  n = static_cast<std::size_t>(std::min<uint64_t>(n, end_ - pos_));
  for (;;) {
    const ssize_t r = ::pread(fd_, buf, n, static_cast<off_t>(pos_));
    if (r >= 0) {
      pos_ += static_cast<uint64_t>(r);
      if (r == 0) pos_ = end_;  // the file shrank: what is gone is gone
      return static_cast<long>(r);
    }
    if (errno == EINTR) continue;
    error_ = std::strerror(errno);
    return -1;
  }
}

std::optional<MappedSpan> FileRangeStream::take_mapped() {
  if (!mapping_) return std::nullopt;
  const uint64_t mapped = mapping_->bytes().size();
  const bool to_file_end = end_ == kToFileEnd;
  const uint64_t end = to_file_end ? mapped : end_;
  if (pos_ >= end || end > mapped) return std::nullopt;
  MappedSpan span{mapping_, pos_, end, to_file_end};
  pos_ = end;
  return span;
}

std::deque<ContextLine> lines_before(int fd, uint64_t offset, std::size_t n, uint64_t last_line, std::size_t max_text) {
  std::deque<ContextLine> out;
  if (offset == 0 || n == 0) return out;
  const uint64_t from = offset > 64 * 1024 ? offset - 64 * 1024 : 0;
  std::string buf(static_cast<std::size_t>(offset - from), '\0');
  buf.resize(read_at(fd, buf.data(), buf.size(), from));
  // buf ends with the newline of the line numbered last_line.
  std::size_t end = buf.size();
  if (end > 0 && buf[end - 1] == '\n') --end;
  uint64_t number = last_line;
  while (out.size() < n) {
    const auto nl = end == 0 ? std::string::npos : buf.rfind('\n', end - 1);
    const std::size_t begin = nl == std::string::npos ? 0 : nl + 1;
    if (nl == std::string::npos && from > 0) break;  // the line starts before the window: leave it out
    const std::string_view raw(buf.data() + begin, end - begin);  // as the scanner's own context
    out.push_front({number--, std::string(utf8_prefix(sanitize_line(raw), max_text))});
    if (begin == 0) break;
    end = begin - 1;
  }
  return out;
}

}  // namespace npu_doctor
