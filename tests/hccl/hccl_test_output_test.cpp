// HCCL Test output: the result table in both layouts, Open MPI prefixes, per-rank check
// failures, runs without results, and bandwidth far below the expected figure.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "hccl/hccl_test_check.hpp"
#include "hccl/hccl_test_output.hpp"
#include "hccl/input_file.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;
using testing::capture;
using testing::find;

HcclTestOutput parse_fixture(const std::string& name) {
  return parse_hccl_test_output(name, read_file(testing::fixture("hccl_test/" + name)));
}

TEST(HcclTestOutputParse, TheDocumentedTable) {
  const auto t = parse_fixture("all_reduce_8p.txt");
  EXPECT_TRUE(t.header_seen);
  EXPECT_EQ(t.test, "all_reduce_test");
  EXPECT_EQ(t.min_bytes, 8192u);
  EXPECT_EQ(t.max_bytes, 67108864u);
  EXPECT_EQ(t.iters, 20);
  ASSERT_EQ(t.rows.size(), 14u);
  EXPECT_EQ(t.rows[0].data_size, 8192u);
  EXPECT_DOUBLE_EQ(t.rows[0].avg_time_us, 764.55);
  EXPECT_EQ(t.rows[0].line, 4u);
  EXPECT_DOUBLE_EQ(*t.peak_bandwidth(), 23.76245);
  EXPECT_EQ(t.rows.back().check, "success");
}

TEST(HcclTestOutputParse, OldLayoutOpenMpiPrefixesAndFailures) {
  const auto old = parse_fixture("old_format_null.txt");
  EXPECT_EQ(old.test, "all_gather_test");
  ASSERT_EQ(old.rows.size(), 3u);
  EXPECT_EQ(old.rows[2].check, "NULL");
  const auto tagged = parse_fixture("check_failed_tagged.txt");
  ASSERT_EQ(tagged.rows.size(), 3u);
  EXPECT_EQ(tagged.rows[1].check, "failed");
  ASSERT_EQ(tagged.rank_failures.size(), 1u);
  EXPECT_EQ(tagged.rank_failures[0].rank, 3);
  EXPECT_EQ(tagged.rank_failures[0].data_size, 65536u);
  const auto none = parse_hccl_test_output("x", "hello\nworld\n");
  EXPECT_FALSE(none.looks_like_hccl_test());
}

TEST(HcclTestCheck, FailedChecksNameTheRanks) {
  const auto r = check_hccl_test({parse_fixture("check_failed_tagged.txt")}, {}, builtin_kb());
  const Finding* f = find(r, "net.hccl-test-check-failed");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 2u) << "the failed row and rank 3's line";
  EXPECT_EQ(capture(f->first(), "ranks"), "3");
  EXPECT_EQ(f->first().line, 5u);
}

TEST(HcclTestCheck, ARunWithoutResultsShowsItsErrors) {
  const auto r = check_hccl_test({parse_fixture("init_failed.txt")}, {}, builtin_kb());
  const Finding* f = find(r, "net.hccl-test-no-result");
  ASSERT_NE(f, nullptr);
  EXPECT_GE(f->evidence.size(), 2u);
  EXPECT_NE(f->first().text.find("topo exchange agent get socket timeout"), std::string::npos);
}

TEST(HcclTestCheck, LowBandwidthAgainstAGivenFigureOrTheMedian) {
  HcclTestOptions given;
  given.expect_bandwidth = 50;
  const auto r = check_hccl_test({parse_fixture("all_reduce_8p.txt")}, given, builtin_kb());
  const Finding* f = find(r, "net.hccl-test-low-bandwidth");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->first().line, 17u) << "the peak row";
  EXPECT_EQ(capture(f->first(), "ratio"), "48%");
  EXPECT_TRUE(check_hccl_test({parse_fixture("all_reduce_8p.txt")}, {}, builtin_kb()).findings.empty())
      << "one output and no figure: nothing to compare with";
  const auto m = check_hccl_test({parse_fixture("all_reduce_8p.txt"), parse_fixture("slow_node.txt")}, {}, builtin_kb());
  const Finding* slow = find(m, "net.hccl-test-low-bandwidth");
  ASSERT_NE(slow, nullptr);
  EXPECT_EQ(slow->count, 1u);
  EXPECT_EQ(slow->first().path, "slow_node.txt");
  EXPECT_EQ(capture(slow->first(), "expected_from"), "median of the outputs");
}

