// Pages of a read-only file mapping are given back and read again from the file when touched
// (kb lint's pass over the whole embedded snapshot relies on it to stay under 64 MiB).
#include "free_memory.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// Resident KiB of the mapping that starts at `start`, from /proc/self/smaps.
long resident_kib(const void* start) {
  std::ifstream smaps("/proc/self/smaps");
  const auto want = reinterpret_cast<std::uintptr_t>(start);
  std::string line;
  bool in_mapping = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-') {
      in_mapping = begin == want;
      continue;
    }
    if (in_mapping && line.starts_with("Rss:")) return std::stol(line.substr(4));
  }
  return -1;
}

TEST(ReleaseMappedPages, ResidentPagesGoAndTheBytesReadTheSameAfter) {
  testing::TempDir dir;
  std::string content(std::size_t{8} << 20, '\0');
  for (std::size_t i = 0; i < content.size(); ++i) content[i] = static_cast<char>('a' + i % 23);
  const testing::ReadOnlyMapping mapped(dir.write("data.bin", content));
  const std::string_view bytes = mapped.bytes();
  ASSERT_EQ(bytes, content);  // every page touched
  const long before = resident_kib(bytes.data());
  EXPECT_GE(before, 8 * 1024 - 64) << "the whole mapping was read";

  release_mapped_pages(bytes.substr(100));  // the first, partial page stays
  const long after = resident_kib(bytes.data());
  EXPECT_LE(after, 128) << "before: " << before << " KiB";
  EXPECT_EQ(bytes, content);  // read again from the file
}

TEST(ReleaseMappedPages, NothingHappensToBytesSmallerThanAPage) {
  const std::string heap(100, 'x');
  release_mapped_pages(heap);  // no whole page inside: never touched
  EXPECT_EQ(heap, std::string(100, 'x'));
  release_mapped_pages({});
}

}  // namespace
}  // namespace npu_doctor
