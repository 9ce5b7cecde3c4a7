#include <gtest/gtest.h>

#include "memory/npu_smi_watch.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

constexpr uint64_t MiB = 1u << 20;

NpuSmiInfo info(const std::string& name) {
  std::string error;
  auto i = parse_npu_smi_info(testing::read_file(testing::fixtures_dir() + "/npu-smi/" + name), &error);
  EXPECT_TRUE(i) << error;
  return i.value_or(NpuSmiInfo{});
}

TEST(MemWatchNpuSmi, OneChipPerNpuUsesTheNpuId) {
  const auto s = samples_from_npu_smi(info("info-910b4.txt"), 7, 1718000000.25);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].sample.device, 0);
  EXPECT_EQ(s[1].sample.device, 1);
  EXPECT_EQ(s[0].sample.allocated, 2873 * MiB);
  EXPECT_EQ(s[0].sample.capacity.value(), 65536 * MiB);
  EXPECT_EQ(s[0].sample.step, 7);
}

TEST(MemWatchNpuSmi, AtlasA3ChipsUseThePhyId) {
  const auto s = samples_from_npu_smi(info("info-a3-910_93.txt"), 0, 0);
  ASSERT_EQ(s.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s[static_cast<std::size_t>(i)].sample.device, i);
  EXPECT_EQ(s[2].npu, 1);
  EXPECT_EQ(s[2].chip, 0);
  EXPECT_EQ(s[2].sample.allocated, 62007 * MiB);
}

TEST(MemWatchNpuSmi, Ascend950AndOlder910Layouts) {
  const auto s950 = samples_from_npu_smi(info("info-950.txt"), 0, 0);
  ASSERT_EQ(s950.size(), 1u);
  EXPECT_EQ(s950[0].sample.allocated, 11520 * MiB);
  EXPECT_EQ(s950[0].sample.capacity.value(), 131072 * MiB);
  const auto s910 = samples_from_npu_smi(info("info-910-a1.txt"), 0, 0);
  ASSERT_EQ(s910.size(), 2u);
  EXPECT_EQ(s910[0].sample.allocated, 30710 * MiB);
}

TEST(MemWatchNpuSmi, LinesAreSamplesTheAnalyzerReads) {
  const auto s = samples_from_npu_smi(info("info-a3-910_93.txt"), 12, 1718000000.123456);
  const std::string line = watch_line(s[3]);
  EXPECT_EQ(line,
            "{\"step\":12,\"time\":1718000000.123,\"device\":3,\"allocated\":64896368640,\"capacity\":68719476736,"
            "\"npu\":1,\"chip\":1,\"source\":\"npu-smi\"}");
  MemSample back;
  std::string why;
  ASSERT_EQ(parse_sample_line(line, back, why), LineKind::sample) << why;
  EXPECT_EQ(back.device, 3);
  EXPECT_EQ(back.allocated, 61890 * MiB);
  EXPECT_EQ(back.capacity.value(), 65536 * MiB);
}

TEST(MemWatchNpuSmi, CardsWithoutHbmReportDeviceMemory) {
  NpuSmiInfo i;
  NpuSmiChip c;
  c.npu = 0;
  c.memory_used_mb = 1024;
  c.memory_total_mb = 21527;
  c.hbm_used_mb = 0;
  c.hbm_total_mb = 0;
  i.chips.push_back(c);
  const auto s = samples_from_npu_smi(i, 0, 0);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].sample.capacity.value(), 21527 * MiB);
  i.chips[0].memory_total_mb.reset();
  EXPECT_TRUE(samples_from_npu_smi(i, 0, 0).empty()) << "no figures, no sample";
}

TEST(MemWatchNpuSmi, PollingAMissingOrBrokenTool) {
  testing::TempDir dir;
  CommandOptions o;
  o.path = dir.path().string();
  auto r = poll_npu_smi(SystemProbe("/", o), 0, 0);
  EXPECT_TRUE(r.samples.empty());
  EXPECT_NE(r.error.find("not found"), std::string::npos) << r.error;

  const auto garbage = dir.write("npu-smi", "#!/bin/sh\necho 'dcmi module initialize failed. ret is -8005' >&2\nexit 7\n");
  std::filesystem::permissions(garbage, std::filesystem::perms::owner_all);
  r = poll_npu_smi(SystemProbe("/", o), 0, 0);
  EXPECT_NE(r.error.find("exit status 7"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("dcmi module initialize failed"), std::string::npos) << r.error;

  o.path = dir.path().string() + ":/usr/bin:/bin";  // the stand-ins below need sh and sleep
  dir.write("npu-smi", "#!/bin/sh\necho 'hello'\n");
  r = poll_npu_smi(SystemProbe("/", o), 0, 0);
  EXPECT_NE(r.error.find("unrecognised output"), std::string::npos) << r.error;

  dir.write("npu-smi", "#!/bin/sh\nsleep 30\n");
  o.timeout = std::chrono::milliseconds(300);
  r = poll_npu_smi(SystemProbe("/", o), 0, 0);
  EXPECT_NE(r.error.find("timed out"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace npu_doctor::mem
