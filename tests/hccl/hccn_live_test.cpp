// hccn_tool, npu-smi and isolate's device list asked through a Probe: what `hccl hccn`,
// `isolate` and `bundle` ask, answered here by a ReplayProbe holding recorded answers in
// the real formats, so the lookup order, the device numbering and the failure paths are
// tested without any process.
#include <gtest/gtest.h>

#include "hccl/hccn_live.hpp"
#include "bundle/probe_record.hpp"
#include "core/npu_smi_query.hpp"
#include "isolate/device_list.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

CommandResult answered(std::string out, int exit_code = 0) {
  CommandResult r;
  r.started = true;
  r.exit_code = exit_code;
  r.out = std::move(out);
  return r;
}

std::string npu_smi_fixture(const std::string& name) {
  return npu_doctor::testing::read_file(npu_doctor::testing::fixtures_dir() + "/npu-smi/" + name);
}

TEST(HccnLive, TheToolIsTakenFromPathThenFromTheDriverDirectory) {
  bundle::ProbeRecord on_path;
  on_path.programs["hccn_tool"] = "/usr/local/bin/hccn_tool";
  EXPECT_EQ(locate_hccn_tool(bundle::ReplayProbe(on_path)), "hccn_tool");

  bundle::ProbeRecord in_driver;
  in_driver.programs["hccn_tool"] = std::nullopt;
  FileInfo exe;
  exe.exists = true;
  exe.mode = 0755;
  in_driver.stats[kDriverHccnTool] = exe;
  EXPECT_EQ(locate_hccn_tool(bundle::ReplayProbe(in_driver)), kDriverHccnTool);

  in_driver.stats[kDriverHccnTool].mode = 0644;  // there, but not executable
  EXPECT_FALSE(locate_hccn_tool(bundle::ReplayProbe(in_driver)));
  EXPECT_FALSE(locate_hccn_tool(bundle::ReplayProbe(bundle::ProbeRecord{})));
}

TEST(HccnLive, DevicesAreThePhyIdsOfEveryChip) {
  auto a3 = parse_npu_smi_info(npu_smi_fixture("info-a3-910_93.txt"));
  ASSERT_TRUE(a3);
  const auto ids = hccn_device_ids(*a3);
  ASSERT_GE(ids.size(), 4u);
  EXPECT_EQ(ids[0], 0);
  EXPECT_EQ(ids[3], 3) << "Phy-IDs 0..N-1 over NPUs with two chips each";
  auto b4 = parse_npu_smi_info(npu_smi_fixture("info-910b4.txt"));
  ASSERT_TRUE(b4);
  EXPECT_EQ(hccn_device_ids(*b4), (std::vector<int>{0, 1})) << "no Phy-ID column: the NPU ids";
  EXPECT_EQ(hccn_argv("/opt/hccn_tool", 3, "-link"), (std::vector<std::string>{"/opt/hccn_tool", "-i", "3", "-link", "-g"}));
  EXPECT_EQ(hccn_shown(3, "-link"), "hccn_tool -i 3 -link -g");
}

TEST(HccnLive, RecordedAnswersBecomeCapturesAndAMissingOneStopsTheQuery) {
  bundle::ProbeRecord rec;
  rec.commands[hccn_argv("hccn_tool", 1, "-link")] = answered("link status: DOWN\n");
  rec.commands[hccn_argv("hccn_tool", 1, "-net_health")] = answered("net health status: Fault\n");
  rec.commands[hccn_argv("hccn_tool", 1, "-ip")] = answered("ipaddr:10.0.0.2\nnetmask:255.255.255.0\n");
  rec.commands[hccn_argv("hccn_tool", 1, "-tls")] = answered("hccn_tool: unknown option\n", 3);
  CommandResult huge = answered("link up count : 1\n");
  huge.truncated = true;
  rec.commands[hccn_argv("hccn_tool", 1, "-link_stat")] = huge;
  const bundle::ReplayProbe replay(rec);

  const HccnLiveResult one = query_hccn(replay, "hccn_tool", {1}, 8u << 20);
  EXPECT_TRUE(one.not_started.empty()) << one.not_started;
  ASSERT_EQ(one.captures.size(), hccn_queries().size());
  const auto devices = merge_devices(one.captures);
  ASSERT_EQ(devices.size(), 1u);
  EXPECT_EQ(devices[0].id, 1);
  EXPECT_EQ(devices[0].link, "DOWN");
  EXPECT_EQ(devices[0].health, "Fault");
  EXPECT_EQ(devices[0].ip, "10.0.0.2");
  EXPECT_EQ(devices[0].link_at.source, "hccn_tool -i 1 -link -g");
  auto error_saying = [&](const std::string& what) {
    for (const auto& e : devices[0].errors) {
      if (e.text.find(what) != std::string::npos) return e.source;
    }
    return std::string("(none)");
  };
  EXPECT_EQ(error_saying("exit status 3"), "hccn_tool -i 1 -tls -g") << "a failed query is a failed query";
  EXPECT_EQ(error_saying("more than 8 MiB"), "hccn_tool -i 1 -link_stat -g") << "so is a runaway one";

  const HccnLiveResult two = query_hccn(replay, "hccn_tool", {1, 2}, 8u << 20);
  EXPECT_EQ(two.not_started, "hccn_tool -i 2 -link -g: not recorded in the bundle");
}

TEST(NpuSmiThroughAProbe, IsolateNumbersTheListedChipsInOrder) {
  bundle::ProbeRecord rec;
  rec.commands[{"npu-smi", "info"}] = answered(npu_smi_fixture("info-a3-910_93.txt"));
  std::string why;
  const auto list = isolate::devices_from_npu_smi(bundle::ReplayProbe(rec), why);
  ASSERT_TRUE(list) << why;
  ASSERT_GE(list->devices.size(), 4u);
  EXPECT_EQ(list->devices[3], 3);
  EXPECT_EQ(list->names[1], "NPU 0 chip 1 (Phy-ID 1)");

  rec.commands[{"npu-smi", "info"}] = answered("dcmi module initialize failed. ret is -8005\n", 0);
  EXPECT_FALSE(isolate::devices_from_npu_smi(bundle::ReplayProbe(rec), why));
  EXPECT_EQ(why, "printed no device table");
  EXPECT_FALSE(isolate::devices_from_npu_smi(bundle::ReplayProbe(bundle::ProbeRecord{}), why));
  EXPECT_EQ(why, "not recorded in the bundle");
  const NpuSmiQuery failed = query_npu_smi_info(bundle::ReplayProbe(bundle::ProbeRecord{}));
  EXPECT_FALSE(failed.info);
  EXPECT_FALSE(failed.result.started);
}

}  // namespace
}  // namespace npu_doctor::hccl
