#pragma once
// Sources: every input becomes one or more named byte streams. Plain files, stdin,
// FIFOs, directory trees (recursive), compressed files and archives read in place
// with libarchive (gzip, bzip2, xz, zstd, lz4; tar, zip, 7z, cpio), one level of
// nesting (a .gz inside a .tar). Nothing downstream knows which.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mapped_file.hpp"
#include "npu_doctor/input_report.hpp"
#include "npu_doctor/record_spool.hpp"

namespace npu_doctor {

class ByteStream {
 public:
  virtual ~ByteStream() = default;
  // Reads up to n bytes; 0 at the end; -1 on error (see error()).
  virtual long read(char* buf, std::size_t n) = 0;
  virtual std::string error() const { return {}; }
  // A stream whose next bytes lie in a read-only file mapping (mapped_file.hpp) hands them
  // over once, so the scanner takes views instead of copies; read() goes on after them.
  virtual std::optional<MappedSpan> take_mapped() { return std::nullopt; }
};

struct InputItem {
  // The path as the user gave it (or found under a directory), which is also what is
  // opened; "<stdin>" for stdin. One string per input: 100,000 inputs are held at once.
  std::string display;
  bool is_stdin = false;
};

// The inputs found, in order, as packed records (a RecordSpool): 1,000,000 paths cost 8
// bytes each in memory, the rest in a temporary file past 1 MiB. `items[i]` and iteration
// give copies.
class InputItems {
 public:
  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  void push_back(const InputItem& item);
  InputItem operator[](std::size_t i) const;

  using const_iterator = CopyingIterator<InputItems, InputItem>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  RecordSpool records_;  // '1' for stdin or '0', then the path
};

struct Enumeration {
  InputItems items;
  std::vector<InputReport> problems;  // paths that do not exist, unreadable directories...
};

// Whether the first bytes of a stream are a compressed file or an archive that
// visit_streams() opens with libarchive (gzip, bzip2, xz, zstd, lz4, zip, 7z, tar).
bool looks_like_archive(std::string_view head);

// Expands the command-line paths: directories recursively (in the order of their full
// paths, symlinked directories not followed, so loops are impossible), "-" as stdin.
Enumeration enumerate_inputs(const std::vector<std::string>& paths);

// Calls `visit` for each text stream of `item` (one for a file, one per member of an
// archive). `visit` fills the report's bytes/lines/status; visit_streams appends every
// report, including those of streams that could not be opened, to `reports`.
using StreamVisitor = std::function<void(ByteStream& stream, InputReport& report)>;
void visit_streams(const InputItem& item, const StreamVisitor& visit, std::vector<InputReport>& reports);

}  // namespace npu_doctor
