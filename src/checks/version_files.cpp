#include "checks/version_files.hpp"

#include "core/text_util.hpp"
#include "npu_doctor/parse/npu_smi.hpp"

namespace npu_doctor::checks {
namespace {

using KeyValues = std::vector<std::pair<std::string, std::string>>;

// Key-value lines of a text file, or nullopt (with a reason) for binary data.
std::optional<KeyValues> key_values(std::string_view text, std::string* error) {
  if (looks_binary(text)) {
    if (error != nullptr) *error = "binary data, not a version file";
    return std::nullopt;
  }
  return parse_key_values(text);
}

std::string get(const KeyValues& kv, std::string_view key) { return value_of(kv, key).value_or(""); }

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

}  // namespace

std::optional<DriverVersionInfo> parse_driver_version_info(std::string_view text, std::string* error) {
  const auto kv = key_values(text, error);
  if (!kv) return std::nullopt;
  DriverVersionInfo d;
  d.version = get(*kv, "Version");
  if (!Version::parse(d.version)) {
    fail(error, "no Version= line with a version");
    return std::nullopt;
  }
  d.inner_version = get(*kv, "Innerversion");
  if (auto fw = value_of(*kv, "compatible_version_fw")) {
    d.compatible_firmware_text = *fw;
    d.compatible_firmware = parse_version_ranges(*fw);
  }
  return d;
}

std::optional<FirmwareVersionInfo> parse_firmware_version_info(std::string_view text, std::string* error) {
  const auto kv = key_values(text, error);
  if (!kv) return std::nullopt;
  FirmwareVersionInfo f;
  f.version = get(*kv, "Version");
  if (!Version::parse(f.version)) {
    fail(error, "no Version= line with a version");
    return std::nullopt;
  }
  f.package_version = get(*kv, "package_version");
  if (auto drv = value_of(*kv, "compatible_version_drv")) {
    f.compatible_drivers_text = *drv;
    f.compatible_drivers = parse_version_ranges(*drv);
  }
  return f;
}

std::optional<ToolkitInstallInfo> parse_toolkit_install_info(std::string_view text, std::string* error) {
  const auto kv = key_values(text, error);
  if (!kv) return std::nullopt;
  ToolkitInstallInfo t;
  t.version = get(*kv, "version");
  if (!Version::parse(t.version)) {
    fail(error, "no version= line with a version");
    return std::nullopt;
  }
  t.package_name = get(*kv, "package_name");
  t.inner_version = get(*kv, "innerversion");
  for (const auto& group : parse_bracket_list(get(*kv, "compatible_version"))) {
    for (const auto& item : group) t.compatible_inner.push_back(item);
  }
  t.arch = get(*kv, "arch");
  t.path = get(*kv, "path");
  return t;
}

std::vector<VersionCfgEntry> parse_version_cfg(std::string_view text) {
  std::vector<VersionCfgEntry> out;
  if (looks_binary(text)) return out;
  constexpr std::string_view kSuffix = "_running_version";
  for (const auto& [key, value] : parse_key_values(text)) {
    if (!key.ends_with(kSuffix)) continue;
    const auto groups = parse_bracket_list(value);
    if (groups.empty() || groups[0].empty()) continue;
    const std::string& item = groups[0][0];  // "7.6.0.1.220:8.0.0"
    const auto colon = item.find(':');
    if (colon == std::string::npos) continue;
    VersionCfgEntry e;
    e.component = key.substr(0, key.size() - kSuffix.size());
    e.inner = std::string(trim(std::string_view(item).substr(0, colon)));
    e.cann = std::string(trim(std::string_view(item).substr(colon + 1)));
    if (Version::parse(e.cann)) out.push_back(std::move(e));
  }
  return out;
}

std::optional<std::string> cann_version_from_cfg(const std::vector<VersionCfgEntry>& entries) {
  for (std::string_view preferred : {"toolkit", "runtime"}) {
    for (const auto& e : entries) {
      if (e.component == preferred) return e.cann;
    }
  }
  if (!entries.empty()) return entries.front().cann;
  return std::nullopt;
}

AscendInstallInfo parse_ascend_install_info(std::string_view text) {
  AscendInstallInfo info;
  if (looks_binary(text)) return info;
  const auto kv = parse_key_values(text);
  info.driver_install_path = get(kv, "Driver_Install_Path_Param");
  info.firmware_install_path = get(kv, "Firmware_Install_Path_Param");
  info.user_name = get(kv, "UserName");
  info.user_group = get(kv, "UserGroup");
  info.install_for_all = get(kv, "Driver_Install_For_All");
  return info;
}

std::string inner_release(std::string_view inner_version) {
  // V<nnn>R<nnn>C<nn>, then SPC/B build suffixes.
  const std::size_t c = inner_version.find('C');
  if (!inner_version.starts_with('V') || c == std::string_view::npos) return {};
  std::size_t end = c + 1;
  while (end < inner_version.size() && inner_version[end] >= '0' && inner_version[end] <= '9') ++end;
  if (end == c + 1) return {};
  return std::string(inner_version.substr(0, end));
}

}  // namespace npu_doctor::checks
