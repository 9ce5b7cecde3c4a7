// The second stage's cheap "no" before PCRE2 (line_grams.hpp): a pattern is turned down only
// when the line lacks a piece of a string every match of it holds, so what is confirmed
// with the filter is what is confirmed without it.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "kb_matcher.hpp"
#include "line_grams.hpp"
#include "regex_literals.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(LineGrams, HoldsEveryPieceOfTheLineInAnyLetterCase) {
  LineGrams g;
  g.read("[ERROR] get Device Count of NPU failed");
  for (std::string_view piece : {"[err", "devi", "DEVI", "ount", "npu ", "iled"}) {
    EXPECT_TRUE(g.may_hold(LineGrams::gram_at(piece))) << piece;
  }
  EXPECT_FALSE(g.may_hold(LineGrams::gram_at("xqzj")));
  LineGrams short_line;
  short_line.read("ab");
  EXPECT_FALSE(short_line.may_hold(LineGrams::gram_at(std::string_view("ab\0\0", 4))));
}

TEST(GramFilter, TurnsDownALineWithoutARequiredStringOnly) {
  const GramFilter f(required_literals("(?i)get device count of NPU failed"));
  ASSERT_FALSE(f.empty());
  LineGrams with, other_case, without;
  with.read("\"[PTA]:\"get device count of NPU failed\"");
  other_case.read("GET DEVICE COUNT OF NPU FAILED");
  without.read("[ERROR] get device count failed, runtime result = 507899");
  EXPECT_TRUE(f.may_match(with));
  EXPECT_TRUE(f.may_match(other_case));
  EXPECT_FALSE(f.may_match(without));
  // A clause of several strings passes when the line holds any of them.
  const GramFilter either(required_literals("(?:out of memory|OOM killer) on device"));
  LineGrams oom;
  oom.read("the OOM killer on device 3");
  EXPECT_TRUE(either.may_match(oom));
  // Strings under four bytes cannot be tested: no filter, every line may match.
  EXPECT_TRUE(GramFilter(required_literals("ab|cd")).empty());
}

TEST(GramFilter, EveryFixtureLineConfirmsTheSameWithTheFilterAsWithout) {
  std::vector<KbProblem> problems;
  const auto m = KbMatcher::build(testing::builtin_kb(), problems);
  ASSERT_TRUE(problems.empty());
  std::vector<LineIndex::Hit> candidates;
  std::vector<uint32_t> seen;
  LineGrams grams;
  std::size_t confirmed = 0, turned_down = 0;
  for (const auto& log : testing::fixture_logs()) {
    std::ifstream in(log, std::ios::binary);
    for (std::string line; std::getline(in, line);) {
      if (line.size() > 65536) continue;  // long lines are confirmed in windows, unfiltered
      candidates.clear();
      m->index().candidates(line, candidates, seen);
      if (candidates.empty()) continue;
      const LineInfo info = parse_line_info(line);
      grams.read(line);
      for (const auto& c : candidates) {
        std::vector<LineHit> without, with;
        m->confirm(c.pattern, line, info, without);
        m->confirm(c.pattern, line, info, with, &grams);
        ASSERT_EQ(with.size(), without.size()) << log << ": pattern " << c.pattern << " on " << line;
        confirmed += without.empty() ? 0U : 1U;
        turned_down += m->may_match(c.pattern, grams) ? 0U : 1U;
      }
    }
  }
  EXPECT_GT(confirmed, 1000u);
  EXPECT_GT(turned_down, 10000u);
}

}  // namespace
}  // namespace npu_doctor
