// MemberList and IncidentCursor: an incident's inputs kept as runs (src/diagnosis/member_list.hpp).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "diagnosis/member_list.hpp"

namespace npu_doctor {
namespace {

MemberList list_of(const std::vector<uint32_t>& indices) {
  MemberList m;
  for (uint32_t i : indices) m.push_back(i);
  return m;
}

// Every shape of gap and run, to the top of the 32-bit range: what goes in comes out, and
// contains() agrees with the set for members, their neighbours and the space between.
TEST(MemberList, WhatIsAddedIsReadBackAndFoundWhateverTheRuns) {
  std::mt19937 rng(7);
  for (int round = 0; round < 200; ++round) {
    std::vector<uint32_t> in;
    uint64_t next = round % 3 == 0 ? 0 : rng() % 1000;
    const int count = static_cast<int>(rng() % 400);
    for (int k = 0; k < count && next <= std::numeric_limits<uint32_t>::max(); ++k) {
      in.push_back(static_cast<uint32_t>(next));
      const unsigned shape = rng() % 4;
      next += shape == 0 ? 1 : shape == 1 ? 2 : shape == 2 ? 1 + rng() % 300 : 1 + (uint64_t{rng()} << 3);
    }
    if (round == 5) in = {std::numeric_limits<uint32_t>::max() - 2, std::numeric_limits<uint32_t>::max() - 1,
                          std::numeric_limits<uint32_t>::max()};
    const MemberList m = list_of(in);
    ASSERT_EQ(m.size(), in.size()) << round;
    ASSERT_EQ(m.to_vector(), in) << round;
    ASSERT_EQ(m.empty(), in.empty());
    if (!in.empty()) {
      EXPECT_EQ(m.front(), in.front()) << round;
    }
    const std::set<uint32_t> set(in.begin(), in.end());
    for (uint32_t i : in) {
      ASSERT_TRUE(m.contains(i)) << round << " " << i;
      for (uint32_t near : {i - 1, i + 1}) ASSERT_EQ(m.contains(near), set.count(near) == 1) << round << " " << near;
    }
    for (int probe = 0; probe < 300; ++probe) {
      const uint32_t i = static_cast<uint32_t>(rng() % (in.empty() ? 1000 : uint64_t{in.back()} + 2));
      ASSERT_EQ(m.contains(i), set.count(i) == 1) << round << " " << i;
    }
  }
}

TEST(MemberList, AMillionMembersOfOneRunCostAFewBytesAndInterleavedRunsLessThanAnArray) {
  MemberList one_run;
  for (uint32_t i = 0; i < 1'000'000; ++i) one_run.push_back(i);
  EXPECT_EQ(one_run.size(), 1'000'000u);
  EXPECT_LT(one_run.memory_bytes(), 64u);
  EXPECT_TRUE(one_run.contains(999'999));
  EXPECT_FALSE(one_run.contains(1'000'000));
  // Two runs interleaved input by input (every other index): two bytes a member, a quarter
  // more of growth room and the checkpoints, where a plain array takes 4 bytes and up to as
  // much again.
  MemberList every_other;
  for (uint32_t i = 1; i < 2'000'000; i += 2) every_other.push_back(i);
  EXPECT_EQ(every_other.size(), 1'000'000u);
  EXPECT_LE(every_other.memory_bytes(), 3'000'000u);
  EXPECT_GE(every_other.memory_bytes(), 2'000'000u);
  EXPECT_TRUE(every_other.contains(1'999'999));
  EXPECT_FALSE(every_other.contains(1'000'000));
}

TEST(MemberList, MembersOutOfOrderAreRefused) {
  MemberList m{3, 4, 9};
  EXPECT_THROW(m.push_back(9), std::invalid_argument);
  EXPECT_THROW(m.push_back(2), std::invalid_argument);
  EXPECT_EQ(m.to_vector(), (std::vector<uint32_t>{3, 4, 9}));
  EXPECT_THROW(MemberList().front(), std::out_of_range);
}

TEST(MemberList, ListsAreEqualWhenTheirMembersAre) {
  EXPECT_EQ((MemberList{1, 2, 3, 7}), list_of({1, 2, 3, 7}));
  EXPECT_FALSE((MemberList{1, 2, 3, 7}) == (MemberList{1, 2, 3, 8}));
  EXPECT_FALSE((MemberList{1, 2}) == (MemberList{1, 2, 3}));
  EXPECT_EQ(MemberList(), MemberList());
}

// Every input of a report, without a list: one run from 0.
TEST(MemberList, TheFirstNIndicesAreOneRun) {
  EXPECT_EQ(MemberList::first(3), (MemberList{0, 1, 2}));
  EXPECT_EQ(MemberList::first(5).to_vector(), (std::vector<uint32_t>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(MemberList::first(0).empty());
  EXPECT_LT(MemberList::first(1'000'000).memory_bytes(), 64u);
  MemberList grown = MemberList::first(2);
  grown.push_back(7);
  EXPECT_EQ(grown.to_vector(), (std::vector<uint32_t>{0, 1, 7}));
}

// Three incidents' lists and inputs in none: asked in input order, each index is placed in
// the list that holds it.
TEST(IncidentCursor, EachInputAskedInOrderIsPlacedInTheListThatHoldsIt) {
  const MemberList a{0, 1, 2, 10, 11};
  const MemberList b{3, 5, 7, 9, 12};
  const MemberList c{4, 6, 8};
  const MemberList empty;
  IncidentCursor cursor({&a, &empty, &b, &c});
  const std::vector<int> want = {0, 0, 0, 2, 3, 2, 3, 2, 3, 2, 0, 0, 2, -1, -1};
  for (uint32_t i = 0; i < want.size(); ++i) {
    const auto k = cursor.list_of(i);
    if (want[i] < 0) {
      EXPECT_FALSE(k) << i;
    } else {
      EXPECT_EQ(k, std::optional<std::size_t>(static_cast<std::size_t>(want[i]))) << i;
    }
  }
  IncidentCursor skipping({&a, &b});
  EXPECT_EQ(skipping.list_of(9), std::optional<std::size_t>(1)) << "indices asked need not be consecutive";
  EXPECT_EQ(skipping.list_of(11), std::optional<std::size_t>(0));
}

}  // namespace
}  // namespace npu_doctor
