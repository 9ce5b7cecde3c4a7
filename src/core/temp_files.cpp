#include "temp_files.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace npu_doctor {

std::string temporary_directory() {
  const char* dir = std::getenv("TMPDIR");
  return dir != nullptr && *dir != '\0' ? dir : "/tmp";
}

int open_unlinked_temporary(std::string_view prefix) {
  std::string path = temporary_directory() + "/" + std::string(prefix) + "XXXXXX";
  const int fd = ::mkostemp(path.data(), O_CLOEXEC);
  if (fd >= 0) ::unlink(path.c_str());
  return fd;
}

}  // namespace npu_doctor
