#include <gtest/gtest.h>

#include "npu_doctor/text.hpp"

namespace npu_doctor {
namespace {

TEST(SanitizeLine, KeepsValidUtf8AndTabs) {
  EXPECT_EQ(sanitize_line("内存不足\tOOM"), "内存不足\tOOM");
}

TEST(SanitizeLine, ReplacesInvalidBytesAndControls) {
  EXPECT_EQ(sanitize_line(std::string("a\xff" "b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(sanitize_line(std::string("a\0b", 3)), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(sanitize_line("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong encoding
  EXPECT_EQ(sanitize_line("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
}

TEST(SanitizeLine, StripsAnsiColoursAndTrailingCr) {
  EXPECT_EQ(sanitize_line("\x1b[31mERROR\x1b[0m x\r"), "ERROR x");
}

TEST(Utf8Prefix, NeverCutsACharacter) {
  const std::string s = "ab中文";
  EXPECT_EQ(utf8_prefix(s, 3), "ab");
  EXPECT_EQ(utf8_prefix(s, 5), "ab中");
  EXPECT_EQ(utf8_prefix(s, 100), s);
}

TEST(LooksBinary, TextWithAFewNulsIsText) {
  std::string log(10000, 'a');
  log[500] = '\0';
  EXPECT_FALSE(looks_binary(log));
  EXPECT_TRUE(looks_binary(std::string(1000, '\0')));
  std::string elf = "\x7f" "ELF\x02\x01\x01";
  elf += std::string(200, '\0');
  EXPECT_TRUE(looks_binary(elf));
  EXPECT_FALSE(looks_binary(""));
}

TEST(LooksBinary, RandomBytesAreBinaryButColouredAndProgressTextIsNot) {
  std::string noise;
  uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1664525u + 1013904223u;  // a fixed LCG: the same "random" bytes every run
    noise += static_cast<char>(x >> 24);
  }
  EXPECT_TRUE(looks_binary(noise));
  std::string coloured;
  for (int i = 0; i < 100; ++i) coloured += "\x1b[31m[ERROR]\x1b[0m step " + std::to_string(i) + "\r 45%|\xe2\x96\x8f |\b\n";
  EXPECT_FALSE(looks_binary(coloured));
}

}  // namespace
}  // namespace npu_doctor
