#pragma once
// The devices `isolate` tests when --devices is not given: the chips `npu-smi info` lists,
// asked through a Probe (this host; the runs happen here, so never another host's record).
#include <optional>
#include <string>
#include <vector>

#include "npu_doctor/probe.hpp"

namespace npu_doctor::isolate {

struct DeviceList {
  std::vector<int> devices;        // logical ids 0..N-1: the runtime numbers the visible chips in npu-smi's order
  std::vector<std::string> names;  // "NPU 3 chip 0 (Phy-ID 6)", one per device
};

// Nullopt with `why` ("printed no device table", "exit status 1" ...) when npu-smi lists
// no chip.
std::optional<DeviceList> devices_from_npu_smi(const Probe& probe, std::string& why);

}  // namespace npu_doctor::isolate
