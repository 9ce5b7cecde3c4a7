// split_incidents: which inputs are one failing run (src/diagnosis/incidents.hpp).
#include <gtest/gtest.h>

#include <cstdio>

#include "diagnosis/incidents.hpp"

namespace npu_doctor {
namespace {

Timestamp at(const std::string& plog_time) {
  auto t = find_timestamp(plog_time);
  EXPECT_TRUE(t && t->has_year) << plog_time;
  return t.value_or(Timestamp{});
}

InputReport input(const std::string& path, const char* first = nullptr, const char* last = nullptr,
                  std::optional<int> rank = std::nullopt, const std::string& host = {}) {
  InputReport r = input_report(path, "file");
  r.bytes = 100;
  r.lines = 3;
  if (first) r.timeline.first_time = at(first);
  if (last) r.timeline.last_time = at(last);
  r.rank = rank;
  r.host = host;
  return r;
}

std::vector<std::vector<uint32_t>> groups(const std::vector<Incident>& incidents) {
  std::vector<std::vector<uint32_t>> out;
  for (const auto& i : incidents) out.push_back(i.inputs.to_vector());
  return out;
}

using Groups = std::vector<std::vector<uint32_t>>;

TEST(PlogName, PidAndStartTimeFromTheFileName) {
  const auto p = parse_plog_name("/home/u/ascend/log/debug/plog/plog-2789701_20240115093012345.log");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->pid, 2789701);
  ASSERT_TRUE(p->start);
  EXPECT_EQ(format_time(*p->start), "2024-01-15 09:30:12");
  EXPECT_EQ(p->start->micros % 1'000'000, 345'000);
  const auto d = parse_plog_name("logs.tar.gz:node-1/device-0/device-4242_20250514102200000.log");
  ASSERT_TRUE(d);
  EXPECT_EQ(d->pid, 4242);
  EXPECT_TRUE(d->start);
}

TEST(PlogName, OtherNamesAreNotPlogs) {
  EXPECT_FALSE(parse_plog_name("train.log"));
  EXPECT_FALSE(parse_plog_name("plog-abc_20240115093012345.log"));
  EXPECT_FALSE(parse_plog_name("plog-99999999999999999999999_20240115093012345.log"));  // pid out of range
  const auto no_time = parse_plog_name("plog-12_2024.log");
  ASSERT_TRUE(no_time);
  EXPECT_FALSE(no_time->start);
  EXPECT_FALSE(parse_plog_name("plog-12_20241315093012345.log")->start);  // month 13
}

TEST(FormatTime, CivilDateOfTheMicros) {
  EXPECT_EQ(format_time(at("2025-05-14-10:22:00.123.000")), "2025-05-14 10:22:00");
  EXPECT_EQ(format_time(at("2024-02-29-23:59:59.999.999")), "2024-02-29 23:59:59");
  EXPECT_EQ(format_time(at("1999-12-31-00:00:00.000.000")), "1999-12-31 00:00:00");
}

TEST(SplitIncidents, OneLogIsOneIncident) {
  const auto s = split_incidents({input("train.log", "2025-03-02-10:00:00.000.000", "2025-03-02-11:00:00.000.000")});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].inputs.to_vector(), std::vector<uint32_t>{0});
  EXPECT_EQ(format_time(*s[0].first_time), "2025-03-02 10:00:00");
  EXPECT_EQ(format_time(*s[0].last_time), "2025-03-02 11:00:00");
}

TEST(SplitIncidents, RunsMonthsApartAreSeparateAndOldestFirst) {
  const auto s = split_incidents({
      input("plog/plog-300_20250514102200000.log", nullptr, "2025-05-14-10:55:00.000.000"),
      input("plog/plog-100_20240115093012345.log", nullptr, "2024-01-15-09:58:59.000.000"),
  });
  EXPECT_EQ(groups(s), (Groups{{1}, {0}}));
  EXPECT_EQ(s[0].pids, std::vector<long>{100});
  EXPECT_EQ(s[1].pids, std::vector<long>{300});
}

TEST(SplitIncidents, RanksOfOneRunStayTogetherThoughTheirErrorsAreHalfAnHourApart) {
  // The plog holds only the error lines (ERROR level); the file name says when the
  // process started, so the culprit and the rank that timed out 1836 s later overlap.
  const auto s = split_incidents({
      input("plog-41877_20250514102200123.log", "2025-05-14-10:24:31.000.000", "2025-05-14-10:24:31.000.000", 0),
      input("plog-41878_20250514102200456.log", "2025-05-14-10:55:07.000.000", "2025-05-14-10:55:07.000.000", 1),
  });
  EXPECT_EQ(groups(s), (Groups{{0, 1}}));
  EXPECT_EQ(s[0].ranks, (std::vector<int>{0, 1}));
}

TEST(SplitIncidents, TheGapDecides) {
  const InputStore in = {
      input("a.log", "2025-01-01-10:00:00.000.000", "2025-01-01-10:10:00.000.000"),
      input("b.log", "2025-01-01-10:40:00.000.000", "2025-01-01-10:50:00.000.000"),
  };
  EXPECT_EQ(split_incidents(in).size(), 1u);  // 30 min apart, within the default hour
  IncidentOptions o;
  o.gap_us = 10LL * 60 * 1'000'000;
  EXPECT_EQ(split_incidents(in, o).size(), 2u);
}

TEST(SplitIncidents, TheSameRankInAnotherProcessIsARestart) {
  const auto s = split_incidents({
      input("plog-100_20250101100000000.log", nullptr, "2025-01-01-10:05:00.000.000", 3, "node-0"),
      input("plog-200_20250101100700000.log", nullptr, "2025-01-01-10:09:00.000.000", 3, "node-0"),
      input("plog-201_20250101100700000.log", nullptr, "2025-01-01-10:09:00.000.000", 4, "node-0"),
  });
  EXPECT_EQ(groups(s), (Groups{{0}, {1, 2}}));
}

