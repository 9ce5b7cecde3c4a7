// The shipped compatibility table: it loads without a problem, carries the pairs the
// issue and ascend-reference.md §5.5 name with their sources, and answers the questions
// the steps ask. Broken tables are reported with their line.
#include <gtest/gtest.h>

#include "checks/compatibility.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::checks {
namespace {

Version parsed(const char* s) { return *Version::parse(s); }

TEST(CheckCompatibility, TheShippedTableIsClean) {
  std::vector<TableProblem> problems;
  const auto table = CompatibilityTable::parse(npu_doctor::testing::read_file(NPU_DOCTOR_COMPATIBILITY_YAML), problems);
  for (const auto& p : problems) ADD_FAILURE() << "data/compatibility.yaml:" << p.line << ": " << p.message;
  EXPECT_EQ(table.torch_npu_rows().size(), 16u);
  EXPECT_EQ(table.cann_driver_rows().size(), 8u);
  EXPECT_EQ(table.driver_firmware_rows().size(), 4u);
  for (const auto& r : table.torch_npu_rows()) EXPECT_NE(table.source_text(r.source), r.source) << r.line;
  // The binary embeds the same file.
  EXPECT_EQ(CompatibilityTable::builtin().torch_npu_rows().size(), table.torch_npu_rows().size());
}

TEST(CheckCompatibility, IssuePairsAreThereAndMarkedUnverified) {
  const auto& t = CompatibilityTable::builtin();
  // "with CANN 7.0, driver 23.0.x goes with firmware 1.85.x, driver 6.3.x with 1.73.x"
  auto a = t.driver_firmware(parsed("23.0.5"), parsed("1.85.12"));
  EXPECT_EQ(a.verdict, Verdict::compatible);
  EXPECT_FALSE(a.verified);
  a = t.driver_firmware(parsed("6.3.0"), parsed("1.73.5.1.b080"));
  EXPECT_EQ(a.verdict, Verdict::compatible);
  a = t.driver_firmware(parsed("6.3.0"), parsed("7.1.0.7.220"));
  EXPECT_EQ(a.verdict, Verdict::incompatible);
  EXPECT_FALSE(a.verified);  // only an unverified row speaks for 6.3.x: a warning, not an error
}

TEST(CheckCompatibility, DriverFirmwarePairsFromPublicSamples) {
  const auto& t = CompatibilityTable::builtin();
  auto a = t.driver_firmware(parsed("23.0.5"), parsed("7.1.0.7.220"));  // npu-smi board sample, Compatibility OK
  EXPECT_EQ(a.verdict, Verdict::compatible);
  EXPECT_TRUE(a.verified);
  a = t.driver_firmware(parsed("24.1.rc1"), parsed("7.3.0.1.220"));
  EXPECT_EQ(a.verdict, Verdict::incompatible);
  EXPECT_TRUE(a.verified);
  EXPECT_NE(a.expected.find("[7.0.0,7.2.99]"), std::string::npos);
  EXPECT_EQ(t.driver_firmware(parsed("26.0.rc2"), parsed("7.8.0.1")).verdict, Verdict::unknown);
}

TEST(CheckCompatibility, CannNeedsAtLeastItsDriver) {
  const auto& t = CompatibilityTable::builtin();
  auto a = t.cann_driver(parsed("8.0.RC2"));
  ASSERT_NE(a.row, nullptr);
  EXPECT_TRUE(a.exact);
  EXPECT_EQ(a.row->driver, parsed("24.1.rc2"));
  // A CANN between rows needs at least the lower row's driver.
  a = t.cann_driver(parsed("8.5.0"));
  ASSERT_NE(a.row, nullptr);
  EXPECT_FALSE(a.exact);
  EXPECT_EQ(a.row->cann, parsed("8.2.RC1"));
  EXPECT_EQ(a.row->driver, parsed("25.2.0"));
  EXPECT_EQ(t.cann_driver(parsed("6.3.RC1")).row, nullptr);  // older than the table: unknown
}

TEST(CheckCompatibility, TorchNpuRows) {
  const auto& t = CompatibilityTable::builtin();
  const TorchNpuRow* r = t.torch_npu(parsed("2.1.0.post10"));
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->pytorch, parsed("2.1.0"));
  ASSERT_EQ(r->cann.size(), 1u);
  EXPECT_EQ(r->cann[0], parsed("8.0.0"));
  EXPECT_NE(t.torch_npu(parsed("2.3.1+cpu")), nullptr);            // local label ignored
  EXPECT_NE(t.torch_npu(parsed("2.4.0.dev20240601")), nullptr);    // a dev build of a release
  EXPECT_EQ(t.torch_npu(parsed("2.1.0.post8")), nullptr);          // not listed: unknown, not 2.1.0
  EXPECT_EQ(without_build_suffix("2.1.0.post8.dev20241009+cpu"), "2.1.0.post8");
}

TEST(CheckCompatibility, BrokenTablesAreReportedWithTheirLine) {
  std::vector<TableProblem> problems;
  CompatibilityTable::parse(
      "schema: npu-doctor/compatibility/v1\n"
      "sources: {a: text}\n"
      "driver_firmware:\n"
      "  - {driver: '23.0.*', firmware: ['7.1.*'], source: nowhere}\n"
      "cann_driver:\n"
      "  - {cann: 'eight', driver: '24.1.0', source: a}\n"
      "torch_npu:\n"
      "  - {torch_npu: '2.1.0', pytorch: '2.1.0', cann: [], source: a, extra: 1}\n",
      problems);
  ASSERT_GE(problems.size(), 4u);
  EXPECT_EQ(problems[0].line, 4);
  EXPECT_NE(problems[0].message.find("nowhere"), std::string::npos);
  EXPECT_EQ(problems[1].line, 6);
  bool unknown_key = false;
  for (const auto& p : problems) unknown_key = unknown_key || p.message.find("unknown key 'extra'") != std::string::npos;
  EXPECT_TRUE(unknown_key);

  problems.clear();
  const auto t = CompatibilityTable::parse("[not: a mapping", problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("YAML"), std::string::npos);
  EXPECT_TRUE(t.torch_npu_rows().empty());
  problems.clear();
  CompatibilityTable::parse("schema: other\nsources: {}\ndriver_firmware: []\ncann_driver: []\ntorch_npu: []\n", problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("schema"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor::checks
