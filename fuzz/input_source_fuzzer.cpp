// Input sources over arbitrary bytes (src/core/input_source.cpp): magic-number sniffing,
// libarchive for gzip/bzip2/xz/zstd/lz4 and tar/zip/7z/cpio, one nested level, members cut
// short. The bytes go through a real file, as a user's input does.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <string>

#include "fuzz_support.hpp"

namespace {

// One file per process, rewritten for each input (in /dev/shm when there is one).
const std::string& scratch_path() {
  static const std::string path = [] {
    const char* dir = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    return std::string(dir) + "/npu-doctor-fuzz-input-" + std::to_string(::getpid());
  }();
  return path;
}

bool write_all(const std::string& path, const uint8_t* data, std::size_t size) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  std::size_t done = 0;
  while (done < size) {
    const ssize_t w = ::write(fd, data + done, size - done);
    if (w <= 0) break;
    done += static_cast<std::size_t>(w);
  }
  ::close(fd);
  return done == size;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  const std::string& path = scratch_path();
  if (!write_all(path, data, size)) return 0;
  InputItem item{path, false};
  std::vector<InputReport> reports;
  std::vector<char> buf(1 << 14);
  visit_streams(
      item,
      [&](ByteStream& stream, InputReport& report) {
        // Read like the scanner does, but stop after 16 MiB: a small input may claim to
        // decompress to gigabytes, which is the bad-input matrix's business, not a bug.
        uint64_t total = 0;
        for (;;) {
          const long r = stream.read(buf.data(), buf.size());
          if (r < 0) {
            report.status = InputStatus::partial;
            report.note = stream.error();
            break;
          }
          if (r == 0 || (total += static_cast<uint64_t>(r)) > (16u << 20)) break;
        }
        report.bytes = total;
      },
      reports);
  ::unlink(path.c_str());
  return 0;
}
