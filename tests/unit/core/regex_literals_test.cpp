// What every match of a pattern must contain: sound (never claims text a match can lack)
// and useful (finds the literals real knowledge-base patterns carry).
#include <gtest/gtest.h>

#include "regex.hpp"
#include "regex_literals.hpp"

namespace npu_doctor {
namespace {

using Clauses = std::vector<std::vector<std::string>>;

Clauses clauses(std::string_view re) { return required_literals(re).clauses; }

TEST(RegexLiterals, APlainMessageIsOneLowerCaseLiteral) {
  EXPECT_EQ(clauses("NPU out of memory"), (Clauses{{"npu out of memory"}}));
}

TEST(RegexLiterals, EscapesAndClassesOfFewCharactersStayLiteral) {
  EXPECT_EQ(clauses(R"(retCode=0x[0-9a-f]+, \[vector core\])"), (Clauses{{"retcode=0x"}, {", [vector core]"}}));
  EXPECT_EQ(clauses("[Ee]rror code"), (Clauses{{"error code"}}));
}

TEST(RegexLiterals, AlternativesBecomeOneClauseOfAllBranches) {
  EXPECT_EQ(clauses("(?:socket|notify) wait timeout"),
            (Clauses{{"notify wait timeout", "socket wait timeout"}}));
  // A branch with nothing certain makes the whole alternation certain of nothing.
  EXPECT_EQ(clauses(R"(timeout|\d+)"), Clauses{});
}

TEST(RegexLiterals, OptionalAndRepeatedPartsAreHandledSoundly) {
  EXPECT_EQ(clauses("InferShape(?:AndType)? for node"),
            (Clauses{{"infershape for node", "infershapeandtype for node"}}));
  EXPECT_EQ(clauses(R"(abc\s*def)"), (Clauses{{"abc"}, {"def"}}));
  EXPECT_EQ(clauses("(?:ab)+cd"), (Clauses{{"ab"}, {"cd"}}));
  EXPECT_EQ(clauses("x{2}yz"), (Clauses{{"xxyz"}}));
}

TEST(RegexLiterals, NamedGroupsFlagsAnchorsAndLookaroundsAreSeenThrough) {
  EXPECT_EQ(clauses(R"((?i)\bmodule_name=(?<code>E[0-9A-Z]\d{4})\b)"), (Clauses{{"e"}, {"module_name="}}));
  EXPECT_EQ(clauses("^(?=foo)bar$"), (Clauses{{"bar"}}));
}

TEST(RegexLiterals, WhatItCannotFollowClaimsNothing) {
  EXPECT_EQ(clauses(".*"), Clauses{});
  EXPECT_EQ(clauses("(unbalanced"), Clauses{});
  EXPECT_EQ(clauses(R"(\d{6})"), Clauses{});
}

TEST(RegexLiterals, BestIsTheClauseWhoseShortestStringIsLongest) {
  const auto r = required_literals(R"(ab\d+ longer literal here\s+(?:x|yy))");
  ASSERT_NE(r.best(), nullptr);
  EXPECT_EQ(*r.best(), (std::vector<std::string>{" longer literal here"}));
}

// Soundness against PCRE2: for lines the pattern matches, every clause has a string on the
// line (case-insensitively).
TEST(RegexLiterals, EveryMatchHoldsEveryClause) {
  struct Case {
    const char* re;
    std::vector<const char*> lines;
  };
  const Case cases[] = {
      {R"((?i)\bloss (?:is|became|becomes) (?:nan|inf)\b)", {"LOSS IS NaN", "the loss became inf now"}},
      {R"(Device\[?(?<device>\d+)\]? lost heartbeat)", {"Device[1] lost heartbeat", "Device3 lost heartbeat"}},
      {R"((?<component>ACL|HCCL|ATC|ERROR)[\s:]*(?<code>\d{6}))", {"HCCL 200001", "ERROR: 507035"}},
      {R"(x?y+z{1,3}[-_]w)", {"yyzz-w", "xyz_w"}},
  };
  for (const auto& c : cases) {
    std::string err;
    auto re = Regex::compile(c.re, false, err);
    ASSERT_TRUE(re) << err;
    const auto lits = required_literals(c.re);
    for (const char* line : c.lines) {
      ASSERT_TRUE(re->search(line)) << c.re << " / " << line;
      const std::string low = ascii_lower(line);
      for (const auto& clause : lits.clauses) {
        bool found = false;
        for (const auto& s : clause) found = found || low.find(s) != std::string::npos;
        EXPECT_TRUE(found) << c.re << " on '" << line << "'";
      }
    }
  }
}

}  // namespace
}  // namespace npu_doctor
