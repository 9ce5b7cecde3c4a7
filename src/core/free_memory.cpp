#include "free_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace npu_doctor {

void return_free_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

void release_mapped_pages(std::string_view bytes) {
#if defined(MADV_DONTNEED)
  // The page size is asked, not assumed: 64 KiB kernels are common on aarch64 servers.
  const long page_size = ::sysconf(_SC_PAGESIZE);
  if (page_size <= 0 || bytes.empty()) return;
  const auto page = static_cast<std::uintptr_t>(page_size);
  const auto begin = reinterpret_cast<std::uintptr_t>(bytes.data());
  const std::uintptr_t first = (begin + page - 1) / page * page;
  const std::uintptr_t last = (begin + bytes.size()) / page * page;
  if (first >= last) return;
  // Failure only means the pages stay resident, as they would without this call.
  (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
#else
  (void)bytes;
#endif
}

}  // namespace npu_doctor
