#include "mapped_file.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "free_memory.hpp"

namespace npu_doctor {
namespace {

// Files below this are read: measured on 2026-12-05 (bench/README.md, "Mapped input").
constexpr uint64_t kDefaultThreshold = 1u << 20;

uint64_t threshold_from_environment() {
  const char* s = std::getenv("NPU_DOCTOR_MAP_MIN");
  if (s == nullptr || *s == '\0') return kDefaultThreshold;
  if (std::strcmp(s, "off") == 0) return UINT64_MAX;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(s, &end, 10);
  return end != nullptr && *end == '\0' ? static_cast<uint64_t>(v) : kDefaultThreshold;
}

std::atomic<uint64_t>& threshold_setting() {
  static std::atomic<uint64_t> value{threshold_from_environment()};
  return value;
}

// The SIGBUS guard's table: the mappings live now. Read by the signal handler without a
// lock (atomics only); written under `table_mutex`.
struct Slot {
  std::atomic<std::uintptr_t> begin{0};
  std::atomic<std::uintptr_t> end{0};  // rounded up to whole pages
  std::atomic<bool> shrank{false};
};
constexpr int kSlots = 64;
Slot table[kSlots];
std::mutex table_mutex;
std::uintptr_t page_size = 4096;  // asked once before the handler is installed (64 KiB on some aarch64)
struct sigaction previous_action {};

void call_previous(int sig, siginfo_t* info, void* context) {
  if ((previous_action.sa_flags & SA_SIGINFO) != 0 && previous_action.sa_sigaction != nullptr) {
    previous_action.sa_sigaction(sig, info, context);
    return;
  }
  if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN &&
      previous_action.sa_handler != nullptr) {
    previous_action.sa_handler(sig);
    return;
  }
  // The default: the faulting access runs again and ends the process as it would have.
  ::signal(SIGBUS, SIG_DFL);
}

void on_sigbus(int sig, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (Slot& s : table) {
    const std::uintptr_t begin = s.begin.load(std::memory_order_acquire);
    const std::uintptr_t end = s.end.load(std::memory_order_acquire);
    if (begin == 0 || address < begin || address >= end) continue;
    // Past the file's new end: zeros from here to the mapping's end (mmap is a plain system
    // call, safe here in practice), so the scan goes on and the input is marked partial.
    const std::uintptr_t from = address / page_size * page_size;
    void* r = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (r == MAP_FAILED) break;
    s.shrank.store(true, std::memory_order_release);
    return;
  }
  call_previous(sig, info, context);
}

bool install_guard() {
  static const bool installed = [] {
    const long ps = ::sysconf(_SC_PAGESIZE);
    if (ps > 0) page_size = static_cast<std::uintptr_t>(ps);
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return ::sigaction(SIGBUS, &action, &previous_action) == 0;
  }();
  return installed;
}

int register_mapping(const char* data, std::size_t size) {
  std::lock_guard lock(table_mutex);
  for (int i = 0; i < kSlots; ++i) {
    if (table[i].begin.load(std::memory_order_relaxed) != 0) continue;
    const auto begin = reinterpret_cast<std::uintptr_t>(data);
    table[i].shrank.store(false, std::memory_order_relaxed);
    table[i].end.store((begin + size + page_size - 1) / page_size * page_size, std::memory_order_release);
    table[i].begin.store(begin, std::memory_order_release);
    return i;
  }
  return -1;
}

}  // namespace

uint64_t map_threshold() { return threshold_setting().load(std::memory_order_relaxed); }
void set_map_threshold(uint64_t bytes) { threshold_setting().store(bytes, std::memory_order_relaxed); }

std::shared_ptr<MappedFile> MappedFile::map(int fd, uint64_t size) {
  // Too large for the address space (32-bit hosts) or nothing to map: read it instead.
  if (size == 0 || size > static_cast<uint64_t>(SIZE_MAX / 2) || !install_guard()) return nullptr;
  const auto length = static_cast<std::size_t>(size);
  void* p = ::mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
  if (p == MAP_FAILED) return nullptr;
  const char* data = static_cast<const char*>(p);
  const int slot = register_mapping(data, length);
  if (slot < 0) {  // unguarded, a truncation would end the process: read it instead
    ::munmap(p, length);
    return nullptr;
  }
  // Read ahead generously; the pages behind are dropped by done_with().
  (void)::madvise(p, length, MADV_SEQUENTIAL);
  return std::shared_ptr<MappedFile>(new MappedFile(fd, data, length, slot));
}

std::shared_ptr<MappedFile> MappedFile::map_if_large(int fd, uint64_t size) {
  return size >= map_threshold() ? map(fd, size) : nullptr;
}

MappedFile::~MappedFile() {
  {
    std::lock_guard lock(table_mutex);
    table[slot_].begin.store(0, std::memory_order_release);
    table[slot_].end.store(0, std::memory_order_release);
  }
  ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::advise(uint64_t offset, std::size_t n, int advice) const {
  if (offset >= size_) return;
  n = static_cast<std::size_t>(std::min<uint64_t>(n, size_ - offset));
  const auto begin = reinterpret_cast<std::uintptr_t>(data_) + offset;
  const std::uintptr_t first = begin / page_size * page_size;
  (void)::madvise(reinterpret_cast<void*>(first), begin + n - first, advice);
}

void MappedFile::will_need(uint64_t offset, std::size_t n) const { advise(offset, n, MADV_WILLNEED); }

void MappedFile::done_with(uint64_t offset, std::size_t n) const {
  if (offset >= size_) return;
  n = static_cast<std::size_t>(std::min<uint64_t>(n, size_ - offset));
  release_mapped_pages(bytes().substr(offset, n));
}

void MappedFile::populate(uint64_t offset, std::size_t n) const {
#if defined(__linux__)
  constexpr int kPopulateRead = 22;  // MADV_POPULATE_READ, the same number on every architecture
  // Fails on older kernels (EINVAL) and past a truncation (EFAULT): the scan's own touch decides.
  advise(offset, n, kPopulateRead);
#else
  (void)offset;
  (void)n;
#endif
}

bool MappedFile::grew() const {
  struct stat st {};
  return ::fstat(fd_, &st) == 0 && static_cast<uint64_t>(st.st_size) > size_;
}

bool MappedFile::shrank() const { return table[slot_].shrank.load(std::memory_order_acquire); }

}  // namespace npu_doctor
