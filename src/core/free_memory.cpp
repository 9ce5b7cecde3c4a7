#include "free_memory.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace npu_doctor {

void return_free_heap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

}  // namespace npu_doctor
