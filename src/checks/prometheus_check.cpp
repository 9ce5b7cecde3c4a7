// `-f prometheus` for check (docs/prometheus.md).
#include <array>
#include <string_view>
#include <vector>

#include "render/prometheus/prometheus_common.hpp"
#include "checks/check_prometheus.hpp"

namespace npu_doctor::prometheus {
namespace {

constexpr std::array<std::string_view, 4> kStatuses = {"pass", "warn", "fail", "skip"};

}  // namespace

void render_check(const checks::CheckReport& report, const RunInfo& run, std::ostream& out) {
  Writer w(out);
  write_run_families(w, run, report.kb_version);

  w.family("npu_doctor_check_status", MetricType::gauge,
           "Overall result of the last check: 1 for the current status (pass, warn, fail, skip), 0 for the others.");
  write_state_set(w, {}, "status", kStatuses, to_string(report.status()));
  w.family("npu_doctor_check_step_status", MetricType::gauge,
           "Result of each check step that ran: 1 for its status (pass, warn, fail, skip), 0 for the others.");
  for (const auto& step : report.steps) {
    write_state_set(w, {{"step", std::string(to_string(step.id))}}, "status", kStatuses, to_string(step.status()));
  }

  std::vector<const Finding*> findings;
  for (const auto& step : report.steps) {
    for (const auto& f : step.findings) findings.push_back(&f);
  }
  write_findings_family(w, run, findings);

  // Versions the steps read, one series per component: driver, firmware, cann, torch,
  // torch_npu (the facts "<component>_version").
  w.family("npu_doctor_check_version_info", MetricType::gauge,
           "Versions found by the last check, by component (driver, firmware, cann, torch, torch_npu; always 1).");
  constexpr std::string_view kSuffix = "_version";
  for (const auto& step : report.steps) {
    for (const auto& [key, value] : step.facts) {
      if (!key.ends_with(kSuffix) || value.empty()) continue;
      w.sample({{"component", key.substr(0, key.size() - kSuffix.size())}, {"version", value}}, 1);
    }
  }
}

}  // namespace npu_doctor::prometheus
