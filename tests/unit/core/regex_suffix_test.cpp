// The first stage's cut of a costly regex: what it keeps, and that it finds every line the
// whole pattern matches.
#include <gtest/gtest.h>

#include "regex.hpp"
#include "regex_suffix.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(RegexSuffix, ALongNamePrefixIsCutBackToTheCharacterBeforeTheValue) {
  // compute.loss-nan: its rarest literal is "inf"/"nan"; the names before it are dropped,
  // "[:=]" anchors what is left.
  const auto s = first_stage_suffix(
      R"((?i)['\"]?\b(?:loss|lm_loss|grad_norm|kl|ppl)\b['\"]?\s*[:=]\s*['\"]?(?<value>nan|-?inf)\b)");
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(*s, R"((?i)[:=]\s*['\"]?(?<value>nan|-?inf)\b)");
}

TEST(RegexSuffix, ClassesAreReadWhole) {
  // "]" inside a class (first, escaped, or closing a POSIX class) does not end it.
  EXPECT_EQ(first_stage_suffix(R"(id[[:digit:]]+\s*=\s*nan\b)"), std::optional<std::string>(R"(=\s*nan\b)"));
  EXPECT_EQ(first_stage_suffix(R"(id[]\]x]+\s*=\s*nan\b)"), std::optional<std::string>(R"(=\s*nan\b)"));
}

TEST(RegexSuffix, NothingIsCutWhereNothingPrecedesTheLiteralOrTheShapeIsNotFollowed) {
  EXPECT_FALSE(first_stage_suffix("Device or resource busy").has_value());
  EXPECT_FALSE(first_stage_suffix(R"(^\s*(?<code>E[12489ABZ]\d{4}): [A-Z])").has_value());
  EXPECT_FALSE(first_stage_suffix(R"(foo\s*=\s*bar|baz)").has_value());    // top-level alternation
  EXPECT_FALSE(first_stage_suffix(R"((a)\s*x(?i)\s*=\s*abc)").has_value());  // flags changed midway
  EXPECT_FALSE(first_stage_suffix(R"((ab)\s*=\s*\1)").has_value());          // back-reference
}

TEST(RegexSuffix, TheCutFindsEveryLineTheWholePatternMatches) {
  // Every sample line of every hand-written pattern the cut applies to.
  std::size_t checked = 0;
  for (const Entry& e : testing::builtin_kb().entries()) {
    for (const auto& p : e.patterns) {
      const auto s = first_stage_suffix(p.regex);
      if (!s) continue;
      std::string err;
      const auto whole = Regex::compile(p.regex, p.ignore_case, err);
      const auto cut = Regex::compile(*s, p.ignore_case, err);
      ASSERT_TRUE(whole && cut) << e.id << ": " << *s << ": " << err;
      for (const auto& line : e.samples_match) {
        if (!whole->search(line)) continue;
        EXPECT_TRUE(cut->search(line)) << e.id << ": /" << *s << "/ misses " << line;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace npu_doctor
