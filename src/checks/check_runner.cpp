#include "checks/check_runner.hpp"

#include <algorithm>

#include "checks/steps.hpp"

namespace npu_doctor::checks {

CheckReport run_checks(const Probe& probe, const KnowledgeBase& kb, const CompatibilityTable& table,
                       const CheckOptions& options) {
  CheckReport report;
  report.root = probe.describe_root();
  report.kb_version = kb.version();
  report.timeout_ms = options.timeout.count();
  report.pid = options.pid;
  report.python = options.python;
  report.probe_device = options.probe_device;
  CheckContext ctx(probe, kb, table, options);
  for (StepId id : all_steps()) {
    if (std::find(options.steps.begin(), options.steps.end(), id) == options.steps.end()) continue;
    switch (id) {
      case StepId::driver: report.steps.push_back(run_driver_step(ctx)); break;
      case StepId::cann: report.steps.push_back(run_cann_step(ctx)); break;
      case StepId::devices: report.steps.push_back(run_devices_step(ctx)); break;
      case StepId::numa: report.steps.push_back(run_numa_step(ctx)); break;
    }
  }
  report.internal_errors = ctx.internal_errors();
  return report;
}

std::vector<std::string_view> check_finding_ids() {
  return {
      "check.driver-not-installed",       "check.version-file-invalid",      "check.npu-smi-missing",
      "check.npu-smi-failed",             "check.device-health-warning",     "check.device-health-alarm",
      "check.driver-version-differs",     "check.driver-firmware-mismatch",  "check.driver-firmware-unverified",
      "check.cann-not-installed",         "check.cann-version-unknown",      "check.cann-env-not-set",
      "check.cann-env-stale",             "check.cann-driver-too-old",       "check.cann-driver-not-listed",
      "check.python-not-found",           "check.python-failed",             "check.torch-not-installed",
      "check.torch-npu-not-installed",    "check.torch-npu-torch-mismatch",  "check.torch-npu-cann-mismatch",
      "check.torch-npu-combination-unknown", "check.probe-device-failed",    "check.probe-device-skipped",
      "check.skipped-no-driver",          "check.driver-modules-not-loaded", "check.device-nodes-missing",
      "check.device-permission-denied",   "check.visible-devices-invalid",   "check.device-busy",
      "check.numa-info-unavailable",      "check.numa-mismatch",             "check.numa-not-pinned",
  };
}

}  // namespace npu_doctor::checks
