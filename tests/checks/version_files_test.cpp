// The version files Ascend packages install, parsed from the verbatim samples of
// ascend-reference.md §5.1, and bad input (binary, garbage, empty) refused with a reason.
#include <gtest/gtest.h>

#include "checks/version_files.hpp"

namespace npu_doctor::checks {
namespace {

constexpr const char* kDriver =
    "Version=24.1.rc1\nascendhal_version=7.35.19\naicpu_version=1.0\ntdt_version=1.0\nlog_version=1.0\n"
    "prof_version=2.0\ndvppkernels_version=1.1\ntsfw_version=1.0\nInnerversion=V100R001C15SPC006B220\n"
    "compatible_version=[V100R001C30],[V100R001C13],[V100R001C15],[V100R001C17]\ncompatible_version_fw=[7.0.0,7.2.99]\n";

constexpr const char* kFirmware =
    "Version=7.1.0.11.220\nfirmware_version=1.0\npackage_version=23.0.7\n"
    "compatible_version_drv=[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]\n";

TEST(CheckVersionFiles, DriverVersionInfo) {
  const auto d = parse_driver_version_info(kDriver);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->version, "24.1.rc1");
  EXPECT_EQ(d->inner_version, "V100R001C15SPC006B220");
  ASSERT_TRUE(d->compatible_firmware);
  ASSERT_EQ(d->compatible_firmware->size(), 1u);
  EXPECT_TRUE(d->compatible_firmware->front().matches(*Version::parse("7.1.0.11.220")));
  EXPECT_EQ(d->compatible_firmware_text, "[7.0.0,7.2.99]");
  EXPECT_EQ(inner_release(d->inner_version), "V100R001C15");
}

TEST(CheckVersionFiles, FirmwareVersionInfo) {
  const auto f = parse_firmware_version_info(kFirmware);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->version, "7.1.0.11.220");
  EXPECT_EQ(f->package_version, "23.0.7");
  ASSERT_TRUE(f->compatible_drivers);
  EXPECT_EQ(f->compatible_drivers->size(), 2u);
}

TEST(CheckVersionFiles, OlderFilesWithoutCompatibilityFields) {
  const auto d = parse_driver_version_info("Version=6.3.0\n");
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->compatible_firmware);
  const auto f = parse_firmware_version_info("Version=1.73.5.1.b080\n");
  ASSERT_TRUE(f);
  EXPECT_FALSE(f->compatible_drivers);
}

TEST(CheckVersionFiles, GarbageBinaryAndEmptyAreRefusedWithAReason) {
  std::string error;
  EXPECT_FALSE(parse_driver_version_info(std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10), &error));
  EXPECT_NE(error.find("binary"), std::string::npos);
  EXPECT_FALSE(parse_driver_version_info("", &error));
  EXPECT_NE(error.find("Version="), std::string::npos);
  EXPECT_FALSE(parse_firmware_version_info("<html>404 Not Found</html>\n", &error));
  EXPECT_FALSE(parse_toolkit_install_info("version=\n", &error));
  EXPECT_EQ(inner_release("garbage"), "");
  EXPECT_EQ(inner_release("V100R001"), "");
}

TEST(CheckVersionFiles, ToolkitInstallInfoNewLayout) {
  const auto t = parse_toolkit_install_info(
      "package_name=Ascend-cann-toolkit\nversion=8.5.0\ninnerversion=V100R001C25SPC001B212\n"
      "compatible_version=[V100R001C15],[V100R001C18],[V100R001C19],[V100R001C20],[V100R001C21],[V100R001C23]\n"
      "arch=aarch64\nos=linux\npath=/usr/local/Ascend/cann-8.5.0/aarch64-linux\n");
  ASSERT_TRUE(t);
  EXPECT_EQ(t->version, "8.5.0");
  EXPECT_EQ(t->arch, "aarch64");
  ASSERT_EQ(t->compatible_inner.size(), 6u);
  EXPECT_EQ(t->compatible_inner.front(), "V100R001C15");
}

TEST(CheckVersionFiles, VersionCfg) {
  const auto entries = parse_version_cfg(
      "# version: 1.0\nruntime_running_version=[7.6.0.1.220:8.0.0]\ncompiler_running_version=[7.6.0.1.220:8.0.0]\n"
      "toolkit_running_version=[7.6.0.1.220:8.0.0]\nruntime_upgrade_version=[...]\n");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].component, "runtime");
  EXPECT_EQ(entries[0].inner, "7.6.0.1.220");
  EXPECT_EQ(cann_version_from_cfg(entries), "8.0.0");
  // HCCL's own variant and an RC name.
  EXPECT_EQ(cann_version_from_cfg(parse_version_cfg("runtime_running_version=[7.5.0.1.129:8.0.RC3]\n")), "8.0.RC3");
  EXPECT_TRUE(parse_version_cfg(std::string("\0\0\0", 3)).empty());
}

TEST(CheckVersionFiles, AscendInstallInfo) {
  const auto i = parse_ascend_install_info(
      "UserName=HwHiAiUser\nUserGroup=HwHiAiUser\nDriver_Install_Type=full\n"
      "Driver_Install_Path_Param=/opt/Ascend\nDriver_Install_For_All=yes\n");
  EXPECT_EQ(i.driver_install_path, "/opt/Ascend");
  EXPECT_EQ(i.user_group, "HwHiAiUser");
  EXPECT_EQ(i.install_for_all, "yes");
  EXPECT_EQ(parse_ascend_install_info("\x01\x02garbage").driver_install_path, "");
}

}  // namespace
}  // namespace npu_doctor::checks
