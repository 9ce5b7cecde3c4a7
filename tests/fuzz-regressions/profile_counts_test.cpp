// Found by the fuzz harness `msprof-csv` in CI (docs/hardening.md): a Count cell of
// 1.66667e+33 in op_statistic_*.csv was converted to uint64_t, a float-to-integer
// conversion out of range: undefined behaviour (UBSan: "outside the range of representable
// values of type 'unsigned long'"). Counts now saturate; each test feeds such a table to
// the same reader.
#include <gtest/gtest.h>

#include <cstdint>

#include "profile/profile_accumulator.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::profile_detail {
namespace {

TEST(FuzzRegressionProfileCounts, OpStatisticCountTooLargeSaturates) {
  testing::StringStream in(
      "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us)\n"
      "0,MatMul,AI_CORE,1.66667e+33,10,1,1,1\n"
      "0,MatMul,AI_CORE,5,10,1,1,1\n"
      "0,Add,AI_CORE,7,3,1,1,1\n");
  Accumulator acc;
  ProfileInput input;
  read_op_statistic(in, "op_statistic_0.csv", acc, input);
  const auto& table = acc.tables.at("op_statistic");
  EXPECT_EQ(table.by_type.at({"MatMul", "AI_CORE"}).count, UINT64_MAX);
  EXPECT_EQ(table.by_type.at({"Add", "AI_CORE"}).count, 7u);
  EXPECT_EQ(input.rows, 3u);
}

TEST(FuzzRegressionProfileCounts, ApiStatisticCompileCallsSaturate) {
  testing::StringStream in(
      "Device_id,Level,API Name,Time(us),Count,Avg(us),Min(us),Max(us)\n"
      "0,acl,aclopCompileAndExecute,100,1e300,1,1,1\n"
      "0,acl,aclopCompile,50,3,1,1,1\n");
  Accumulator acc;
  ProfileInput input;
  read_api_statistic(in, "api_statistic.csv", acc, input);
  EXPECT_EQ(acc.compile.compile_calls, UINT64_MAX);
  EXPECT_DOUBLE_EQ(acc.compile.compile_us, 150.0);
}

}  // namespace
}  // namespace npu_doctor::profile_detail
