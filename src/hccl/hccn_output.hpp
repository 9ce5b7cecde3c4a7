#pragma once
// Output of `hccn_tool` (the NPU RoCE NIC tool, ascend-reference.md §6.3) as users
// collect it: the commands' lines with or without the command line before them
// ("hccn_tool -i 3 -link -g" then "link status: UP"), loops over devices, the
// `[device N]` / `[devid N]` prefixes of -link_stat. Pure: text in, per-device state out.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::hccl {

// One output line worth keeping as evidence.
struct HccnLine {
  std::string source;  // the file, or the command whose output this is
  std::size_t line = 0;
  std::string text;
};

struct HccnLinkEvent {
  std::string time;  // "Tue Jun 6 16:32:10 2023"
  bool up = false;
  HccnLine where;
};

struct HccnDevice {
  int id = -1;
  bool id_from_order = false;  // no command line or prefix named it: the n-th answer is device n
  std::optional<std::string> link;        // "UP", "DOWN" as printed
  HccnLine link_at;
  std::optional<std::string> health;      // "Success", "Fault", "Init" ...
  HccnLine health_at;
  std::optional<std::string> ip;          // ipaddr
  std::optional<std::string> netmask;
  bool ip_not_set = false;                // "Get ipconf failed, because no ip was preset there!"
  HccnLine ip_at;
  std::optional<int> tls_switch;          // tls switch[0]
  HccnLine tls_at;
  std::optional<long long> link_up_count; // -link_stat "link up count : 2"
  std::vector<HccnLinkEvent> link_events; // -link_stat change records
  std::vector<HccnLine> errors;           // lines saying a query failed
};

struct HccnCapture {
  std::string source;               // the file, or the command
  std::vector<HccnDevice> devices;  // by id
  std::size_t recognised_lines = 0;
};

// Parses one capture; `source` names it in evidence. `device`: the device the output
// is about when the caller ran the command itself (`hccn_tool -i <device> ...`).
HccnCapture parse_hccn_output(std::string source, std::string_view text, std::optional<int> device = std::nullopt);

// Devices of several captures of one node merged (live queries: one capture per command).
std::vector<HccnDevice> merge_devices(const std::vector<HccnCapture>& captures);

// The hccn_tool queries npu-doctor makes per device when it runs the tool itself.
struct HccnQuery {
  std::string_view flag;   // "-link"
  std::string_view what;   // "link status"
};
const std::vector<HccnQuery>& hccn_queries();

// How `-net_health -g` statuses are read: "ok" (Success, 0), "init" (Init, 6: no health
// detection configured, not a fault), "fault" (Fault, Socket fail, Receive timeout,
// Unreachable, Time exceeded, Thread error, Detect ip set), "unknown".
std::string_view classify_health(std::string_view status);

}  // namespace npu_doctor::hccl
