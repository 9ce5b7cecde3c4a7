// /proc and /sys files, CPU lists, the visible-device variables and path patterns.
#include <gtest/gtest.h>

#include "checks/check_test_support.hpp"
#include "checks/cpu_list.hpp"
#include "checks/probe_glob.hpp"
#include "checks/proc_files.hpp"
#include "checks/visible_devices.hpp"

namespace npu_doctor::checks {
namespace {

using namespace std::string_literals;

TEST(CheckSystemFiles, ProcModulesAndTheDriversNames) {
  const auto names = parse_proc_modules(
      "drv_pcie_host 417792 8 drv_pcie_hdc_host, Live 0x0000000000000000 (OE)\n"
      "asdrv_svm 651264 10 - Live 0x0 (OE)\nxfs 1548288 2 - Live 0x0\n\n   \nts_agent 1 0 - Live 0x0\n");
  ASSERT_EQ(names, (std::vector<std::string>{"drv_pcie_host", "asdrv_svm", "xfs", "ts_agent"}));
  EXPECT_TRUE(is_ascend_driver_module("drv_pcie_host"));
  EXPECT_TRUE(is_ascend_driver_module("asdrv_svm"));
  EXPECT_TRUE(is_ascend_driver_module("ascend_trs_pm_adapt"));
  EXPECT_TRUE(is_ascend_driver_module("ts_agent"));
  EXPECT_FALSE(is_ascend_driver_module("xfs"));
  EXPECT_FALSE(is_ascend_driver_module("nvidia"));
  EXPECT_TRUE(parse_proc_modules("\0\x01\x02"s).empty());
}

TEST(CheckSystemFiles, ProcStatus) {
  const auto s = parse_proc_status(
      "Name:\tpython3\nUid:\t1001\t1002\t1002\t1002\nGid:\t1001\t1000\t1000\t1000\nGroups:\t1000 1001 \n"
      "Cpus_allowed_list:\t0-23,48-71\nMems_allowed_list:\t0\n");
  EXPECT_EQ(s.name, "python3");
  EXPECT_EQ(s.uid, 1001u);
  EXPECT_EQ(s.euid, 1002u);
  EXPECT_EQ(s.egid, 1000u);
  EXPECT_EQ(s.groups, (std::vector<unsigned>{1000, 1001}));
  EXPECT_EQ(s.cpus_allowed_list, "0-23,48-71");
  const auto empty = parse_proc_status("garbage without colons");
  EXPECT_FALSE(empty.uid);
  EXPECT_TRUE(empty.cpus_allowed_list.empty());
}

TEST(CheckSystemFiles, EnvironAndCmdline) {
  const auto env = parse_environ("A=1\0B=x=y\0=bad\0noequals\0EMPTY=\0"s);
  EXPECT_EQ(env.at("A"), "1");
  EXPECT_EQ(env.at("B"), "x=y");
  EXPECT_EQ(env.at("EMPTY"), "");
  EXPECT_EQ(env.size(), 3u);
  EXPECT_EQ(parse_cmdline("python3\0train.py\0--lr\0" "0.1\0"s),
            (std::vector<std::string>{"python3", "train.py", "--lr", "0.1"}));
  EXPECT_TRUE(parse_cmdline("").empty());
  EXPECT_EQ(shell_join({"python3", "train.py", "--name", "my run", "it's"}), "python3 train.py --name 'my run' 'it'\\''s'");
}

TEST(CheckSystemFiles, CpuLists) {
  const auto cpus = parse_cpu_list("0-3,8,10-11\n");
  ASSERT_TRUE(cpus);
  EXPECT_EQ(cpus->size(), 7u);
  EXPECT_EQ(format_cpu_list(*cpus), "0-3,8,10-11");
  EXPECT_TRUE(parse_cpu_list("")->empty());
  EXPECT_FALSE(parse_cpu_list("3-1"));
  EXPECT_FALSE(parse_cpu_list("a-b"));
  EXPECT_FALSE(parse_cpu_list("0-99999999"));  // garbage is refused, not expanded
  EXPECT_TRUE(intersects(*parse_cpu_list("0-95"), *parse_cpu_list("90-100")));
  EXPECT_FALSE(intersects(*parse_cpu_list("0-95"), *parse_cpu_list("96-191")));
}

TEST(CheckSystemFiles, RuntimeVisibleDevicesAsTorchNpuReadsThem) {
  std::string rest;
  EXPECT_EQ(parse_rt_visible_devices("0,1,3", &rest), (std::vector<int>{0, 1, 3}));
  EXPECT_TRUE(rest.empty());
  EXPECT_EQ(parse_rt_visible_devices("0,1;2", &rest), (std::vector<int>{0, 1}));  // stops at ';'
  EXPECT_EQ(rest, ";2");
  EXPECT_TRUE(parse_rt_visible_devices("").empty());  // empty selects no device
  EXPECT_EQ(parse_rt_visible_devices("0,,2"), (std::vector<int>{0, 2}));
}

TEST(CheckSystemFiles, ContainerVisibleDevices) {
  EXPECT_EQ(*parse_container_visible_devices("0-3"), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(*parse_container_visible_devices("0,2-3"), (std::vector<int>{0, 2, 3}));
  EXPECT_FALSE(parse_container_visible_devices("Ascend910-0"));
  EXPECT_FALSE(parse_container_visible_devices("3-1"));
}

TEST(CheckSystemFiles, WildcardsAndPathPatternsThroughTheProbe) {
  EXPECT_TRUE(wildcard_match("python3*", "python3.9"));
  EXPECT_TRUE(wildcard_match("*", ""));
  EXPECT_TRUE(wildcard_match("a*b*c", "aXXbYYc"));
  EXPECT_FALSE(wildcard_match("a*b*c", "aXXbYY"));
  const SystemProbe probe = testing::machine_probe("healthy-910b");
  EXPECT_EQ(glob_paths(probe, "/usr/local/python3*/lib/python3*/site-packages"),
            std::vector<std::string>{"/usr/local/python3.9.2/lib/python3.9/site-packages"});
  EXPECT_EQ(glob_paths(probe, "/sys/devices/system/node/node*/cpulist").size(), 2u);
  EXPECT_TRUE(glob_paths(probe, "/opt/conda/lib/python3*/site-packages").empty());
}

}  // namespace
}  // namespace npu_doctor::checks
