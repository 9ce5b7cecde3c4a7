#pragma once
// hccn_tool asked through a Probe: where the tool is, which devices to ask about, the
// command line of each query and the answers as captures. `hccl hccn` runs it on this
// host or replays a bundle's record (--root); `bundle` records the same command lines
// (network/hccn_tool.txt), so the replay finds every answer it asks for.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hccn_output.hpp"
#include "npu_doctor/parse/npu_smi.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::hccl {

inline constexpr const char* kDriverHccnTool = "/usr/local/Ascend/driver/tools/hccn_tool";

// True when the probe sees an executable regular file at `path`.
bool probe_executable(const Probe& probe, const std::string& path);

// "hccn_tool" when it is on the probe's PATH, else kDriverHccnTool when that is
// executable; nullopt when neither.
std::optional<std::string> locate_hccn_tool(const Probe& probe);

// The ids hccn_tool takes (-i): each chip's Phy-ID, else its NPU id; sorted, distinct.
std::vector<int> hccn_device_ids(const NpuSmiInfo& info);

// {tool, "-i", "<device>", flag, "-g"}, and as reports show it: "hccn_tool -i 3 -link -g".
std::vector<std::string> hccn_argv(const std::string& tool, int device, std::string_view flag);
std::string hccn_shown(int device, std::string_view flag);

struct HccnLiveResult {
  std::vector<HccnCapture> captures;  // one per device and query
  std::string not_started;            // "hccn_tool -i 0 -link -g: not found ...": the tool could not run at all
};

// Runs every hccn_queries() flag for each device through the probe. A query that fails
// or prints more than `max_output` bytes is a failed query in its capture (a finding),
// not a usage error; one that cannot start stops everything (`not_started`).
HccnLiveResult query_hccn(const Probe& probe, const std::string& tool, const std::vector<int>& devices,
                          std::size_t max_output);

}  // namespace npu_doctor::hccl
