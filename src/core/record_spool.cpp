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
struct RecordSpool::Impl {
  explicit Impl(std::size_t memory_budget) : budget(memory_budget) {}
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;
  ~Impl() {
    if (fd >= 0) ::close(fd);
  }

  mutable std::mutex mu;
  std::size_t budget;
  std::vector<uint64_t> where;  // offset of each record
  std::string tail;              // the records after in_file, in memory
  int fd = -1;
  bool file_failed = false;      // keep everything in memory from now on
  uint64_t in_file = 0;
  mutable std::string window;    // file bytes [window_at, window_at + window.size())
  mutable uint64_t window_at = 0;

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

  // `n` bytes at logical offset `at`, which lie in the file: through the read window.
  std::string_view file_bytes(uint64_t at, std::size_t n) const {
    if (at < window_at || at + n > window_at + window.size()) {
      const bool onward = at >= window_at && at <= window_at + window.size();  // the next records in order
      const std::size_t span = onward ? kSequentialWindow : kRandomWindow;
      const std::size_t want = static_cast<std::size_t>(std::min<uint64_t>(std::max(n, span), in_file - at));
      window.resize(want);
      if (read_at(fd, window.data(), want, at) != want) {
        window.clear();
        window_at = 0;
        return {};
      }
      window_at = at;
    }
    return std::string_view(window).substr(static_cast<std::size_t>(at - window_at), n);
  }

  std::string_view bytes(uint64_t at, std::size_t n) const {
    if (at >= in_file) return std::string_view(tail).substr(static_cast<std::size_t>(at - in_file), n);
    return file_bytes(at, n);
  }

  std::string read(std::size_t i) const {
    if (i >= where.size()) throw std::out_of_range("record " + std::to_string(i) + " of " + std::to_string(where.size()));
    const uint64_t at = where[i];
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
  return impl_->where.size();
}

void RecordSpool::reserve(std::size_t n) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  s.where.reserve(n);
}

void RecordSpool::clear() {
  if (!impl_) return;
  Impl& s = *impl_;
  std::lock_guard lock(s.mu);
  s.where.clear();  // its room stays: a reader that reserved it fills it again
  s.tail.clear();
  if (s.fd >= 0) ::close(s.fd);
  s.fd = -1;
  s.file_failed = false;
  s.in_file = 0;
  s.window.clear();
  s.window_at = 0;
}

void RecordSpool::push_back(std::string_view record) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  s.where.push_back(s.append(record));
}

std::string RecordSpool::operator[](std::size_t i) const {
  if (!impl_) throw std::out_of_range("record " + std::to_string(i) + " of 0");
  std::lock_guard lock(impl_->mu);
  return impl_->read(i);
}

void RecordSpool::replace(std::size_t i, std::string_view record) {
  Impl& s = impl();
  std::lock_guard lock(s.mu);
  if (i >= s.where.size()) throw std::out_of_range("record " + std::to_string(i) + " of " + std::to_string(s.where.size()));
  s.where[i] = s.append(record);
}

bool RecordSpool::spilled() const {
  if (!impl_) return false;
  std::lock_guard lock(impl_->mu);
  return impl_->in_file > 0;
}

std::size_t RecordSpool::memory_bytes() const {
  if (!impl_) return 0;
  std::lock_guard lock(impl_->mu);
  return impl_->tail.size();
}

}  // namespace npu_doctor
