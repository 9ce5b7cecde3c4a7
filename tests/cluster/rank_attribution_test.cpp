#include <gtest/gtest.h>

#include "diagnosis/cluster.hpp"

namespace npu_doctor {
namespace {

InputReport at(std::string path) {
  InputReport r;
  r.path = std::move(path);
  return r;
}

TEST(RankAttribution, FromCommonPathLayouts) {
  InputStore in = {at("job/node-2/rank_17/train.log"), at("logs/rank-3.log"), at("collect/worker-5.txt"),
                                 at("bundle.tar.gz:host-a/rank_0/plog/plog-1_20250101000000000.log"),
                                 at("logs/framework.log")};
  EXPECT_TRUE(attribute_ranks(in, {}).empty());
  EXPECT_EQ(in[0].rank.value_or(-1), 17);
  EXPECT_EQ(in[0].host, "node-2");
  EXPECT_EQ(in[1].rank.value_or(-1), 3);
  EXPECT_EQ(in[2].rank.value_or(-1), 5);
  EXPECT_EQ(in[3].rank.value_or(-1), 0);
  EXPECT_EQ(in[3].host, "host-a");
  EXPECT_FALSE(in[4].rank);
}

TEST(RankAttribution, UserPatternComesFirstAndBadPatternsAreReported) {
  InputStore in = {at("out/srv07-npu3.log")};
  const auto errors = attribute_ranks(in, {R"((?<host>srv\d+)-npu(?<rank>\d+))", "((unclosed"});
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("does not compile"), std::string::npos);
  EXPECT_EQ(in[0].rank.value_or(-1), 3);
  EXPECT_EQ(in[0].host, "srv07");
}

TEST(RankAttribution, FromTheLinesWhenThePathSaysNothing) {
  InputStore in = {at("out/a.log")};
  TimelineEvent e1, e2, e3;
  e1.rank = 6;
  e2.rank = 6;
  e3.captures = {{"rank", "2"}};
  in.update(0, [&](InputReport& r) { r.timeline.events = {e1, e2, e3}; });
  attribute_ranks(in, {});
  EXPECT_EQ(in[0].rank.value_or(-1), 6);
}

}  // namespace
}  // namespace npu_doctor
