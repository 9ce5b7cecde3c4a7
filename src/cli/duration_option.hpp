#pragma once
// One syntax for every time-valued flag (--timeout, --interval, --skew, --hang-after ...):
// "500ms", "30s", "2m", "1h", "1d", a bare number is seconds (npu_doctor/duration.hpp).
// The value is checked while the command line is parsed, so a bad one is a usage error
// (exit 2) naming the flag, the same way for every command.
#include <CLI/CLI.hpp>

#include <chrono>
#include <optional>
#include <string>

namespace npu_doctor::cli {

struct DurationLimits {
  std::chrono::milliseconds min{0};
  std::chrono::milliseconds max{std::chrono::hours(24 * 366)};
};

CLI::Option* add_duration_option(CLI::App* app, const std::string& name, std::chrono::milliseconds& target,
                                 const std::string& help, DurationLimits limits = {});

// For a flag whose absence means "never" (--hang-after, --exit-after).
CLI::Option* add_duration_option(CLI::App* app, const std::string& name,
                                 std::optional<std::chrono::milliseconds>& target, const std::string& help,
                                 DurationLimits limits = {});

// "500ms", "30s", "2m", "1.5h": how a duration is written back in messages.
std::string format_duration(std::chrono::milliseconds d);

}  // namespace npu_doctor::cli
