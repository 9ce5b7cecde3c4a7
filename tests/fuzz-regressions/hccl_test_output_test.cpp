// Found by the fuzz harness `hccl-test` in the long campaign (docs/hardening.md): a line
// starting with a run of ~100 digits that is no table row (fixtures/hccl-test-timeout-*,
// the exact input) took seconds, and 4,000 digits would take hours: the row regex let
// the separators between the three numbers be empty, so std::regex tried every split of
// the digits among them. The test runs the real command on the exact input and on a
// longer digit run under a time limit, and checks that real rows still parse.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "hccl/hccl_test_output.hpp"
#include "hardening/bounded_run.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

std::string found_input() {
  return testing::read_file(std::string(NPU_DOCTOR_FUZZ_REGRESSION_FIXTURES) + "/hccl-test-timeout-59c964db");
}

TEST(FuzzRegressionHcclTestOutput, ADigitRunThatIsNoRowEndsInTime) {
  testing::TempDir t;
  const auto found = t.write("found.txt", found_input());
  const auto longer = t.write("longer.txt", std::string(4000, '3') + "108:64 | 17630.20 | 3.80642 | success\n");
  for (const auto& path : {found, longer}) {
    testing::BoundedRun run;
    run.args = {"hccl", "test-output", "-f", "json", path.string()};
    run.timeout = std::chrono::seconds(30);  // was seconds for the first, hours for the second
    const testing::BoundedResult r = testing::run_bounded(run);
    EXPECT_FALSE(r.timed_out) << path;
    EXPECT_EQ(r.signal, 0) << path;
  }
  const auto out = hccl::parse_hccl_test_output("found.txt", found_input());
  EXPECT_TRUE(out.rows.empty()) << "no line of it is a table row";
}

TEST(FuzzRegressionHcclTestOutput, RowsWithPipesOrBlanksStillParse) {
  const auto out = hccl::parse_hccl_test_output(
      "a.txt",
      "data_size(Bytes): | aveg_time(us): | alg_bandwidth(GB/s): | check_result:\n"
      "8192            | 87.36         | 0.09378             | success\n"
      "16384 90.10 0.18184 success\n"
      "32768|95.5|3.4e-01|failed\n"
      "65536  100  0.6  NULL\n"
      "81926733 17630.20\n");
  ASSERT_EQ(out.rows.size(), 4u);
  EXPECT_EQ(out.rows[0].data_size, 8192u);
  EXPECT_DOUBLE_EQ(out.rows[1].avg_time_us, 90.10);
  EXPECT_DOUBLE_EQ(out.rows[2].alg_bandwidth, 0.34);
  EXPECT_EQ(out.rows[2].check, "failed");
  EXPECT_EQ(out.rows[3].check, "NULL");
}

// Found by the CI smoke run of the same harness (2026-12-01): a row whose bandwidth is out
// of a double's range ("1e999") made std::stod throw, which aborted the fuzzer and made the
// command an internal error (exit 3). Such a line is no row; the real rows around it count.
TEST(FuzzRegressionHcclTestOutput, ANumberOutOfRangeIsNoRow) {
  const std::string text =
      "all_reduce_test\n"
      "8 1.0 1e999 success\n"
      "32 1.5 0.25 success\n";
  const auto out = hccl::parse_hccl_test_output("a.txt", text);
  ASSERT_EQ(out.rows.size(), 1u);
  EXPECT_EQ(out.rows[0].data_size, 32u);
  testing::TempDir t;
  testing::BoundedRun run;
  run.args = {"hccl", "test-output", "-f", "json", t.write("big.txt", text).string()};
  run.timeout = std::chrono::seconds(30);
  const testing::BoundedResult r = testing::run_bounded(run);
  EXPECT_EQ(r.signal, 0);
  EXPECT_NE(r.exit_code, 3) << r.err;
}

}  // namespace
}  // namespace npu_doctor
