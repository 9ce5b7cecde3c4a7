#include "npu_smi_watch.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/npu_smi_query.hpp"

namespace npu_doctor::mem {

std::vector<WatchSample> samples_from_npu_smi(const NpuSmiInfo& info, int64_t step, std::optional<double> time) {
  constexpr uint64_t kMiB = 1u << 20;
  const bool multi_chip = std::any_of(info.chips.begin(), info.chips.end(), [](const NpuSmiChip& c) { return c.chip > 0; });
  std::vector<WatchSample> out;
  int position = 0;
  for (const auto& c : info.chips) {
    const int index = position++;
    std::optional<uint64_t> used = c.hbm_used_mb;
    std::optional<uint64_t> total = c.hbm_total_mb;
    if (!total || *total == 0) {  // cards without HBM report device memory only
      used = c.memory_used_mb;
      total = c.memory_total_mb;
    }
    if (!used || !total || *total == 0) continue;
    WatchSample w;
    w.npu = c.npu;
    w.chip = c.chip;
    w.sample.step = step;
    w.sample.time = time;
    w.sample.device = multi_chip ? c.phy_id.value_or(index) : c.npu;
    w.sample.allocated = *used * kMiB;
    w.sample.capacity = *total * kMiB;
    out.push_back(w);
  }
  return out;
}

std::string watch_line(const WatchSample& s) {
  nlohmann::ordered_json j;
  j["step"] = s.sample.step;
  if (s.sample.time) j["time"] = std::round(*s.sample.time * 1000.0) / 1000.0;
  j["device"] = s.sample.device;
  j["allocated"] = s.sample.allocated;
  if (s.sample.capacity) j["capacity"] = *s.sample.capacity;
  j["npu"] = s.npu;
  j["chip"] = s.chip;
  j["source"] = "npu-smi";
  return j.dump();
}

PollResult poll_npu_smi(const Probe& probe, int64_t step, std::optional<double> time) {
  PollResult r;
  const NpuSmiQuery q = query_npu_smi_info(probe);
  const CommandResult& c = q.result;
  if (!c.ok()) {
    r.error = "npu-smi info: " + c.describe();
    const auto first_line = c.err.substr(0, c.err.find('\n'));
    if (!first_line.empty()) r.error += ": " + first_line.substr(0, 200);
    return r;
  }
  if (!q.info) {
    r.error = "npu-smi info: unrecognised output (" + q.parse_error + ")";
    return r;
  }
  r.samples = samples_from_npu_smi(*q.info, step, time);
  if (r.samples.empty()) r.error = "npu-smi info: no device reports its memory usage";
  return r;
}

}  // namespace npu_doctor::mem
