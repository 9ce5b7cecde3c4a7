// Found by the fuzz harness `line-info` in a CI smoke run (docs/hardening.md): the plog
// pid in "[ERROR] RUNTIME(<pid>,python):" was accumulated digit by digit into a long with
// no bound, so a run of digits overflowed it (UBSan: "signed integer overflow:
// 2789333333333333333 * 10 cannot be represented in type 'long'"). The test feeds the
// exact line to the same parser.
#include <gtest/gtest.h>

#include <string>

#include "npu_doctor/line_info.hpp"

namespace npu_doctor {
namespace {

TEST(FuzzRegressionLineInfo, APidTooLongForALongIsNoPid) {
  const std::string found =
      "[ERROR] RUNTIME(27893333333333333333333333333333333333333333333333333333333333333333333333"
      "33701,python):2024-11-2,1-16:06:59.417.072"
      "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"
      "ction_FlashAttnNpu4.py -wl \"[3868]\"";
  const LineInfo info = parse_line_info(found);
  EXPECT_EQ(info.module, "RUNTIME");
  EXPECT_EQ(info.pid, std::nullopt);

  EXPECT_EQ(parse_line_info("[ERROR] RUNTIME(9223372036854775807,python):x").pid, 9223372036854775807L);
  EXPECT_EQ(parse_line_info("[ERROR] RUNTIME(9223372036854775808,python):x").pid, std::nullopt);
  EXPECT_EQ(parse_line_info("[ERROR] HCCL(2789701,python):2024-11-21-16:06:58.000.000 x").pid, 2789701L);
}

}  // namespace
}  // namespace npu_doctor
