#pragma once
// One large file shared among threads: cut at line ends into parts that are scanned in
// parallel and merged back in order (Diagnoser), so `-j` helps a single 10 GB log too.
// Each part is read with pread, so the parts need no shared file position.
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "input_source.hpp"
#include "npu_doctor/finding.hpp"

namespace npu_doctor {

struct FilePart {
  uint64_t begin = 0;
  uint64_t end = 0;
};

// Cuts [0, size) of an open file into at most `parts` pieces of at least `min_part` bytes,
// each but the last ending just after a newline. One piece when the file is too small or
// has no newline where a cut would go.
std::vector<FilePart> split_at_lines(int fd, uint64_t size, std::size_t parts, uint64_t min_part);

// A large plain file opened for splitting: at least two parts of at least `min_part` bytes,
// never a compressed file, an archive or binary data (those are read as a whole).
struct SplitFile {
  int fd = -1;
  uint64_t size = 0;
  std::vector<FilePart> parts;
  std::shared_ptr<MappedFile> mapping;  // the whole file, when it could be mapped (mapped_file.hpp)

  static std::shared_ptr<const SplitFile> open(const InputItem& item, unsigned jobs, uint64_t min_part);
  SplitFile() = default;
  SplitFile(const SplitFile&) = delete;
  SplitFile& operator=(const SplitFile&) = delete;
  ~SplitFile();
};

// [begin, end) of an open file as a stream; `end` kToFileEnd reads to the file's end, however
// far it has grown. With a mapping of the file, the range's mapped bytes are handed to the
// scanner as views (take_mapped) and read() goes on after them.
class FileRangeStream final : public ByteStream {
 public:
  static constexpr uint64_t kToFileEnd = UINT64_MAX;
  FileRangeStream(int fd, uint64_t begin, uint64_t end, std::shared_ptr<MappedFile> mapping = nullptr)
      : fd_(fd), pos_(begin), end_(end), mapping_(std::move(mapping)) {}
  long read(char* buf, std::size_t n) override;
  std::string error() const override { return error_; }
  std::optional<MappedSpan> take_mapped() override;

 private:
  int fd_;
  uint64_t pos_;
  uint64_t end_;
  std::shared_ptr<MappedFile> mapping_;
  std::string error_;
};

// The last `n` lines that end at or before `offset` (which is a line start), the last one
// numbered `last_line`, each shortened to `max_text` bytes as the scanner shows context.
std::deque<ContextLine> lines_before(int fd, uint64_t offset, std::size_t n, uint64_t last_line, std::size_t max_text);

}  // namespace npu_doctor
