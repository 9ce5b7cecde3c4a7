#include "npu_doctor/record_spool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "fd_io.hpp"
#include "npu_doctor/text.hpp"
#include "snapshot_io.hpp"
#include "temp_files.hpp"

namespace npu_doctor {

namespace {

// Records are read back from the file a window at a time: reading in order reads each
// 64 KiB window once; a read elsewhere (a record rewritten at the end, an index lookup)
// reads 4 KiB, so that jumping between two places does not copy 64 KiB a record.
constexpr std::size_t kSequentialWindow = std::size_t{64} << 10;
constexpr std::size_t kRandomWindow = std::size_t{4} << 10;

std::size_t budget_from_environment(std::size_t fallback) {
  const char* v = std::getenv("NPU_DOCTOR_INPUT_MEMORY");
  return v != nullptr ? parse_number<std::size_t>(v).value_or(fallback) : fallback;
}

}  // namespace

// Offsets are into one logical byte sequence: [0, in_file) in the file, the rest in `tail`.
// A record is written as the snapshot's strings are (snapshot_io: a 4-byte length, the bytes).
// The offset index spills too: each full block of `index_block` offsets is written to the
// file as raw 8-byte words (after the records before it), so memory holds one block of
// offsets and one of records whatever the count.
struct RecordSpool::Impl {
  // File bytes kept from the last read, read again through read_at when a look-up falls
  // outside them.
  struct ReadWindow {
    std::string bytes;  // file bytes [at, at + bytes.size())
    uint64_t at = 0;

    // Up to `n` bytes at `pos` of a file of `size` bytes (fewer past its end, none when the
    // read fails).
    std::string_view get(int file, uint64_t pos, std::size_t n, uint64_t size) {
      if (pos < at || pos + n > at + bytes.size()) {
        const bool onward = pos >= at && pos <= at + bytes.size();  // the next records in order
        const std::size_t span = onward ? kSequentialWindow : kRandomWindow;
        const std::size_t want = static_cast<std::size_t>(std::min<uint64_t>(std::max(n, span), size - pos));
        bytes.resize(want);
        if (read_at(file, bytes.data(), want, pos) != want) {
          clear();
          return {};
        }
        at = pos;
      }
      return std::string_view(bytes).substr(static_cast<std::size_t>(pos - at), n);
    }

    // `written` was just written at `pos`: a copy of those bytes here stays true.
    void overwrite(uint64_t pos, std::string_view written) {
      if (pos >= at && pos + written.size() <= at + bytes.size()) {
        bytes.replace(static_cast<std::size_t>(pos - at), written.size(), written);
      }
    }

    void clear() {
      bytes.clear();
      at = 0;
    }
  };

  explicit Impl(std::size_t memory_budget)
      : budget(memory_budget), index_block(std::max<std::size_t>(memory_budget / sizeof(uint64_t), 512)) {}
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (fd >= 0) ::close(fd);
  }

  mutable std::mutex mu;
  std::size_t budget;
  std::size_t index_block;             // offsets per spilled block of the index
  std::vector<uint64_t> index_blocks;  // where each spilled block of offsets is
  std::vector<uint64_t> where_tail;    // offsets of records index_blocks.size() * index_block on
  std::string tail;                    // the records after in_file, in memory
  int fd = -1;
  bool file_failed = false;            // keep everything in memory from now on
  uint64_t in_file = 0;
  mutable ReadWindow records;          // reading records
  mutable ReadWindow offsets;          // reading spilled offsets, apart so as not to evict the records

  std::size_t in_blocks() const { return index_blocks.size() * index_block; }
  std::size_t count() const { return in_blocks() + where_tail.size(); }

  uint64_t append(std::string_view record) {
    const uint64_t at = in_file + tail.size();
    // Room for the budget at once (pages not written are not resident), so that growing
    // to it does not copy it by doubling.
    if (tail.empty() && tail.capacity() < budget + 4 + record.size()) tail.reserve(budget + 4 + record.size());
    snapshot_io::Writer w;
    w.str(record);
    tail += w.take();
    if (tail.size() > budget) spill();
    return at;
  }

  void spill() {
    if (file_failed) return;
    if (fd < 0) fd = open_unlinked_temporary("npu-doctor-spool-");
    if (fd < 0 || !write_at(fd, tail, in_file)) {
      file_failed = true;
      return;
    }
    in_file += tail.size();
    tail.clear();
    if (tail.capacity() > 2 * budget + (std::size_t{64} << 10)) std::string().swap(tail);  // after a huge record
  }

  void add_offset(uint64_t at) {
    where_tail.push_back(at);
    if (where_tail.size() < index_block || file_failed) return;
    spill();  // the records first: the file stays one sequence
    if (file_failed) return;
    snapshot_io::Writer w;
    for (uint64_t o : where_tail) w.i64(static_cast<int64_t>(o));
    if (!write_at(fd, w.take(), in_file)) {
      file_failed = true;
      return;
    }
    index_blocks.push_back(in_file);
    in_file += where_tail.size() * sizeof(uint64_t);
    where_tail.clear();
  }

