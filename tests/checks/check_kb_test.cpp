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
  for (const EntryId id : check_finding_ids()) {
    const Entry* e = &kb.entry(id);  // present: the ids are generated from kb/*.yaml
    const std::string_view name = id.str();
    EXPECT_FALSE(e->matches_logs) << name;
    EXPECT_FALSE(e->title.zh.empty()) << name;
    EXPECT_FALSE(e->cause.zh.empty()) << name;
    EXPECT_FALSE(e->remedies.empty()) << name;
    for (const auto& r : e->remedies) EXPECT_FALSE(r.zh.empty()) << name;
  }
}

TEST(CheckKb, EveryCheckEntryIsRaisedBySomeStep) {
  const auto ids = check_finding_ids();
  for (const auto& e : npu_doctor::testing::builtin_kb().entries()) {
    if (e.family != "check") continue;
    EXPECT_TRUE(std::any_of(ids.begin(), ids.end(), [&](EntryId id) { return id == e.id; }))
        << e.id << " is not raised by any step";
  }
}

}  // namespace
}  // namespace npu_doctor::checks
