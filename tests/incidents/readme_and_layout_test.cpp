// The README shows what the tool really prints and builds only what it runs; the text
// layout helpers behind the terminal report (issue 18, part 5).
#include <gtest/gtest.h>

#include <regex>

#include "render/text_layout.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using render_detail::display_width;
using render_detail::fit_width;
using render_detail::wrap_text;

std::string project_dir() { return testing::fixtures_dir() + "/../.."; }

// The knowledge base's version and size change with every entry added: not the point.
std::string without_kb_version(std::string s) {
  return std::regex_replace(s, std::regex(R"(kb-[0-9a-f]+, \d+\s+entries)"), "KB");
}

TEST(Readme, TheFirstCommandBuildsOnlyWhatItRunsAndSaysHowLong) {
  const std::string readme = testing::read_file(project_dir() + "/README.md");
  const auto block = readme.find("```sh\n");
  ASSERT_NE(block, std::string::npos);
  const std::string first = readme.substr(block, readme.find("```\n", block + 6) - block);
  EXPECT_NE(first.find("cmake --build build -j\"$(nproc)\" --target npu-doctor"), std::string::npos) << first;
  EXPECT_EQ(first.find("npu_doctor_tests"), std::string::npos) << first;
  EXPECT_TRUE(std::regex_search(readme.substr(0, block), std::regex(R"(\d+ minutes)"))) << "how long it takes";
}

TEST(Readme, TheSampleOutputIsWhatTheCommandPrints) {
  const std::string readme = testing::read_file(project_dir() + "/README.md");
  const std::string prompt = "$ npu-doctor diagnose ";
  const auto start = readme.find(prompt);
  ASSERT_NE(start, std::string::npos);
  const auto eol = readme.find('\n', start);
  const auto end = readme.find("```\n", eol);
  const std::string command = readme.substr(start + 2, eol - start - 2);
  const std::string shown = readme.substr(eol + 1, end - eol - 1);
  std::vector<std::string> args;
  std::istringstream words(command.substr(std::string("npu-doctor ").size()));
  for (std::string w; words >> w;) args.push_back(w.rfind("examples/", 0) == 0 ? project_dir() + "/" + w : w);
  const auto r = testing::run_npu_doctor(args);
  ASSERT_LE(r.exit_code, 1) << r.err;
  std::string printed = r.out;
  const std::string dir = project_dir() + "/";
  for (auto p = printed.find(dir); p != std::string::npos; p = printed.find(dir)) printed.erase(p, dir.size());
  EXPECT_EQ(without_kb_version(shown), without_kb_version(printed))
      << "README.md's sample is not what `" << command << "` prints; paste this:\n" << r.out;
}

TEST(TextLayout, WideCharactersTakeTwoColumns) {
  EXPECT_EQ(display_width("abc"), 3u);
  EXPECT_EQ(display_width("根因"), 4u);
  EXPECT_EQ(display_width("×3 …"), 4u);
}

TEST(TextLayout, WrapsAtWordsWithAHangingIndentAndKeepsSpacingInsideALine) {
  EXPECT_EQ(wrap_text("one two three four", 10, 0, 2), "one two\n  three\n  four");
  EXPECT_EQ(wrap_text("a.log:8  ×3", 80, 0, 0), "a.log:8  ×3");
  EXPECT_EQ(wrap_text("aaaaaaaaaaaa b", 5, 0, 1), "aaaaaaaaaaaa\n b") << "a word longer than the line stays whole";
  EXPECT_EQ(wrap_text("no wrap at all", 0, 0, 0), "no wrap at all");
}

TEST(TextLayout, ChineseBreaksBetweenCharactersButNeverBeforeClosingPunctuation) {
  const std::string s = wrap_text("这是最早出现的决定性错误。之后的错误", 12, 0, 0);
  for (const auto& line : testing::lines_of(s)) {
    EXPECT_LE(display_width(line), 12u) << line;
    EXPECT_NE(line.rfind("。", 0), 0u) << "a line starts with 。";
  }
  EXPECT_NE(s.find('\n'), std::string::npos);
}

TEST(TextLayout, FitCutsWithAnEllipsis) {
  EXPECT_EQ(fit_width("abcdef", 4), "abc…");
  EXPECT_EQ(fit_width("abc", 4), "abc");
  EXPECT_EQ(display_width(fit_width("根因根因根因", 5)), 5u);
}

}  // namespace
}  // namespace npu_doctor
