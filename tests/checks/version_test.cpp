// Version ordering and specs as Ascend and Python release series use them.
#include <gtest/gtest.h>

#include "checks/version.hpp"

namespace npu_doctor::checks {
namespace {

Version v(const char* s) {
  auto x = Version::parse(s);
  EXPECT_TRUE(x.has_value()) << s;
  return x.value_or(*Version::parse("0"));
}

bool spec_matches(const char* spec, const char* version) {
  auto s = VersionSpec::parse(spec);
  EXPECT_TRUE(s.has_value()) << spec;
  return s && s->matches(v(version));
}

TEST(CheckVersion, ReleaseCandidatesComeBeforeTheRelease) {
  EXPECT_LT(v("23.0.rc3"), v("23.0.0"));
  EXPECT_LT(v("23.0.0"), v("23.0.5"));
  EXPECT_LT(v("24.1.rc1"), v("24.1.rc2"));
  EXPECT_LT(v("24.1.rc2"), v("24.1.RC3"));
  EXPECT_LT(v("8.0.RC3"), v("8.0.0"));
  EXPECT_LT(v("8.0.0"), v("8.1.RC1"));
  EXPECT_LT(v("23.0.rc2"), v("23.0.rc2.3"));  // npu-smi prints build numbers after the RC
}

TEST(CheckVersion, CaseAndLocalLabelsDoNotMatter) {
  EXPECT_EQ(v("8.0.RC2"), v("8.0.rc2"));
  EXPECT_EQ(v("2.1.0+cpu"), v("2.1.0"));
  EXPECT_NE(v("2.1.0"), v("2.1.1"));
}

TEST(CheckVersion, PythonPostAndDevReleases) {
  EXPECT_LT(v("2.1.0"), v("2.1.0.post8"));
  EXPECT_LT(v("2.1.0.post8"), v("2.1.0.post10"));  // numerically, not as text
  EXPECT_LT(v("2.1.0.dev20240101"), v("2.1.0"));
  EXPECT_EQ(v("2.1.0.post8.dev20241009").release(), "2.1.0");
  EXPECT_EQ(v("8.0.RC2").release(), "8.0");
  EXPECT_EQ(v("2.4.0").release(), "2.4.0");
}

TEST(CheckVersion, NotVersions) {
  EXPECT_FALSE(Version::parse(""));
  EXPECT_FALSE(Version::parse("   "));
  EXPECT_FALSE(Version::parse("unknown"));
  EXPECT_FALSE(Version::parse("NA"));
}

TEST(CheckVersion, PrefixOfASeries) {
  EXPECT_TRUE(v("23.0.rc3").has_prefix(v("23.0")));
  EXPECT_TRUE(v("23.0.5").has_prefix(v("23.0")));
  EXPECT_FALSE(v("23.1.0").has_prefix(v("23.0")));
  EXPECT_FALSE(v("23").has_prefix(v("23.0")));
}

TEST(CheckVersion, SpecsExactPrefixAndRanges) {
  EXPECT_TRUE(spec_matches("24.1.rc2", "24.1.RC2"));
  EXPECT_FALSE(spec_matches("24.1.rc2", "24.1.rc3"));
  EXPECT_TRUE(spec_matches("23.0.*", "23.0.rc3"));
  EXPECT_TRUE(spec_matches("23.0.*", "23.0.7"));
  EXPECT_FALSE(spec_matches("23.0.*", "24.1.0"));
  // The driver's compatible_version_fw=[7.0.0,7.2.99] (ascend-reference.md §5.1).
  EXPECT_TRUE(spec_matches("[7.0.0,7.2.99]", "7.1.0.11.220"));
  EXPECT_TRUE(spec_matches("[7.0.0,7.2.99]", "7.0.0"));
  EXPECT_FALSE(spec_matches("[7.0.0,7.2.99]", "7.3.0.1.220"));
  EXPECT_FALSE(spec_matches("[7.0.0,7.2.99]", "6.4.12.1.241"));
  // The firmware's compatible_version_drv=[23.0.rc3,23.0.rc3.]: an upper end with a
  // trailing dot takes in the version's sub-versions.
  EXPECT_TRUE(spec_matches("[23.0.rc3,23.0.rc3.]", "23.0.rc3"));
  EXPECT_TRUE(spec_matches("[23.0.rc3,23.0.rc3.]", "23.0.rc3.2"));
  EXPECT_FALSE(spec_matches("[23.0.rc3,23.0.rc3.]", "23.0.0"));
  EXPECT_TRUE(spec_matches("[23.0.0,23.0.0.]", "23.0.0.1"));
  EXPECT_FALSE(spec_matches("[23.0.0,23.0.0.]", "23.0.5"));
}

TEST(CheckVersion, MalformedSpecs) {
  EXPECT_FALSE(VersionSpec::parse(""));
  EXPECT_FALSE(VersionSpec::parse("[7.0.0]"));
  EXPECT_FALSE(VersionSpec::parse("[a,b]"));
  EXPECT_FALSE(VersionSpec::parse("*"));
}

TEST(CheckVersion, BracketLists) {
  const auto g = parse_bracket_list("[V100R001C30],[V100R001C13], [V100R001C15]");
  ASSERT_EQ(g.size(), 3u);
  EXPECT_EQ(g[2], std::vector<std::string>{"V100R001C15"});
  const auto ranges = parse_version_ranges("[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]");
  ASSERT_TRUE(ranges);
  EXPECT_EQ(ranges->size(), 2u);
  EXPECT_FALSE(parse_version_ranges("[V100R001C30],[V100R001C13]"));  // items, not ranges
  EXPECT_FALSE(parse_version_ranges("7.0.0"));
  EXPECT_FALSE(parse_version_ranges("[7.0.0,7.2.99"));  // unterminated
}

}  // namespace
}  // namespace npu_doctor::checks
