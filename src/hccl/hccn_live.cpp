#include "hccn_live.hpp"

#include <set>

namespace npu_doctor::hccl {

bool probe_executable(const Probe& probe, const std::string& path) {
  const FileInfo f = probe.stat(path);
  return f.exists && !f.is_directory && (f.mode & 0111) != 0;
}

std::optional<std::string> locate_hccn_tool(const Probe& probe) {
  if (probe.find_program("hccn_tool")) return std::string("hccn_tool");
  if (probe_executable(probe, kDriverHccnTool)) return std::string(kDriverHccnTool);
  return std::nullopt;
}

std::vector<int> hccn_device_ids(const NpuSmiInfo& info) {
  std::set<int> ids;
  for (const auto& c : info.chips) ids.insert(c.phy_id.value_or(c.npu));
  return std::vector<int>(ids.begin(), ids.end());
}

std::vector<std::string> hccn_argv(const std::string& tool, int device, std::string_view flag) {
  return {tool, "-i", std::to_string(device), std::string(flag), "-g"};
}

std::string hccn_shown(int device, std::string_view flag) {
  return "hccn_tool -i " + std::to_string(device) + " " + std::string(flag) + " -g";
}

HccnLiveResult query_hccn(const Probe& probe, const std::string& tool, const std::vector<int>& devices,
                          std::size_t max_output) {
  HccnLiveResult out;
  for (int d : devices) {
    for (const auto& q : hccn_queries()) {
      const std::string shown = hccn_shown(d, q.flag);
      const CommandResult res = probe.run(hccn_argv(tool, d, q.flag));
      if (!res.started) {
        out.not_started = shown + ": " + res.describe();
        return out;
      }
      std::string text = res.out + res.err;
      if (!res.ok()) text += "\nhccn_tool failed: " + res.describe() + "\n";
      // Output beyond the cap is not a device's status: a runaway tool is a failed query.
      else if (res.truncated) text += "\nhccn_tool failed: printed more than " + std::to_string(max_output >> 20) + " MiB\n";
      out.captures.push_back(parse_hccn_output(shown, text, d));
    }
  }
  return out;
}

}  // namespace npu_doctor::hccl
