// ExternalSorter: the values come back in order, once each, whether they stayed in memory or
// went through sorted runs in the temporary file.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "npu_doctor/external_sort.hpp"

namespace npu_doctor {
namespace {

struct Value {
  int64_t key;
  uint32_t id;
};

const auto kOrder = [](const Value& a, const Value& b) { return a.key != b.key ? a.key < b.key : a.id < b.id; };

std::vector<Value> sorted_through(std::size_t in_memory, const std::vector<Value>& values, std::size_t* runs = nullptr) {
  ExternalSorter<Value, decltype(kOrder)> sorter(in_memory, kOrder);
  for (const Value& v : values) sorter.push(v);
  if (runs != nullptr) *runs = sorter.runs_written();
  std::vector<Value> out;
  sorter.for_each_sorted([&](const Value& v) { out.push_back(v); });
  return out;
}

std::vector<Value> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int64_t> key(-50, 50);  // many equal keys: the id decides
  std::vector<Value> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back({key(rng), static_cast<uint32_t>(i)});
  return v;
}

void expect_same(const std::vector<Value>& want, const std::vector<Value>& got) {
  ASSERT_EQ(want.size(), got.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(want[i].key, got[i].key) << i;
    EXPECT_EQ(want[i].id, got[i].id) << i;
  }
}

TEST(ExternalSorter, BelowTheCountNothingLeavesMemory) {
  const auto values = random_values(100, 1);
  auto want = values;
  std::sort(want.begin(), want.end(), kOrder);
  std::size_t runs = 99;
  expect_same(want, sorted_through(1000, values, &runs));
  EXPECT_EQ(runs, 0u);
}

TEST(ExternalSorter, RunsInTheFileMergeIntoOneOrder) {
  // Runs of 7 and of 300 (more than one block of a run), a last run short or exactly full.
  for (const std::size_t in_memory : {std::size_t{7}, std::size_t{300}}) {
    for (const std::size_t n : {std::size_t{2000}, std::size_t{2100}, in_memory * 3}) {
      const auto values = random_values(n, static_cast<unsigned>(n + in_memory));
      auto want = values;
      std::sort(want.begin(), want.end(), kOrder);
      std::size_t runs = 0;
      expect_same(want, sorted_through(in_memory, values, &runs));
      EXPECT_GE(runs, n / in_memory) << "the values went through the file";
    }
  }
}

TEST(ExternalSorter, NoValuesNoVisit) {
  int visits = 0;
  ExternalSorter<Value, decltype(kOrder)> sorter(4, kOrder);
  sorter.for_each_sorted([&](const Value&) { ++visits; });
  EXPECT_EQ(visits, 0);
}

}  // namespace
}  // namespace npu_doctor
