// The message catalogue's coverage (npu-doctor kb coverage, docs/kb-messages.md) may grow but
// not drop: tests/kb/fixtures/coverage-floor.tsv holds, per catalogue family, the entries it
// covered when the floor was last raised. Regenerating a file with fewer entries fails here.
#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "npu_doctor/kb_coverage.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

std::map<std::string, long long> floor_of_each_family() {
  std::map<std::string, long long> out;
  std::istringstream in(testing::read_file(testing::area_fixture("kb", "coverage-floor.tsv")));
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string family;
    long long covered = -1;
    fields >> family >> covered;
    EXPECT_GE(covered, 0) << "bad floor line: " << line;
    out[family] = covered;
  }
  return out;
}

TEST(KbCoverage, NoCatalogueFamilyCoversLessThanItsFloor) {
  const auto floors = floor_of_each_family();
  ASSERT_FALSE(floors.empty());
  std::map<std::string, long long> covered;
  for (const auto& row : message_coverage(testing::builtin_kb())) covered[row.source.family] += row.covered;
  for (const auto& [family, floor] : floors) {
    ASSERT_TRUE(covered.count(family)) << family << " is in the floor but no longer in kb/messages/";
    EXPECT_GE(covered[family], floor) << family << ": catalogue coverage dropped";
  }
  // A new family gets its floor line, so it is kept from dropping too.
  for (const auto& [family, n] : covered) EXPECT_TRUE(floors.count(family)) << family << " has no floor line";
}

}  // namespace
}  // namespace npu_doctor
