#include "npu_doctor/record_spool.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace npu_doctor {

namespace {

// Records are read back from the file a window at a time: reading in order reads each
// 64 KiB window once; a read elsewhere (a record rewritten at the end, an index lookup)
// reads 4 KiB, so that jumping between two places does not copy 64 KiB a record.
constexpr std::size_t kSequentialWindow = std::size_t{64} << 10;
constexpr std::size_t kRandomWindow = std::size_t{4} << 10;

std::size_t budget_from_environment(std::size_t fallback) {
  const char* v = std::getenv("NPU_DOCTOR_INPUT_MEMORY");
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end != nullptr && *end == '\0' ? static_cast<std::size_t>(n) : fallback;
}

// A private file in $TMPDIR (or /tmp), gone from the directory as soon as it is open.
int open_private_temporary() {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/npu-doctor-spool-XXXXXX";
  const int fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(path.c_str());
  return fd;
}

bool write_all(int fd, std::string_view bytes, uint64_t at) {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<std::size_t>(n));
    at += static_cast<uint64_t>(n);
  }
  return true;
}

bool read_all(int fd, char* out, std::size_t size, uint64_t at) {
  while (size > 0) {
    const ssize_t n = ::pread(fd, out, size, static_cast<off_t>(at));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    out += n;
    size -= static_cast<std::size_t>(n);
    at += static_cast<uint64_t>(n);
  }
  return true;
}

}  // namespace

// Offsets are into one logical byte sequence: [0, in_file) in the file, the rest in `tail`.
// A record is a 4-byte length and its bytes.
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
    const auto n = static_cast<uint32_t>(record.size());
    for (int i = 0; i < 4; ++i) tail += static_cast<char>((n >> (8 * i)) & 0xFF);
    tail.append(record);
    if (tail.size() > budget) spill();
    return at;
  }

  void spill() {
    if (file_failed) return;
    if (fd < 0) fd = open_private_temporary();
    if (fd < 0 || !write_all(fd, tail, in_file)) {
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
      if (!read_all(fd, window.data(), want, at)) {
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
    uint32_t n = 0;
    for (std::size_t k = 0; k < 4; ++k) n |= static_cast<uint32_t>(static_cast<unsigned char>(head[k])) << (8 * k);
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