// bench/scale.sh rss: an output of 1,000,000 rows held every row (1.4 GB peak).
TEST(HcclTestOutputParse, MillionsOfRowsKeepABoundedTableButTheTruePeakAndEveryFailure) {
  std::string text = "data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:\n";
  const std::size_t n = 3 * HcclTestOutput::kKeptRows;
  for (std::size_t i = 0; i < n; ++i) {
    const bool last = i == n - 1;
    text += "8192 | 100.00 | " + std::string(last ? "42.50000" : "1.00000") + " | " + (i == n - 2 ? "failed" : "success") + "\n";
  }
  const auto t = parse_hccl_test_output("big.txt", text);
  EXPECT_EQ(t.rows_total, n);
  EXPECT_EQ(t.rows.size(), HcclTestOutput::kKeptRows + 1) << "the first rows and the failed one";
  EXPECT_EQ(t.rows.back().check, "failed");
  ASSERT_TRUE(t.peak_bandwidth());
  EXPECT_DOUBLE_EQ(*t.peak_bandwidth(), 42.5) << "the peak of all rows, not only the kept ones";
  EXPECT_EQ(t.peak_row->line, n + 1);
}

// `hccl test-output` streams each file (bench/scale.sh rss: a 36 MiB output held whole
// peaked at 74 MiB). The lines handed over, cut where too long, parse as the whole text does.
TEST(HcclTestOutputParse, StreamedLinesGiveWhatTheWholeTextGives) {
  npu_doctor::testing::TempDir dir;
  std::string text = read_file(testing::fixture("hccl_test/all_reduce_8p.txt"));
  text += std::string(10000, 'x') + " failed\r\n";  // one over-long line, skipped by both
  text += "no newline at the end: error";
  const std::string path = dir.write("out.txt", text).string();
  HcclTestOutputParser parser(path);
  std::vector<std::size_t> sizes;
  std::string error;
  ASSERT_TRUE(read_input_lines(path, 1u << 20, HcclTestOutputParser::kMaxLineBytes, [&](std::string_view line) {
    sizes.push_back(line.size());
    parser.add_line(line);
  }, error)) << error;
  const auto streamed = std::move(parser).finish();
  const auto whole = parse_hccl_test_output(path, text);
  EXPECT_EQ(streamed.rows.size(), whole.rows.size());
  EXPECT_EQ(streamed.rows_total, whole.rows_total);
  EXPECT_EQ(streamed.errors.size(), whole.errors.size());
  ASSERT_FALSE(streamed.errors.empty());
  EXPECT_EQ(streamed.errors.back().second, "no newline at the end: error");
  EXPECT_EQ(*std::max_element(sizes.begin(), sizes.end()), HcclTestOutputParser::kMaxLineBytes + 1)
      << "a long line is cut to the cap plus one byte";
}

TEST(HcclTestOutputParse, AStreamedInputOverTheCapIsAnErrorInPlainWords) {
  npu_doctor::testing::TempDir dir;
  const std::string path = dir.write("big.txt", std::string(5000, 'a')).string();
  std::string error;
  EXPECT_FALSE(read_input_lines(path, 4096, 4096, [](std::string_view) {}, error));
  EXPECT_NE(error.find("larger than 4 KiB"), std::string::npos) << error;
  EXPECT_FALSE(read_input_lines(dir.path().string(), 4096, 4096, [](std::string_view) {}, error));
  EXPECT_EQ(error, "is a directory");
}

}  // namespace
}  // namespace npu_doctor::hccl