  // Where the i-th spilled offset lies in the file.
  uint64_t offset_position(std::size_t i) const {
    return index_blocks[i / index_block] + (i % index_block) * sizeof(uint64_t);
  }

  uint64_t offset(std::size_t i) const {
    if (i >= in_blocks()) return where_tail[i - in_blocks()];
    const std::string_view word = offsets.get(fd, offset_position(i), sizeof(uint64_t), in_file);
    if (word.size() < sizeof(uint64_t)) throw std::runtime_error("the spool's temporary file cannot be read back: " + std::string(std::strerror(errno)));
    return static_cast<uint64_t>(snapshot_io::Reader(word).i64());
  }

  void set_offset(std::size_t i, uint64_t value) {
    if (i >= in_blocks()) {
      where_tail[i - in_blocks()] = value;
      return;
    }
    const uint64_t at = offset_position(i);
    snapshot_io::Writer w;
    w.i64(static_cast<int64_t>(value));
    const std::string bytes = w.take();
    if (!write_at(fd, bytes, at)) throw std::runtime_error("the spool's temporary file cannot be written: " + std::string(std::strerror(errno)));
    offsets.overwrite(at, bytes);
  }

  // `n` bytes at logical offset `at`: from the tail in memory, else through the read window.
  std::string_view bytes(uint64_t at, std::size_t n) const {
    if (at >= in_file) return std::string_view(tail).substr(static_cast<std::size_t>(at - in_file), n);
    return records.get(fd, at, n, in_file);
  }

  std::string read(std::size_t i) const {
    if (i >= count()) throw std::out_of_range("record " + std::to_string(i) + " of " + std::to_string(count()));
    const uint64_t at = offset(i);
    const std::string_view head = bytes(at, 4);
    if (head.size() < 4) throw std::runtime_error("the spool's temporary file cannot be read back: " + std::string(std::strerror(errno)));
    const uint32_t n = snapshot_io::Reader(head).u32();
    const std::string_view body = bytes(at + 4, n);
    if (body.size() < n) throw std::runtime_error("the spool's temporary file cannot be read back: " + std::string(std::strerror(errno)));
    return std::string(body);
  }
};

RecordSpool::RecordSpool() : RecordSpool(budget_from_environment(kDefaultMemoryBudget)) {}
RecordSpool::RecordSpool(std::size_t memory_budget) : impl_(std::make_unique<Impl>(memory_budget)) {}
RecordSpool::RecordSpool(const RecordSpool& other)
    : RecordSpool(other.impl_ ? other.impl_->budget : budget_from_environment(kDefaultMemoryBudget)) {
  *this = other;
}
RecordSpool::RecordSpool(RecordSpool&& other) noexcept = default;
RecordSpool& RecordSpool::operator=(RecordSpool&& other) noexcept = default;
RecordSpool::~RecordSpool() = default;

RecordSpool& RecordSpool::operator=(const RecordSpool& other) {
  if (this == &other) return *this;
  clear();
  const std::size_t n = other.size();
  reserve(n);
  for (std::size_t i = 0; i < n; ++i) push_back(other[i]);
  return *this;
}

RecordSpool::Impl& RecordSpool::impl() {
  if (!impl_) impl_ = std::make_unique<Impl>(budget_from_environment(kDefaultMemoryBudget));
  return *impl_;
}

std::size_t RecordSpool::size() const {
  if (!impl_) return 0;
  std::lock_guard lock(impl_->mu);
  return impl_->count();
}

void RecordSpool::reserve(std::size_t n) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  s.where_tail.reserve(std::min(n, s.index_block));
}

void RecordSpool::clear() {
  if (!impl_) return;
  Impl& s = *impl_;
  std::lock_guard lock(s.mu);
  s.where_tail.clear();  // its room stays: a reader that reserved it fills it again
  s.index_blocks.clear();
  s.tail.clear();
  if (s.fd >= 0) ::close(s.fd);
  s.fd = -1;
  s.file_failed = false;
  s.in_file = 0;
  s.records.clear();
  s.offsets.clear();
}

void RecordSpool::push_back(std::string_view record) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  s.add_offset(s.append(record));
}

std::string RecordSpool::operator[](std::size_t i) const {
  if (!impl_) throw std::out_of_range("record " + std::to_string(i) + " of 0");
  std::lock_guard lock(impl_->mu);
  return impl_->read(i);
}

void RecordSpool::replace(std::size_t i, std::string_view record) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  if (i >= s.count()) throw std::out_of_range("record " + std::to_string(i) + " of " + std::to_string(s.count()));
  s.set_offset(i, s.append(record));
}

bool RecordSpool::spilled() const {
  if (!impl_) return false;
  std::lock_guard lock(impl_->mu);
  return impl_->in_file > 0;
}

std::size_t RecordSpool::memory_bytes() const {
  if (!impl_) return 0;
  std::lock_guard lock(impl_->mu);
  return impl_->tail.size() + impl_->where_tail.size() * sizeof(uint64_t);
}

}  // namespace npu_doctor