// Another process for the same rank on another host is another member of the job (ranks are
// per host here, as plogs are), and a process's own second plog is no restart either.
TEST(SplitIncidents, TheSameRankOnAnotherHostOrInTheSameProcessIsNoRestart) {
  const auto s = split_incidents({
      input("n0/plog-100_20250101100000000.log", nullptr, "2025-01-01-10:05:00.000.000", 3, "node-0"),
      input("n1/plog-200_20250101100100000.log", nullptr, "2025-01-01-10:06:00.000.000", 3, "node-1"),
      input("n0/plog-100_20250101100200000.log", nullptr, "2025-01-01-10:07:00.000.000", 3, "node-0"),
      input("n1/plog-300_20250101100300000.log", nullptr, "2025-01-01-10:08:00.000.000", 3, "node-1"),
  });
  EXPECT_EQ(groups(s), (Groups{{0, 1, 2}, {3}}));
}

TEST(SplitIncidents, JobDirectoriesAreSeparateIncidentsEvenAtTheSameTime) {
  const auto s = split_incidents({
      input("logs.tar:job-a/rank_0/train.log", "2025-01-01-10:00:00.000.000", "2025-01-01-11:00:00.000.000"),
      input("logs.tar:job-b/rank_0/train.log", "2025-01-01-10:00:00.000.000", "2025-01-01-11:00:00.000.000"),
      input("logs.tar:job-a/rank_1/train.log", "2025-01-01-10:00:00.000.000", "2025-01-01-11:00:00.000.000"),
      input("jobs/run/train.log", "2025-01-01-10:00:00.000.000", "2025-01-01-11:00:00.000.000"),  // "jobs" is no job
  });
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(groups(s), (Groups{{0, 2}, {1}, {3}}));
  EXPECT_EQ(s[0].job, "job-a");
  EXPECT_EQ(s[2].job, "");
}

TEST(SplitIncidents, AnUndatedInputJoinsTheRunOfItsDirectory) {
  const auto s = split_incidents({
      input("logs/jan/plog/plog-1_20240101100000000.log", nullptr, "2024-01-01-10:30:00.000.000"),
      input("logs/may/plog/plog-2_20250501100000000.log", nullptr, "2025-05-01-10:30:00.000.000"),
      input("logs/jan/train.log"),  // no time stamp at all
      input("notes.txt"),           // shares nothing: the latest run
  });
  EXPECT_EQ(groups(s), (Groups{{0, 2}, {1, 3}}));
}

TEST(SplitIncidents, WithoutAnyDateEverythingIsOneIncident) {
  const auto s = split_incidents({input("a/train.log"), input("b/train.log")});
  EXPECT_EQ(groups(s), (Groups{{0, 1}}));
  EXPECT_FALSE(s[0].first_time);
}

TEST(SplitIncidents, InputsThatWereNotScannedBelongToNone) {
  std::vector<InputReport> in = {input("a.log", "2025-01-01-10:00:00.000.000"), input("core.bin")};
  in[1].status = InputStatus::skipped;
  in.push_back(input_report("/missing.log", "path", InputStatus::error, "no such file or directory"));
  EXPECT_EQ(groups(split_incidents(InputStore(in))), (Groups{{0}}));
  EXPECT_TRUE(split_incidents({}).empty());
}

// Past IncidentOptions::facts_in_memory the facts are sorted through the temporary file: the
// incidents (members, times, pids, ranks) are the same as when they are sorted in memory.
TEST(SplitIncidents, FactsSortedThroughTheFileGiveTheSameIncidents) {
  std::vector<InputReport> in;
  for (int i = 0; i < 60; ++i) {
    const std::string job = i % 3 == 0 ? "job-a" : "job-b";
    const std::string node = "node-" + std::to_string(i % 4);
    const int hour = 10 + (i % 5) * 2;  // runs two hours apart, more than the one-hour gap
    char stamp[64];
    std::snprintf(stamp, sizeof stamp, "2025-01-0%d-%02d:%02d:00.000.000", 1 + i % 2, hour, i % 50);
    const std::string pid = std::to_string(1000 + (i % 7));
    const std::string path = "logs/" + job + "/" + node + "/plog-" + pid + "_2025010" + std::to_string(1 + i % 2) + "000000000.log";
    if (i % 9 == 4) {
      in.push_back(input("logs/" + job + "/" + node + "/undated-" + std::to_string(i) + ".log"));
    } else {
      in.push_back(input(path, stamp, stamp, i % 8, node));
    }
  }
  const InputStore store(in);
  IncidentOptions small;
  small.facts_in_memory = 3;
  const auto through_file = split_incidents(store, small);
  const auto in_memory = split_incidents(store);
  ASSERT_GT(in_memory.size(), 3u);
  ASSERT_EQ(through_file.size(), in_memory.size());
  for (std::size_t k = 0; k < in_memory.size(); ++k) {
    EXPECT_EQ(through_file[k].inputs.to_vector(), in_memory[k].inputs.to_vector()) << k;
    EXPECT_EQ(through_file[k].job, in_memory[k].job) << k;
    EXPECT_EQ(through_file[k].pids, in_memory[k].pids) << k;
    EXPECT_EQ(through_file[k].ranks, in_memory[k].ranks) << k;
    EXPECT_EQ(dated(through_file[k].first_time), dated(in_memory[k].first_time)) << k;
    if (dated(in_memory[k].first_time)) {
      EXPECT_EQ(through_file[k].first_time->micros, in_memory[k].first_time->micros) << k;
    }
  }
}

}  // namespace
}  // namespace npu_doctor
