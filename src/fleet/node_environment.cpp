#include "fleet/node_environment.hpp"

#include <algorithm>
#include <filesystem>

#include "checks/check_runner.hpp"

namespace npu_doctor {

void add_node_environment(NodeSummary& summary, const KnowledgeBase& kb, const NodeEnvironmentOptions& options) {
  if (!options.check) return;
  std::error_code ec;
  const auto root = std::filesystem::absolute(options.root, ec);
  if (ec || !std::filesystem::is_directory(root, ec)) {
    summary.facts["check"] = "not run: --root " + options.root + " is not a directory";
    return;
  }
  CommandOptions command_options;
  // Per command, and never longer than the node's whole budget.
  command_options.timeout = std::min(options.command_timeout, std::chrono::milliseconds(10000));
  const SystemProbe probe(root.lexically_normal().string(), command_options);
  checks::CheckOptions check_options;
  check_options.timeout = command_options.timeout;
  const checks::CheckReport report = checks::run_checks(probe, kb, checks::CompatibilityTable::builtin(), check_options);
  for (const auto& step : report.steps) {
    summary.facts["check." + std::string(to_string(step.id))] = std::string(to_string(step.status()));
    for (const auto& [key, value] : step.facts) summary.facts[key] = value;
    for (const auto& f : step.findings) {
      if (f.entry != nullptr && f.entry->severity >= Severity::warning && !f.evidence.empty()) {
        summary.check_findings.push_back(f);
      }
    }
  }
}

}  // namespace npu_doctor
