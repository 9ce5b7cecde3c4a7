#include "checks/check_runner.hpp"

#include <algorithm>

#include "checks/steps.hpp"
#include "npu_doctor/kb_ids.hpp"

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
  return report;
}

std::vector<EntryId> check_finding_ids() {
  return {
      kb_id::check::driver_not_installed,       kb_id::check::version_file_invalid,      kb_id::check::npu_smi_missing,
      kb_id::check::npu_smi_failed,             kb_id::check::device_health_warning,     kb_id::check::device_health_alarm,
      kb_id::check::driver_version_differs,     kb_id::check::driver_firmware_mismatch,  kb_id::check::driver_firmware_unverified,
      kb_id::check::cann_not_installed,         kb_id::check::cann_version_unknown,      kb_id::check::cann_env_not_set,
      kb_id::check::cann_env_stale,             kb_id::check::cann_driver_too_old,       kb_id::check::cann_driver_not_listed,
      kb_id::check::python_not_found,           kb_id::check::python_failed,             kb_id::check::torch_not_installed,
      kb_id::check::torch_npu_not_installed,    kb_id::check::torch_npu_torch_mismatch,  kb_id::check::torch_npu_cann_mismatch,
      kb_id::check::torch_npu_combination_unknown, kb_id::check::probe_device_failed,    kb_id::check::probe_device_skipped,
      kb_id::check::skipped_no_driver,          kb_id::check::driver_modules_not_loaded, kb_id::check::device_nodes_missing,
      kb_id::check::device_permission_denied,   kb_id::check::visible_devices_invalid,   kb_id::check::device_busy,
      kb_id::check::numa_info_unavailable,      kb_id::check::numa_mismatch,             kb_id::check::numa_not_pinned,
  };
}

}  // namespace npu_doctor::checks
