#pragma once
// A large regular file scanned in place from a read-only mapping (docs/scanning.md, "Mapped
// input"): the scanner takes views of the mapped bytes instead of copying each block out of
// the page cache. The pages behind the scan are given back, so memory stays one block
// whatever the file's size, and the window ahead is advised, so the kernel reads it early.
//
// A file truncated while it is mapped would raise SIGBUS on the pages past its new end: a
// process-wide handler replaces those pages of a registered mapping with zeros and marks the
// mapping `shrank`; the input is then reported as partial (the bytes a read() would no longer
// have returned). Any other SIGBUS goes to the previous disposition.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace npu_doctor {

// Files at least this large are mapped (1 MiB, bench/README.md "Mapped input"); the
// environment's NPU_DOCTOR_MAP_MIN (bytes; `off` never maps) replaces it, and so do tests.
uint64_t map_threshold();
void set_map_threshold(uint64_t bytes);  // UINT64_MAX: never map

class MappedFile {
 public:
  // [0, size) of an open regular file, or null when it cannot be mapped (the caller reads it).
  // `fd` must stay open while the mapping lives (its size is asked again by grew()).
  static std::shared_ptr<MappedFile> map(int fd, uint64_t size);
  // The same for a file of at least map_threshold() bytes; null (read it) for a smaller one.
  static std::shared_ptr<MappedFile> map_if_large(int fd, uint64_t size);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view bytes() const { return {data_, size_}; }
  // The kernel may read [offset, offset + n) ahead of the scan.
  void will_need(uint64_t offset, std::size_t n) const;
  // The scan is done with [offset, offset + n): its whole pages are given back.
  void done_with(uint64_t offset, std::size_t n) const;
  // Makes the pages of [offset, offset + n) present at once: one call instead of a page
  // fault every 16 pages (Linux 5.14; elsewhere the faults happen as the scan touches them).
  void populate(uint64_t offset, std::size_t n) const;
  // The file shrank under the mapping: some bytes read were zeros, not the file's.
  bool shrank() const;
  // The file is now longer than the mapping (a log still being written).
  bool grew() const;

 private:
  MappedFile(int fd, const char* data, std::size_t size, int slot) : fd_(fd), data_(data), size_(size), slot_(slot) {}
  // madvise(advice) over the whole pages holding [offset, offset + n), cut to the mapping.
  void advise(uint64_t offset, std::size_t n, int advice) const;
  int fd_;
  const char* data_;
  std::size_t size_;
  int slot_;  // in the SIGBUS guard's table (a file is not mapped when the table is full)
};

// The bytes of a stream that lie mapped (ByteStream::take_mapped): a range of one mapping.
struct MappedSpan {
  std::shared_ptr<MappedFile> file;
  uint64_t begin = 0;  // offset of the stream's next byte in the file
  uint64_t end = 0;
  bool to_end_of_file = false;  // the stream goes on past the mapping if the file grew
  std::string_view bytes() const { return file->bytes().substr(begin, end - begin); }
};

}  // namespace npu_doctor
