#pragma once
// Units on the command line of `net`: rates in bits per second with iperf's suffixes
// ("100M" = 100 Mbit/s, "9.5G", "800k", plain numbers are bit/s) and durations ("2s",
// "500ms", "1m", plain numbers are seconds).
#include <chrono>
#include <optional>
#include <string_view>

#include "npu_doctor/duration.hpp"

namespace npu_doctor::net {

std::optional<double> parse_rate_bps(std::string_view s);
using npu_doctor::parse_duration;  // npu_doctor/duration.hpp

}  // namespace npu_doctor::net
