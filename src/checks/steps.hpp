#pragma once
// The four steps of `npu-doctor check`, in the order an expert walks them. Each reads
// the machine only through the context's probe and returns its verdict with evidence
// and findings (docs/check.md describes every decision).
#include "checks/check_context.hpp"

namespace npu_doctor::checks {

// 1. Driver and firmware: versions, their compatibility, device health.
StepResult run_driver_step(CheckContext& ctx);
// 2. CANN and PyTorch: toolkit version and environment, torch/torch_npu, the combination.
StepResult run_cann_step(CheckContext& ctx);
// 3. Permissions and device visibility: device nodes, modules, visible-device variables,
//    devices held by other processes.
StepResult run_devices_step(CheckContext& ctx);
// 4. NUMA placement: the NUMA node of each NPU against the CPUs the job may run on.
StepResult run_numa_step(CheckContext& ctx);

}  // namespace npu_doctor::checks
