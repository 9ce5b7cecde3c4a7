#include "checks/check_report.hpp"

#include <algorithm>
#include <array>

namespace npu_doctor::checks {
namespace {

constexpr std::array<std::string_view, 4> kStepNames = {"driver", "cann", "devices", "numa"};

}  // namespace

std::string_view to_string(StepStatus s) {
  switch (s) {
    case StepStatus::pass: return "pass";
    case StepStatus::warn: return "warn";
    case StepStatus::fail: return "fail";
    case StepStatus::skip: return "skip";
  }
  return "skip";
}

std::string_view to_string(StepId id) { return kStepNames.at(static_cast<std::size_t>(id)); }

std::optional<StepId> parse_step_id(std::string_view s) {
  for (std::size_t i = 0; i < kStepNames.size(); ++i) {
    if (kStepNames[i] == s) return static_cast<StepId>(i);
  }
  return std::nullopt;
}

std::vector<StepId> all_steps() { return {StepId::driver, StepId::cann, StepId::devices, StepId::numa}; }

StepStatus StepResult::status() const {
  bool warning = false;
  for (const auto& f : findings) {
    const Severity s = effective_severity(f);
    if (s >= Severity::error) return StepStatus::fail;
    if (s == Severity::warning) warning = true;
  }
  if (warning) return StepStatus::warn;
  return skipped ? StepStatus::skip : StepStatus::pass;
}

void StepResult::fact(std::string key, std::string value) {
  for (auto& [k, v] : facts) {
    if (k == key) {
      v = std::move(value);
      return;
    }
  }
  facts.emplace_back(std::move(key), std::move(value));
}

std::optional<std::string> StepResult::fact_value(std::string_view key) const {
  for (const auto& [k, v] : facts) {
    if (k == key) return v;
  }
  return std::nullopt;
}

StepStatus CheckReport::status() const {
  if (count(StepStatus::fail) > 0) return StepStatus::fail;
  if (count(StepStatus::warn) > 0) return StepStatus::warn;
  if (!steps.empty() && count(StepStatus::skip) == steps.size()) return StepStatus::skip;
  return StepStatus::pass;
}

std::size_t CheckReport::count(StepStatus s) const {
  return static_cast<std::size_t>(
      std::count_if(steps.begin(), steps.end(), [s](const StepResult& r) { return r.status() == s; }));
}

std::string_view evidence_source(const Evidence& e) {
  if (e.path.starts_with('/')) return "file";
  if (e.path.starts_with('$')) return "env";
  return "command";
}

}  // namespace npu_doctor::checks
