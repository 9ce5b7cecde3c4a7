// The one line reader that tool-output readers share (src/core/line_assembler.hpp): lines
// split across blocks, over-long lines cut, CRLF, stopping early, and text in memory.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/line_assembler.hpp"

namespace npu_doctor {
namespace {

std::vector<std::string> assemble(const std::vector<std::string_view>& blocks, std::size_t keep, bool strip_cr) {
  std::vector<std::string> out;
  LineAssembler lines(keep, strip_cr);
  auto take = [&](std::string_view l) { out.emplace_back(l); };
  for (auto b : blocks) lines.feed(b, take);
  lines.finish(take);
  return out;
}

TEST(LineAssembler, JoinsALineSplitAcrossBlocks) {
  EXPECT_EQ(assemble({"first li", "ne\nsec", "ond\n", "third"}, 100, false),
            (std::vector<std::string>{"first line", "second", "third"}));
  // Empty lines stay lines; a final '\n' adds none.
  EXPECT_EQ(assemble({"a\n\nb\n"}, 100, false), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_TRUE(assemble({""}, 100, false).empty());
}

TEST(LineAssembler, CutsALongLineAndDropsItsRestUpToTheNewline) {
  // Kept bytes are counted over blocks: "abcd" + "efgh" keeps "abcde".
  EXPECT_EQ(assemble({"abcd", "efgh\nxy\n"}, 5, false), (std::vector<std::string>{"abcde", "xy"}));
  EXPECT_EQ(assemble({"abcdefgh"}, 3, false), (std::vector<std::string>{"abc"}));
}

TEST(LineAssembler, StripsTheCarriageReturnOnlyWhenAsked) {
  EXPECT_EQ(assemble({"dos\r\nunix\n", "last\r"}, 100, true), (std::vector<std::string>{"dos", "unix", "last"}));
  EXPECT_EQ(assemble({"dos\r\n"}, 100, false), (std::vector<std::string>{"dos\r"}));
}

TEST(LineAssembler, ACallbackReturningFalseStopsTheReading) {
  std::vector<std::string> seen;
  LineAssembler lines(100);
  auto two = [&](std::string_view l) {
    seen.emplace_back(l);
    return seen.size() < 2;
  };
  EXPECT_TRUE(lines.feed("one\n", two));
  EXPECT_FALSE(lines.feed("two\nthree\n", two));
  EXPECT_EQ(seen, (std::vector<std::string>{"one", "two"}));
}

TEST(ForEachLine, EveryLineOfTextInMemory) {
  std::vector<std::string> seen;
  for_each_line("a\n\nb\nlast", [&](std::string_view l) { seen.emplace_back(l); });
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "", "b", "last"}));
  seen.clear();
  for_each_line("only\n", [&](std::string_view l) { seen.emplace_back(l); });
  EXPECT_EQ(seen, (std::vector<std::string>{"only"}));
}

}  // namespace
}  // namespace npu_doctor
