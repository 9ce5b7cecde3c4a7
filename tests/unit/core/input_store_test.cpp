// The store of a run's input reports: every field comes back as written, whether the record
// is in memory or in the temporary file, and the memory it keeps stays within its budget.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "npu_doctor/input_store.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {
namespace {

// An input with every field set, different for each i.
InputReport full(int i, const Entry* entry) {
  InputReport in = input_report("/logs/node-" + std::to_string(i % 7) + "/rank_" + std::to_string(i) + "/plog.log", "archive member",
                                i % 3 == 0 ? InputStatus::partial : InputStatus::ok, i % 3 == 0 ? "truncated at byte 17" : "");
  in.bytes = static_cast<uint64_t>(i) * 1000 + 7;
  in.lines = static_cast<uint64_t>(i) * 3;
  if (i % 2 == 0) in.rank = i;
  in.host = "node-" + std::to_string(i % 7);
  in.timeline.first_time = Timestamp{1'700'000'000'000'000 + i, true, "2025-01-01-10:00:00.000." + std::to_string(i)};
  if (i % 4 != 0) in.timeline.last_time = Timestamp{-5 - i, false, "E0302 10:31:08"};
  for (int k = 0; k < i % 3; ++k) {
    TimelineEvent e;
    e.entry = entry;
    e.code = "EI" + std::to_string(9999 - k);
    e.line = static_cast<uint64_t>(k + 1) << 40;
    if (k == 0) e.time = Timestamp{42, true, "t"};
    if (k == 1) e.rank = 7;
    e.low_level = k == 1;
    e.specificity = k == 0 ? Specificity::words : Specificity::message;
    e.captures = {{"rank", std::to_string(k)}, {"peer", ""}};
    e.text = std::string(300, static_cast<char>('a' + k));
    in.timeline.events.push_back(e);
  }
  return in;
}

void expect_time(const CompactTime& want, const CompactTime& got) {
  ASSERT_EQ(want.has_value(), got.has_value());
  if (!want) return;
  EXPECT_EQ(want.micros(), got.micros());
  EXPECT_EQ(want.has_year(), got.has_year());
  EXPECT_EQ(want.text(), got.text());
}

void expect_same(const InputReport& want, const InputReport& got) {
  EXPECT_EQ(want.path, got.path);
  EXPECT_EQ(want.kind, got.kind);
  EXPECT_EQ(want.bytes, got.bytes);
  EXPECT_EQ(want.lines, got.lines);
  EXPECT_EQ(want.status, got.status);
  EXPECT_EQ(want.note, got.note);
  EXPECT_EQ(want.rank, got.rank);
  EXPECT_EQ(want.host, got.host);
  expect_time(want.timeline.first_time, got.timeline.first_time);
  expect_time(want.timeline.last_time, got.timeline.last_time);
  ASSERT_EQ(want.timeline.events.size(), got.timeline.events.size());
  for (std::size_t k = 0; k < want.timeline.events.size(); ++k) {
    const TimelineEvent& a = want.timeline.events[k];
    const TimelineEvent& b = got.timeline.events[k];
    EXPECT_EQ(a.entry, b.entry);
    EXPECT_EQ(a.code, b.code);
    EXPECT_EQ(a.line, b.line);
    ASSERT_EQ(a.time.has_value(), b.time.has_value());
    if (a.time) {
      EXPECT_EQ(a.time->micros, b.time->micros);
      EXPECT_EQ(a.time->text, b.time->text);
      EXPECT_EQ(a.time->has_year, b.time->has_year);
    }
    EXPECT_EQ(a.rank, b.rank);
    EXPECT_EQ(a.low_level, b.low_level);
    EXPECT_EQ(a.specificity, b.specificity);
    EXPECT_EQ(a.captures, b.captures);
    EXPECT_EQ(a.text, b.text);
  }
}

const Entry kEntry{};

TEST(InputStore, EveryFieldComesBackFromMemory) {
  InputStore store(std::size_t{64} << 20);
  for (int i = 0; i < 50; ++i) store.push_back(full(i, &kEntry));
  EXPECT_FALSE(store.spilled());
  ASSERT_EQ(store.size(), 50u);
  for (int i = 0; i < 50; ++i) expect_same(full(i, &kEntry), store[static_cast<std::size_t>(i)]);
}

TEST(InputStore, EveryFieldComesBackFromTheFileAndMemoryStaysWithinTheBudget) {
  InputStore store(std::size_t{4096});
  std::size_t most = 0;
  for (int i = 0; i < 2000; ++i) {
    store.push_back(full(i, &kEntry));
    most = std::max(most, store.memory_bytes());
  }
  EXPECT_TRUE(store.spilled());
  // One record over the budget at most, and one block of offsets (512 at this budget).
  EXPECT_LE(most, 4096u + 2000u + 512u * 8u);
  // In order (iteration), backwards, and at random: each read goes to the right record.
  int i = 0;
  for (const InputReport& in : store) expect_same(full(i++, &kEntry), in);
  EXPECT_EQ(i, 2000);
  for (std::size_t k = store.size(); k-- > 0;) EXPECT_EQ(store[k].path, full(static_cast<int>(k), &kEntry).path);
  for (std::size_t k = 0; k < store.size(); k += 13) {
    const std::size_t at = (k * 7919) % store.size();
    expect_same(full(static_cast<int>(at), &kEntry), store[at]);
  }
}

TEST(InputStore, ARecordLargerThanTheReadWindowComesBackWhole) {
  InputStore store(std::size_t{0});
  InputReport big = input_report(std::string(200'000, 'p'), "file");
  big.note = std::string(100'000, 'n');
  store.push_back(full(1, &kEntry));
  store.push_back(big);
  store.push_back(full(2, &kEntry));
  EXPECT_TRUE(store.spilled());
  expect_same(big, store[1]);
  expect_same(full(2, &kEntry), store[2]);
  expect_same(full(1, &kEntry), store[0]);
}

TEST(InputStore, ChangedRecordsReplaceTheOldOnes) {
  InputStore store(std::size_t{512});
  for (int i = 0; i < 100; ++i) store.push_back(full(i, &kEntry));
  store.update(3, [](InputReport& in) { in.path = "renamed"; });
  store.update_each([](InputReport& in) {
    if (in.rank) return false;
    in.rank = 1000;
    return true;
  });
  EXPECT_EQ(store.size(), 100u);
  EXPECT_EQ(store[3].path, "renamed");
  EXPECT_EQ(store[3].rank, 1000);
  EXPECT_EQ(store[4].rank, 4);
  EXPECT_EQ(store[5].rank, 1000);
  InputReport other = full(77, &kEntry);
  other.path = "other";
  store.replace(99, other);
  expect_same(other, store[99]);
  store.rewrite_paths([](std::string& path) {
    if (path == "renamed") path = "renamed again";
  });
  EXPECT_EQ(store[3].path, "renamed again");
  EXPECT_EQ(store[4].path, full(4, &kEntry).path);
  EXPECT_THROW(store.replace(100, other), std::out_of_range);
  EXPECT_THROW((void)store[100], std::out_of_range);
}

// Past one block of offsets (512 at a budget of 0) the offsets go to the file too: a count of
// inputs costs no memory, and a record whose offset is in the file can still be replaced.
TEST(InputStore, OffsetsInTheFileAreReadAndReplaced) {
  InputStore store(std::size_t{0});
  for (int i = 0; i < 2600; ++i) store.push_back(full(i, &kEntry));
  EXPECT_LE(store.memory_bytes(), 512u * 8u);
  store.update(7, [](InputReport& in) { in.path = "early"; });
  store.update(1030, [](InputReport& in) { in.path = "middle"; });
  store.update(2599, [](InputReport& in) { in.path = "late"; });
  EXPECT_EQ(store[7].path, "early");
  EXPECT_EQ(store[1030].path, "middle");
  EXPECT_EQ(store[2599].path, "late");
  std::size_t i = 0;
  for (const InputReport& in : store) {
    if (i != 7 && i != 1030 && i != 2599) {
      EXPECT_EQ(in.path, full(static_cast<int>(i), &kEntry).path) << i;
    }
    ++i;
  }
  EXPECT_EQ(i, 2600u);
  EXPECT_EQ(store[8].lines, 24u);
  EXPECT_EQ(store[6].lines, 18u);  // the page of offsets read back holds the replaced one
  EXPECT_EQ(store[7].path, "early");
}

TEST(InputStore, CopiesAreIndependentAndMovesTakeTheRecords) {
  InputStore a(std::size_t{256});
  for (int i = 0; i < 40; ++i) a.push_back(full(i, &kEntry));
  InputStore b = a;
  b.update(0, [](InputReport& in) { in.path = "b"; });
  EXPECT_EQ(a[0].path, full(0, &kEntry).path);
  EXPECT_EQ(b[0].path, "b");
  InputStore c = std::move(a);
  EXPECT_EQ(c.size(), 40u);
  EXPECT_EQ(a.size(), 0u);  // NOLINT(bugprone-use-after-move): a moved-from store is empty and usable
  a.push_back(full(5, &kEntry));
  EXPECT_EQ(a[0].path, full(5, &kEntry).path);
  c.clear();
  EXPECT_TRUE(c.empty());
  c.push_back(full(6, &kEntry));
  expect_same(full(6, &kEntry), c[0]);
  EXPECT_EQ(b.size(), 40u);
}

TEST(InputStore, ReadsFromSeveralThreadsSeeTheirOwnRecords) {
  InputStore store(std::size_t{1024});
  for (int i = 0; i < 3000; ++i) store.push_back(full(i, &kEntry));
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t k = static_cast<std::size_t>(t); k < store.size(); k += 4) {
        if (store[k].lines != k * 3) ++wrong[static_cast<std::size_t>(t)];
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong, (std::vector<int>{0, 0, 0, 0}));
}

// Without a usable temporary directory the records stay in memory: right, only unbounded.
TEST(InputStore, WithoutATemporaryFileTheRecordsStayInMemory) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", "/nonexistent/npu-doctor-test", 1);
  InputStore store(std::size_t{0});
  for (int i = 0; i < 30; ++i) store.push_back(full(i, &kEntry));
  if (old != nullptr) ::setenv("TMPDIR", saved.c_str(), 1);
  else ::unsetenv("TMPDIR");
  EXPECT_FALSE(store.spilled());
  EXPECT_GT(store.memory_bytes(), 0u);
  for (int i = 0; i < 30; ++i) expect_same(full(i, &kEntry), store[static_cast<std::size_t>(i)]);
}

TEST(InputStore, TheEnvironmentSetsTheDefaultBudget) {
  ::setenv("NPU_DOCTOR_INPUT_MEMORY", "0", 1);
  InputStore zero;
  ::setenv("NPU_DOCTOR_INPUT_MEMORY", "not a number", 1);
  InputStore fallback;
  ::unsetenv("NPU_DOCTOR_INPUT_MEMORY");
  zero.push_back(full(1, &kEntry));
  fallback.push_back(full(1, &kEntry));
  EXPECT_TRUE(zero.spilled());
  EXPECT_FALSE(fallback.spilled());
  expect_same(full(1, &kEntry), zero[0]);
}

}  // namespace
}  // namespace npu_doctor
