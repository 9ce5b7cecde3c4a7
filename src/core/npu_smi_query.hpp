#pragma once
// `npu-smi info` asked through a Probe (this host, or the record a bundle made on its
// host) and parsed: the device list `hccl hccn`, `isolate` and `mem watch` start from.
#include <optional>
#include <string>

#include "npu_doctor/parse/npu_smi.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor {

struct NpuSmiQuery {
  CommandResult result;
  std::optional<NpuSmiInfo> info;  // nullopt: the command failed or printed no device table
  std::string parse_error;         // why the output was not recognised (when it ran fine)

  // For "cannot list the devices: npu-smi info <why_not>": "printed no device table" or
  // how the command failed ("exit status 1", "not found on PATH" ...).
  std::string why_not() const { return result.ok() ? "printed no device table" : result.describe(); }
};

// Runs `npu-smi info` through the probe (its timeout is the probe's) and parses it.
NpuSmiQuery query_npu_smi_info(const Probe& probe);

}  // namespace npu_doctor
