// analyze_cluster on hand-made timelines: one test per rule of docs/cluster.md.
#include <gtest/gtest.h>

#include <deque>

#include "diagnosis/cluster.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

class Cluster : public ::testing::Test {
 protected:
  const Entry* entry(const std::string& id, Category c, std::vector<Category> symptom_of = {},
                     Role role = Role::cause) {
    Entry e;
    e.id = id;
    e.category = c;
    e.symptom_of = std::move(symptom_of);
    e.role = role;
    entries_.push_back(e);
    return &entries_.back();
  }
  InputReport& rank(int r, std::string host = "") {
    InputReport in;
    in.path = "rank_" + std::to_string(r) + "/train.log";
    in.rank = r;
    in.host = std::move(host);
    in.lines = 100;
    inputs_.push_back(in);
    return inputs_.back();
  }
  static void event(InputReport& in, const Entry* e, int64_t t_s, uint64_t line, std::string peer = "") {
    TimelineEvent ev;
    ev.entry = e;
    ev.line = line;
    ev.time = Timestamp{t_s * 1000000, true, "t" + std::to_string(t_s)};
    if (!peer.empty()) ev.captures.emplace_back("peer_rank", peer);
    in.timeline.events.push_back(ev);
    if (!in.timeline.first_time || in.timeline.first_time->micros > t_s * 1000000) in.timeline.first_time = ev.time;
    if (!in.timeline.last_time || in.timeline.last_time->micros < t_s * 1000000) in.timeline.last_time = ev.time;
  }
  std::optional<ClusterDecision> run(ClusterOptions o = {}) {
    return analyze_cluster(InputStore(std::vector<InputReport>(inputs_.begin(), inputs_.end())), testing::builtin_kb(), o);
  }
  std::deque<Entry> entries_;
  std::deque<InputReport> inputs_;
};

TEST_F(Cluster, OneRankIsNotACluster) {
  rank(0);
  EXPECT_FALSE(run());
}

TEST_F(Cluster, TheEarliestNonCommunicationErrorNamesTheCulprit) {
  const auto* oom = entry("oom", Category::memory);
  const auto* timeout = entry("EI0002", Category::communication, {Category::memory});
  event(rank(0), timeout, 2000, 10, "2");
  event(rank(1), timeout, 2001, 10);
  event(rank(2, "node-0"), oom, 100, 50);
  event(rank(3), timeout, 2002, 10, "2");
  const auto d = run();
  ASSERT_TRUE(d && d->culprit);
  EXPECT_EQ(d->culprit->rank, 2);
  EXPECT_EQ(d->culprit->host, "node-0");
  EXPECT_EQ(d->culprit->entry, oom);
  EXPECT_EQ(d->basis, ClusterDecision::Basis::first_error);
  EXPECT_EQ(d->confidence, "high");
  EXPECT_EQ(d->pointing_ranks, 2);
  EXPECT_EQ(d->symptom_ranks, (std::vector<int>{0, 1, 3}));
  EXPECT_NE(cluster_reason(*d, Lang::en).find("rank 2 (node-0)"), std::string::npos);
}

TEST_F(Cluster, ClockSkewMakesCloseErrorsCompeteAndPeersDecide) {
  const auto* aicore = entry("aicore", Category::aicore_exception);
  const auto* timeout = entry("EI0002", Category::communication, {Category::aicore_exception});
  event(rank(0), aicore, 100, 5);  // looks earlier, but by less than the skew
  event(rank(1), aicore, 102, 5);
  event(rank(2), timeout, 2000, 9, "1");
  event(rank(3), timeout, 2000, 9, "1");
  ClusterOptions o;
  o.skew_us = 5'000'000;
  auto d = run(o);
  ASSERT_TRUE(d && d->culprit);
  EXPECT_EQ(d->culprit->rank, 1) << "the rank others wait for wins a tie within the skew";
  EXPECT_EQ(d->competing_ranks, 1);
  EXPECT_EQ(d->confidence, "medium");
  o.skew_us = 1'000'000;  // with synchronised clocks the earlier one is the culprit
  d = run(o);
  EXPECT_EQ(d->culprit->rank, 0);
}

TEST_F(Cluster, ASilentRankNamedByThePeersIsTheCulprit) {
  const auto* timeout = entry("EI0002", Category::communication, {Category::memory});
  rank(0);  // killed: no events
  event(rank(1), timeout, 2000, 10, "0");
  event(rank(2), timeout, 2001, 10, "0");
  event(rank(3), timeout, 2001, 10);
  const auto d = run();
  ASSERT_TRUE(d && d->culprit);
  EXPECT_EQ(d->culprit->rank, 0);
  EXPECT_EQ(d->basis, ClusterDecision::Basis::pointed_at);
  EXPECT_EQ(d->culprit->entry->id, "cluster.silent-rank");
  EXPECT_EQ(d->confidence, "high");
}

TEST_F(Cluster, ASilentRankIsFoundByItsLastTimeStampWhenNobodyNamesIt) {
  const auto* info = entry("hint", Category::communication, {}, Role::hint);
  const auto* timeout = entry("EI0002", Category::communication, {Category::memory});
  event(rank(0), info, 50, 3);  // its log ends at t=50
  event(rank(1), info, 50, 3);
  event(rank(1), timeout, 2000, 10);
  event(rank(2), info, 50, 3);
  event(rank(2), timeout, 2001, 10);
  const auto d = run();
  ASSERT_TRUE(d && d->culprit);
  EXPECT_EQ(d->culprit->rank, 0);
  EXPECT_EQ(d->basis, ClusterDecision::Basis::silent);
  EXPECT_EQ(d->silent_ranks, (std::vector<int>{0}));
}

TEST_F(Cluster, AMissingRankIsNamedWhenTheWorldSizeIsKnown) {
  const auto* timeout = entry("EI0002", Category::communication, {Category::memory});
  event(rank(0), timeout, 2000, 10);
  event(rank(1), timeout, 2000, 10);
  ClusterOptions o;
  o.world_size = 3;
  const auto d = run(o);
  ASSERT_TRUE(d && d->culprit);
  EXPECT_EQ(d->culprit->rank, 2);
  EXPECT_EQ(d->basis, ClusterDecision::Basis::missing);
  EXPECT_EQ(d->missing_ranks, (std::vector<int>{2}));
}

TEST_F(Cluster, NoErrorsNoCulprit) {
  const auto* info = entry("hint", Category::communication, {}, Role::hint);
  event(rank(0), info, 10, 1);
  event(rank(1), info, 10, 1);
  const auto d = run();
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->culprit);
  EXPECT_EQ(cluster_reason(*d, Lang::en), "None of the 2 ranks reports an error.");
}

}  // namespace
}  // namespace npu_doctor
