#pragma once
// What `npu-doctor check` found: one result per step, each with the evidence it read
// (files, command output, environment variables), the facts it derived (versions,
// counts) and its findings (knowledge-base entries). Renderers read only this.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npu_doctor/finding.hpp"

namespace npu_doctor::checks {

enum class StepStatus { pass, warn, fail, skip };
std::string_view to_string(StepStatus s);

// The steps, in the order an expert walks them.
enum class StepId { driver, cann, devices, numa };
std::string_view to_string(StepId id);
std::optional<StepId> parse_step_id(std::string_view s);
std::vector<StepId> all_steps();

struct StepResult {
  StepId id = StepId::driver;
  // Set when the step could not look at anything (no driver, nothing to compare); its
  // findings say why. A step with error findings fails whatever this says.
  bool skipped = false;
  // What was read, where: files as "/path" with their line, commands as "npu-smi info"
  // with the line of their output, variables as "$NAME".
  std::vector<Evidence> evidence;
  std::vector<std::pair<std::string, std::string>> facts;  // "driver_version" -> "24.1.rc2"
  std::vector<Finding> findings;

  // fail if any finding is an error, warn if any is a warning, skip when skipped,
  // pass otherwise (info findings are notes).
  StepStatus status() const;
  void fact(std::string key, std::string value);
  std::optional<std::string> fact_value(std::string_view key) const;
};

struct CheckReport {
  std::string root = "/";
  std::string kb_version;
  // How it ran (echoed in the JSON).
  long long timeout_ms = 0;
  std::optional<long> pid;
  std::string python;
  bool probe_device = false;
  std::vector<StepResult> steps;
  // Problems of the tool itself (a finding id missing from the knowledge base).

  // The worst status over all steps (skip only when every step was skipped).
  StepStatus status() const;
  std::size_t count(StepStatus s) const;
};

// Where an evidence path came from: "file", "command" or "env".
std::string_view evidence_source(const Evidence& e);

}  // namespace npu_doctor::checks
