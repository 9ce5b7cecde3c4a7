// The findings check raises are knowledge-base entries: every id the steps use exists,
// is raised by id only (matches_logs: false), has texts in both languages, and every
// check.* entry is used by a step.
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/check_runner.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::checks {
namespace {

TEST(CheckKb, EveryIdTheStepsRaiseIsAnAnalysisEntryInBothLanguages) {
  const KnowledgeBase& kb = npu_doctor::testing::builtin_kb();
  for (std::string_view id : check_finding_ids()) {
    const Entry* e = kb.find_id(id);
    ASSERT_NE(e, nullptr) << id << " is missing from kb/checks.yaml";
    EXPECT_FALSE(e->matches_logs) << id;
    EXPECT_FALSE(e->title.zh.empty()) << id;
    EXPECT_FALSE(e->cause.zh.empty()) << id;
    EXPECT_FALSE(e->remedies.empty()) << id;
    for (const auto& r : e->remedies) EXPECT_FALSE(r.zh.empty()) << id;
  }
}

TEST(CheckKb, EveryCheckEntryIsRaisedBySomeStep) {
  const auto ids = check_finding_ids();
  for (const auto& e : npu_doctor::testing::builtin_kb().entries()) {
    if (e.family != "check") continue;
    EXPECT_NE(std::find(ids.begin(), ids.end(), e.id), ids.end()) << e.id << " is not raised by any step";
  }
}

}  // namespace
}  // namespace npu_doctor::checks
