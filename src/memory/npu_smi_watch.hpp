#pragma once
// `mem watch`: HBM usage per device from `npu-smi info` (every layout parse_npu_smi_info
// knows), as the same JSON sample lines the Python helper writes.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mem_sample.hpp"
#include "npu_doctor/parse/npu_smi.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::mem {

struct WatchSample {
  MemSample sample;  // allocated = HBM in use on the device, capacity = HBM total
  int npu = 0;
  int chip = 0;
};

// One sample per chip that reports HBM (or, on cards without HBM, device memory).
// Device numbers: the NPU id when every NPU has one chip; with several chips per NPU
// (Atlas A3) the Phy-ID when printed, else the chip's position in the table.
std::vector<WatchSample> samples_from_npu_smi(const NpuSmiInfo& info, int64_t step, std::optional<double> time);

// {"step":..,"time":..,"device":..,"allocated":..,"capacity":..,"npu":..,"chip":..,"source":"npu-smi"}
std::string watch_line(const WatchSample& s);

struct PollResult {
  std::vector<WatchSample> samples;
  std::string error;  // empty on success: why there are no samples
};

// Asks `npu-smi info` through the probe (this host, with the probe's timeout; or the
// answer a bundle recorded, `mem watch --root`) and parses it. `time`: when the sample
// was taken (none for a recorded answer: the record does not say when npu-smi ran).
PollResult poll_npu_smi(const Probe& probe, int64_t step, std::optional<double> time);

}  // namespace npu_doctor::mem
