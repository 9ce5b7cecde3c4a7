#include <gtest/gtest.h>

#include "npu_doctor/line_info.hpp"

namespace npu_doctor {
namespace {

TEST(LineInfo, PlogHeader) {
  const auto i = parse_line_info(
      "[ERROR] HCCL(3035894,python):2024-11-05-21:06:03.662.702 [adapter_tdt.cc:20][3035894][Open][Tsd]Open TsdClient failed");
  EXPECT_EQ(i.module, "HCCL");
  ASSERT_TRUE(i.pid);
  EXPECT_EQ(*i.pid, 3035894);
  ASSERT_TRUE(i.time);
  EXPECT_TRUE(i.time->has_year);
  EXPECT_EQ(i.time->text, "2024-11-05-21:06:03.662.702");
  // 2024-11-05 21:06:03.662702 UTC
  EXPECT_EQ(i.time->micros, 1730840763662702LL);
}

TEST(LineInfo, TorchNpuErrorLine) {
  const auto i = parse_line_info("[ERROR] 2025-10-11-15:09:34 (PID:2969, Device:0, RankID:101) ERR00100 PTA call acl api failed.");
  ASSERT_TRUE(i.time);
  EXPECT_EQ(i.time->text, "2025-10-11-15:09:34");
  EXPECT_EQ(*i.pid, 2969);
  EXPECT_EQ(*i.device, 0);
  EXPECT_EQ(*i.rank, 101);
  EXPECT_TRUE(i.module.empty());
}

TEST(LineInfo, NegativeRankAndDeviceAreAbsent) {
  const auto i = parse_line_info("[ERROR] 2025-08-05-08:05:26 (PID:504068, Device:-1, RankID:-1) ERR00100 PTA call acl api failed");
  EXPECT_FALSE(i.device);
  EXPECT_FALSE(i.rank);
}

TEST(LineInfo, ECodeHeaderAndPrefixes) {
  auto i = parse_line_info("(train pid=8464) EI0002: [PID: 13075] 2025-06-25-10:45:23.586.187 The wait execution");
  EXPECT_EQ(*i.pid, 13075);
  EXPECT_EQ(i.time->text, "2025-06-25-10:45:23.586.187");
  i = parse_line_info("[rank11]:[E313 06:55:06.502205450 compiler_depend.ts:1795] To avoid data inconsistency");
  EXPECT_EQ(*i.rank, 11);
  ASSERT_TRUE(i.time);
  EXPECT_FALSE(i.time->has_year);
}

TEST(LineInfo, OtherTimestampFormats) {
  EXPECT_EQ(find_timestamp("2025-04-16 13:15:44.054 | ERROR    | magic_pdf")->text, "2025-04-16 13:15:44.054");
  EXPECT_EQ(find_timestamp("[2024-05-21 11:58:06,441] torch.distributed")->text, "2024-05-21 11:58:06,441");
  EXPECT_EQ(find_timestamp("[170] [2025-12-12 12:10:10:654] torch.distributed")->text, "2025-12-12 12:10:10:654");
  const auto v = find_timestamp("ERROR 08-26 03:01:18 [engine.py:458] halGetDeviceInfo");
  ASSERT_TRUE(v);
  EXPECT_FALSE(v->has_year);
  EXPECT_EQ(v->text, "08-26 03:01:18");
  EXPECT_FALSE(find_timestamp("no time here 12345"));
  EXPECT_FALSE(find_timestamp("2024-13-45-99:99:99"));  // not a date
}

TEST(LineInfo, LogLevels) {
  EXPECT_EQ(find_level("[ERROR] HCCL(1,python):2024-01-01-00:00:00.000.000 x"), LineLevel::error);
  EXPECT_EQ(find_level("[INFO] ATRACE(860,):2025-12-31-07:47:21.427.775 watchdog"), LineLevel::info);
  EXPECT_EQ(find_level("[W1230 06:28:14.530030670 compiler_depend.ts:527] Warning: NPU warning, error code is 507014"),
            LineLevel::warning);
  EXPECT_EQ(find_level("[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048"), LineLevel::warning);
  EXPECT_EQ(find_level("[rank11]:[E313 06:55:06.502205450 compiler_depend.ts:1795] To avoid data inconsistency"),
            LineLevel::error);
  EXPECT_EQ(find_level("(VllmWorker rank=0 pid=123) WARNING 03-19 08:12:02 [x.py:1] Failed to import"), LineLevel::warning);
  EXPECT_EQ(find_level("ERROR 08-26 03:01:18 [engine.py:458] halGetDeviceInfo failed"), LineLevel::error);
  EXPECT_EQ(find_level("2025-04-16 13:15:44.054 | ERROR    | magic_pdf.tools.cli:parse_doc:134 - x"), LineLevel::error);
  EXPECT_EQ(find_level("/x/path_manager.py:82: UserWarning: Warning: The path owner does not match"), LineLevel::warning);
  // CANN's error-manager reports: the code's letter is the level.
  EXPECT_EQ(find_level("EI0002: [PID: 1] 2024-11-28-11:59:30.645.648 The wait execution"), LineLevel::error);
  EXPECT_EQ(find_level("EZ9999[PID: 12345] 2025-03-02-10:55:12.313.101 (EZ9999):  There are duplicate"), LineLevel::error);
  EXPECT_EQ(find_level("[PID: 1] 2025-03-02-10:55:12.313.101 Compilation_Error(E20001): Operator x"), LineLevel::error);
  EXPECT_EQ(find_level("W11001: [PID: 1] 2025-03-02-10:55:12.313.101 High-priority service"), LineLevel::warning);
  EXPECT_EQ(find_level("the [PID: 1] without a code"), LineLevel::unknown);
  // glog without brackets, and "ERROR:" at the start.
  EXPECT_EQ(find_level("E0302 10:55:12.313101 12345 ProcessGroupHCCL.cpp:1] x"), LineLevel::error);
  EXPECT_EQ(find_level("I0302 10:55:12.313101 12345 x.cc:1] ok"), LineLevel::info);
  EXPECT_EQ(find_level("ERROR: Invalid subcommand: foo."), LineLevel::error);
  // Python logging's default format, and the level word quoted at the start of a line.
  EXPECT_EQ(find_level("WARNING: Failed to import from vllm._C with ModuleNotFoundError(\"No module named 'vllm._C'\")"),
            LineLevel::warning);
  EXPECT_EQ(find_level("WARNING:root:NPU not found, falling back to CPU"), LineLevel::warning);
  EXPECT_EQ(find_level("INFO:__main__:loaded"), LineLevel::info);
  EXPECT_EQ(find_level("total WARNINGS: 3"), LineLevel::unknown);
  EXPECT_EQ(find_level("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"), LineLevel::unknown);
  EXPECT_EQ(find_level("the INFORMATION is in RuntimeError: x"), LineLevel::unknown);
}

TEST(LineInfo, FractionsAreMicroseconds) {
  const auto a = find_timestamp("2024-01-01-00:00:00.001.002");
  const auto b = find_timestamp("2024-01-01 00:00:00.001002");
  ASSERT_TRUE(a && b);
  EXPECT_EQ(a->micros, b->micros);
  EXPECT_EQ(a->micros % 1000000, 1002);
}

}  // namespace
}  // namespace npu_doctor
