#pragma once
// Durations on the command line (--node-timeout, --skew, mem --interval, net --timeout...):
// "500ms", "1s", "1.5s", "10m", "2h", "1d"; a bare number is seconds.
#include <chrono>
#include <optional>
#include <string_view>

namespace npu_doctor {

// nullopt for anything else, negative values, or more than a year.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

}  // namespace npu_doctor
