// Found by the fuzz harnesses `node-summary` and `atc` (docs/hardening.md): a JSON number
// too large for the integer it is read into (1e300 as an int) was converted with
// nlohmann's get<T>(), a float-to-integer conversion out of range: undefined behaviour
// (UBSan: "1e+300 is outside the range of representable values of type 'int'"); on x86-64
// it silently gave INT_MIN. Each test feeds the exact input to the same parser.
#include <gtest/gtest.h>

#include "compile/atc_outputs.hpp"
#include "json_number.hpp"
#include "fleet/node_summary.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(FuzzRegressionJsonNumber, OutOfRangeFractionsAndNonNumbersAreNullopt) {
  using nlohmann::json;
  EXPECT_EQ(json_number<int>(json::parse("1e300")), std::nullopt);
  EXPECT_EQ(json_number<int>(json::parse("-1e300")), std::nullopt);
  EXPECT_EQ(json_number<int64_t>(json::parse("9223372036854775808.0")), std::nullopt);  // 2^63
  EXPECT_EQ(json_number<uint64_t>(json::parse("-1")), std::nullopt);
  EXPECT_EQ(json_number<int>(json::parse("4294967296")), std::nullopt);
  EXPECT_EQ(json_number<int>(json::parse("2.5")), std::nullopt);
  EXPECT_EQ(json_number<int>(json::parse("\"7\"")), std::nullopt);
  EXPECT_EQ(json_number<int>(json::parse("7.0")), 7);
  EXPECT_EQ(json_number<int>(json::parse("-2147483648")), -2147483648LL);
  EXPECT_EQ(json_number<uint64_t>(json::parse("18446744073709551615")), UINT64_MAX);
  EXPECT_EQ(json_number<int64_t>(json::parse("-9223372036854775808.0")), INT64_MIN);
  EXPECT_EQ(json_number<double>(json::parse("1e300")), 1e300);
}

TEST(FuzzRegressionNodeSummary, NumberTooLargeForItsFieldIsMalformed) {
  for (const char* text : {R"({"schema":"npu-doctor/node-summary/v1","node":1e300})",
                           R"({"schema":"npu-doctor/node-summary/v1","host":"a","node":0,"status":"ok","inputs":[{"path":"x","bytes":-1e30}]})",
                           R"({"schema":"npu-doctor/node-summary/v1","node":4294967296})"}) {
    NodeSummary out;
    std::string error;
    std::vector<std::string> warnings;
    EXPECT_FALSE(parse_node_summary(text, testing::builtin_kb(), out, error, warnings)) << text;
    EXPECT_NE(error.find("out of range"), std::string::npos) << text << ": " << error;
  }
}

TEST(FuzzRegressionAtcCheckResult, FloatCountsAndCodesOutOfRangeAreIgnored) {
  AtcCheckReport report;
  std::vector<AtcOperator> failed;
  std::string err;
  ASSERT_TRUE(atc_detail::parse_check_result(
      R"({"name":"m","result":"failed","total":1e300,"pass":2.0,"fail":-1e19,)"
      R"("op":[{"name":"g","type":"Conv","result":"failed","cause":[{"code":1e300,"message":"boom"}]}]})",
      "check_result.json", report, failed, err));
  EXPECT_EQ(report.total, 0);
  EXPECT_EQ(report.pass, 2);
  EXPECT_EQ(report.fail, 0);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].reason, "boom");
}

}  // namespace
}  // namespace npu_doctor
