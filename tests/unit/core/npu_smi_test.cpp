#include <gtest/gtest.h>

#include "npu_doctor/parse/npu_smi.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

NpuSmiInfo parse_fixture(const std::string& name) {
  std::string error;
  auto info = parse_npu_smi_info(testing::read_file(testing::fixtures_dir() + "/npu-smi/" + name), &error);
  EXPECT_TRUE(info) << error;
  return info.value_or(NpuSmiInfo{});
}

TEST(NpuSmiInfo, OneChipPerNpu) {
  const auto info = parse_fixture("info-910-a1.txt");
  EXPECT_EQ(info.tool_version, "23.0.rc3");
  EXPECT_EQ(info.driver_version, "23.0.rc2.3");
  ASSERT_EQ(info.chips.size(), 2u);
  const auto& c = info.chips[0];
  EXPECT_EQ(c.npu, 0);
  EXPECT_EQ(c.chip, 0);
  EXPECT_EQ(c.name, "910A");
  EXPECT_EQ(c.health, "OK");
  EXPECT_DOUBLE_EQ(c.power_w.value(), 73.4);
  EXPECT_EQ(c.temp_c.value(), 44);
  EXPECT_EQ(c.bus_id, "0000:C1:00.0");
  EXPECT_EQ(c.utilization_percent.value(), 0);
  EXPECT_EQ(c.memory_used_mb.value(), 4565u);
  EXPECT_EQ(c.memory_total_mb.value(), 15137u);
  EXPECT_EQ(c.hbm_used_mb.value(), 30710u);  // "30710/ 32768": no space before the slash
  EXPECT_EQ(c.hbm_total_mb.value(), 32768u);
  EXPECT_EQ(info.chips[1].health, "Alarm");
  ASSERT_EQ(info.processes.size(), 1u);
  EXPECT_EQ(info.processes[0].pid, 139667);
  EXPECT_EQ(info.processes[0].name, "python");
  EXPECT_EQ(info.processes[0].memory_mb, 30780u);
}

TEST(NpuSmiInfo, AtlasA3TwoChipsPerNpuWithPhyId) {
  const auto info = parse_fixture("info-a3-910_93.txt");
  ASSERT_EQ(info.chips.size(), 4u);
  EXPECT_EQ(info.chips[1].npu, 0);
  EXPECT_EQ(info.chips[1].chip, 1);
  EXPECT_EQ(info.chips[1].phy_id.value(), 1);
  EXPECT_FALSE(info.chips[1].power_w) << "'-' is no value";
  EXPECT_EQ(info.chips[3].npu, 1);
  EXPECT_EQ(info.chips[3].phy_id.value(), 3);
  EXPECT_EQ(info.chips[3].health, "Critical");
  EXPECT_EQ(info.chips[2].hbm_used_mb.value(), 62007u);
  ASSERT_EQ(info.processes.size(), 2u);
  EXPECT_EQ(info.processes[1].chip, 1);
}

TEST(NpuSmiInfo, Ascend950Layout) {
  const auto info = parse_fixture("info-950.txt");
  ASSERT_EQ(info.chips.size(), 1u);
  EXPECT_EQ(info.chips[0].npu, 0);
  EXPECT_EQ(info.chips[0].name, "Ascend950");
  EXPECT_EQ(info.chips[0].utilization_percent.value(), 3);
  EXPECT_EQ(info.chips[0].hbm_total_mb.value(), 131072u);
}

TEST(NpuSmiInfo, IdleProcessTableAndGarbage) {
  const auto info = parse_fixture("info-910b4.txt");
  EXPECT_EQ(info.chips.size(), 2u);
  EXPECT_EQ(info.chips[1].health, "Warning");
  EXPECT_TRUE(info.processes.empty());
  std::string error;
  EXPECT_FALSE(parse_npu_smi_info("dcmi module initialize failed. ret is -8005\n", &error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(parse_npu_smi_info(""));
}

TEST(KeyValues, NpuSmiBoardAndVersionInfo) {
  const auto board = parse_key_values(testing::read_file(testing::fixtures_dir() + "/npu-smi/board-i0.txt"));
  EXPECT_EQ(value_of(board, "Software Version").value_or(""), "23.0.5");
  EXPECT_EQ(value_of(board, "Firmware Version").value_or(""), "7.1.0.7.220");
  EXPECT_EQ(value_of(board, "Compatibility").value_or(""), "OK");
  EXPECT_EQ(value_of(board, "PCIe Bus Info").value_or(""), "0000:61:00.0");
  const auto ver = parse_key_values("# version: 1.0\nVersion=24.1.rc1\ncompatible_version_fw=[7.0.0,7.2.99]\n");
  EXPECT_EQ(value_of(ver, "Version").value_or(""), "24.1.rc1");
  EXPECT_EQ(value_of(ver, "compatible_version_fw").value_or(""), "[7.0.0,7.2.99]");
  EXPECT_FALSE(value_of(ver, "missing"));
}

}  // namespace
}  // namespace npu_doctor
