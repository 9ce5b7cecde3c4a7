#pragma once
// Kernel CPU and node lists ("0-23,48-71", as in /proc/<pid>/status Cpus_allowed_list and
// /sys/devices/system/node/node<N>/cpulist).
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace npu_doctor::checks {

// nullopt when malformed; an empty text is an empty set. Ranges above 65535 are refused.
std::optional<std::set<unsigned>> parse_cpu_list(std::string_view text);

// {0,1,2,3,8} -> "0-3,8"
std::string format_cpu_list(const std::set<unsigned>& cpus);

bool intersects(const std::set<unsigned>& a, const std::set<unsigned>& b);

}  // namespace npu_doctor::checks
