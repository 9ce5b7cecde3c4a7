#include <gtest/gtest.h>

#include "core/byte_size.hpp"
#include "core/duration.hpp"

namespace npu_doctor::mem {
namespace {

TEST(MemByteSize, SizesAsTorchNpuPrintsThem) {
  EXPECT_EQ(parse_byte_size("2.00 GiB"), 2ull << 30);
  EXPECT_EQ(parse_byte_size("22.00 MiB"), 22ull << 20);
  EXPECT_EQ(parse_byte_size("19.52 MiB"), static_cast<uint64_t>(19.52 * 1024 * 1024 + 0.5));
  EXPECT_EQ(parse_byte_size("60.97 GiB"), static_cast<uint64_t>(60.97 * 1024 * 1024 * 1024 + 0.5));
  EXPECT_EQ(parse_byte_size("512 KiB"), 512ull << 10);
  EXPECT_EQ(parse_byte_size("1.5 TiB"), 3ull << 39);
}

TEST(MemByteSize, UnitsAreBinaryWithOrWithoutTheI) {
  EXPECT_EQ(parse_byte_size("64GB"), 64ull << 30);
  EXPECT_EQ(parse_byte_size("65536MB"), 64ull << 30);
  EXPECT_EQ(parse_byte_size("64g"), 64ull << 30);
  EXPECT_EQ(parse_byte_size("1 PiB"), 1ull << 50);
}

TEST(MemByteSize, PlainBytesAndRuntimeSpelling) {
  EXPECT_EQ(parse_byte_size("274880004096"), 274880004096ull);
  EXPECT_EQ(parse_byte_size("5620(Byte)"), 5620u);
  EXPECT_EQ(parse_byte_size("100 B"), 100u);
  EXPECT_EQ(parse_byte_size("0"), 0u);
}

TEST(MemByteSize, RejectsWhatIsNotASize) {
  for (const char* bad : {"", "GiB", "-1 GiB", "1.2.3 GiB", "12 parsecs", "1 XB", "abc", "1e400", ". GiB",
                          "99999999999999999999999 GiB"}) {
    EXPECT_FALSE(parse_byte_size(bad)) << bad;
  }
}

TEST(MemByteSize, FormatsForPeople) {
  EXPECT_EQ(format_bytes(0), "0 B");
  EXPECT_EQ(format_bytes(1023), "1023 B");
  EXPECT_EQ(format_bytes(1536.0 * 1024 * 1024), "1.5 GiB");
  EXPECT_EQ(format_bytes(-2.0 * 1024 * 1024), "-2.0 MiB");
}

TEST(MemDuration, CommandLineDurations) {
  using std::chrono::milliseconds;
  EXPECT_EQ(parse_duration("500ms"), milliseconds(500));
  EXPECT_EQ(parse_duration("1s"), milliseconds(1000));
  EXPECT_EQ(parse_duration("1.5s"), milliseconds(1500));
  EXPECT_EQ(parse_duration("10m"), milliseconds(600000));
  EXPECT_EQ(parse_duration("2h"), milliseconds(7200000));
  EXPECT_EQ(parse_duration("3"), milliseconds(3000));
  EXPECT_EQ(parse_duration("1d"), milliseconds(86400000));
  for (const char* bad : {"", "s", "-1s", "1 s", "10x", "1w", "9999999h"}) EXPECT_FALSE(parse_duration(bad)) << bad;
}

}  // namespace
}  // namespace npu_doctor::mem
