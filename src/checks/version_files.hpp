#pragma once
// Pure parsers of the version files Ascend packages install (formats in
// ascend-reference.md §5.1). Each returns nullopt, with a reason in `error`, when the
// text is not such a file (binary, garbage, the key that identifies it missing).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "checks/version.hpp"

namespace npu_doctor::checks {

// /usr/local/Ascend/driver/version.info
struct DriverVersionInfo {
  std::string version;        // Version=24.1.rc1
  std::string inner_version;  // Innerversion=V100R001C15SPC006B220
  // compatible_version_fw=[7.0.0,7.2.99]: the firmware versions this driver accepts.
  std::optional<std::vector<VersionSpec>> compatible_firmware;
  std::string compatible_firmware_text;  // as written, for messages
};
std::optional<DriverVersionInfo> parse_driver_version_info(std::string_view text, std::string* error = nullptr);

// /usr/local/Ascend/firmware/version.info
struct FirmwareVersionInfo {
  std::string version;          // Version=7.1.0.11.220
  std::string package_version;  // package_version=23.0.7 (the HDK release)
  // compatible_version_drv=[23.0.rc3,23.0.rc3.],[23.0.0,23.0.0.]: the drivers it accepts.
  std::optional<std::vector<VersionSpec>> compatible_drivers;
  std::string compatible_drivers_text;
};
std::optional<FirmwareVersionInfo> parse_firmware_version_info(std::string_view text, std::string* error = nullptr);

// <toolkit>/<arch>-linux/ascend_toolkit_install.info (also ascend_nnae_install.info)
struct ToolkitInstallInfo {
  std::string package_name;   // Ascend-cann-toolkit
  std::string version;        // 8.0.RC2
  std::string inner_version;  // V100R001C18SPC001B212
  std::vector<std::string> compatible_inner;  // compatible_version=[V100R001C15],[V100R001C18]...
  std::string arch;           // aarch64
  std::string path;           // /usr/local/Ascend/ascend-toolkit/8.0.RC2/aarch64-linux
};
std::optional<ToolkitInstallInfo> parse_toolkit_install_info(std::string_view text, std::string* error = nullptr);

// <toolkit>/version.cfg: <component>_running_version=[<inner version>:<CANN version>]
struct VersionCfgEntry {
  std::string component;  // runtime, compiler, hccl, opp, toolkit ...
  std::string inner;      // 7.6.0.1.220
  std::string cann;       // 8.0.0
};
std::vector<VersionCfgEntry> parse_version_cfg(std::string_view text);
// The CANN version a version.cfg names (toolkit first, then runtime, then any component).
std::optional<std::string> cann_version_from_cfg(const std::vector<VersionCfgEntry>& entries);

// /etc/ascend_install.info: where the driver and firmware were installed.
struct AscendInstallInfo {
  std::string driver_install_path;    // Driver_Install_Path_Param=/usr/local/Ascend
  std::string firmware_install_path;  // Firmware_Install_Path_Param=
  std::string user_name;              // UserName=HwHiAiUser
  std::string user_group;             // UserGroup=HwHiAiUser
  std::string install_for_all;        // Driver_Install_For_All=yes|no
};
AscendInstallInfo parse_ascend_install_info(std::string_view text);

// "V100R001C15SPC006B220" -> "V100R001C15": the release line an inner version belongs to.
std::string inner_release(std::string_view inner_version);

}  // namespace npu_doctor::checks
