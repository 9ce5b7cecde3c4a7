// The isolation planner: which runs it makes and what it concludes, with a fake runner
// that fails on chosen cards, pairs or set sizes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "isolate/command_runner.hpp"
#include "isolate/isolate_report.hpp"
#include "isolate/isolation.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::isolate {
namespace {

using npu_doctor::testing::builtin_kb;

// Fails a run that contains a bad card, both cards of a bad pair, or at least `max_size` cards.
struct Fake {
  std::set<int> bad_cards;
  std::vector<std::pair<int, int>> bad_pairs;
  std::size_t max_size = 1000;
  bool cannot_start = false;
  std::vector<std::vector<int>> calls;

  Runner runner() {
    return [this](const std::vector<int>& d, Phase) {
      calls.push_back(d);
      RunOutcome o;
      if (cannot_start) {
        o.started = false;
        o.describe = "not found on PATH";
        return o;
      }
      auto has = [&](int x) { return std::find(d.begin(), d.end(), x) != d.end(); };
      bool fail = d.size() >= max_size;
      for (int c : bad_cards) fail = fail || has(c);
      for (auto [a, b] : bad_pairs) fail = fail || (has(a) && has(b));
      o.passed = !fail;
      o.exit_code = fail ? 1 : 0;
      o.describe = fail ? "exit status 1" : "exit status 0";
      o.tail = fail ? "boom\n" : "ok\n";
      return o;
    };
  }
};

std::vector<int> cards(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

TEST(IsolatePlanner, AllPassTestsEveryCardThenGrowsToAllOfThem) {
  Fake f;
  const auto r = run_isolation(cards(8), {}, f.runner());
  EXPECT_TRUE(r.bad_cards.empty());
  EXPECT_TRUE(r.bad_pairs.empty());
  EXPECT_TRUE(r.failing_set.empty());
  EXPECT_EQ(r.runs.size(), 8u + 7u) << "8 singles, then sets of 2..8";
  EXPECT_EQ(r.runs.back().devices, cards(8));
  EXPECT_EQ(r.runs.back().phase, Phase::grow);
}

TEST(IsolatePlanner, ACardThatFailsAloneIsNamedAndLeftOut) {
  Fake f;
  f.bad_cards = {3};
  const auto r = run_isolation(cards(8), {}, f.runner());
  EXPECT_EQ(r.bad_cards, std::vector<int>{3});
  EXPECT_TRUE(r.bad_pairs.empty());
  EXPECT_FALSE(r.all_fail);
  for (std::size_t i = 8; i < r.runs.size(); ++i) {
    EXPECT_EQ(std::count(r.runs[i].devices.begin(), r.runs[i].devices.end(), 3), 0) << "3 is not used again";
  }
}

TEST(IsolatePlanner, APairThatFailsTogetherIsFound) {
  Fake f;
  f.bad_pairs = {{2, 5}};
  const auto r = run_isolation(cards(8), {}, f.runner());
  ASSERT_EQ(r.bad_pairs.size(), 1u);
  EXPECT_EQ(r.bad_pairs[0], (std::pair<int, int>{2, 5}));
  EXPECT_TRUE(r.bad_cards.empty());
  EXPECT_TRUE(r.failing_set.empty());
  EXPECT_LT(r.runs.size(), 8u + 28u) << "fewer runs than every pair: " << r.runs.size();
  // The growing set went on without 5 up to the other seven cards.
  EXPECT_EQ(r.runs.back().devices, (std::vector<int>{0, 1, 2, 3, 4, 6, 7}));
}

TEST(IsolatePlanner, ASetSizeLimitIsReportedAsTheSet) {
  Fake f;
  f.max_size = 4;
  const auto r = run_isolation(cards(8), {}, f.runner());
  EXPECT_TRUE(r.bad_pairs.empty());
  EXPECT_EQ(r.failing_set, (std::vector<int>{0, 1, 2, 3}));
}

TEST(IsolatePlanner, EveryCardFailing) {
  Fake f;
  f.bad_cards = {0, 1, 2, 3};
  const auto r = run_isolation(cards(4), {}, f.runner());
  EXPECT_TRUE(r.all_fail);
  EXPECT_EQ(r.runs.size(), 4u) << "no multi-card runs";
}

TEST(IsolatePlanner, OtherStrategiesAndLimits) {
  Fake pairs;
  pairs.bad_pairs = {{1, 3}};
  IsolateOptions o;
  o.strategy = Strategy::pairs;
  const auto r = run_isolation(cards(4), o, pairs.runner());
  EXPECT_EQ(r.runs.size(), 4u + 6u + 1u) << "singles, all 6 pairs, then all";
  EXPECT_EQ(r.bad_pairs.size(), 1u);
  Fake single;
  o.strategy = Strategy::single;
  EXPECT_EQ(run_isolation(cards(4), o, single.runner()).runs.size(), 4u);
  Fake many;
  o.strategy = Strategy::grow;
  o.max_runs = 5;
  const auto limited = run_isolation(cards(8), o, many.runner());
  EXPECT_TRUE(limited.stopped_early);
  EXPECT_EQ(limited.runs.size(), 5u);
  Fake missing;
  missing.cannot_start = true;
  const auto ns = run_isolation(cards(8), {}, missing.runner());
  EXPECT_TRUE(ns.not_started);
  EXPECT_EQ(ns.runs.size(), 1u) << "stops at the first run that cannot start";
}

TEST(IsolateReport, FindingsNameTheCardsAndRuns) {
  Fake f;
  f.bad_cards = {6};
  f.bad_pairs = {{0, 1}};
  IsolateReport report;
  report.result = run_isolation(cards(8), {}, f.runner());
  add_findings(report, builtin_kb());
  ASSERT_EQ(report.findings.size(), 2u);
  EXPECT_EQ(report.findings[0].entry->id, "isolate.card-fails-alone");
  EXPECT_EQ(report.findings[0].first().path, "ASCEND_RT_VISIBLE_DEVICES=6");
  EXPECT_EQ(report.findings[0].first().text, "boom");
  EXPECT_EQ(report.findings[1].entry->id, "isolate.pair-fails");
  Fake all;
  all.bad_cards = {0, 1};
  IsolateReport a;
  a.result = run_isolation(cards(2), {}, all.runner());
  add_findings(a, builtin_kb());
  ASSERT_EQ(a.findings.size(), 1u);
  EXPECT_EQ(a.findings[0].entry->id, "isolate.all-fail") << "not one finding per card";
}

TEST(IsolateRunner, PlaceholdersAndTails) {
  EXPECT_EQ(expand_placeholders({"run", "--nproc={n}", "{devices}", "dev{first}"}, {2, 5}),
            (std::vector<std::string>{"run", "--nproc=2", "2,5", "dev2"}));
  EXPECT_EQ(last_lines("a\nb\n\nc\nd\n", 2), "c\nd\n");
  EXPECT_EQ(last_lines("", 3), "");
}

}  // namespace
}  // namespace npu_doctor::isolate
