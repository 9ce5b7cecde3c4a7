#pragma once
// Samples grouped by device. Totals (peak, largest gap, capacity) cover every sample;
// the kept series is thinned evenly once it reaches a cap, so memory stays bounded
// for runs of millions of steps while the trend and the chart still span the run. The
// cap is one budget shared by the devices (n devices keep max_kept / n each), so the
// memory does not grow with the number of devices either.
#include <cstdint>
#include <optional>
#include <vector>

#include "mem_sample.hpp"

namespace npu_doctor::mem {

// A value and the sample it came from.
struct SamplePoint {
  uint64_t bytes = 0;
  int64_t step = 0;
  uint32_t input = 0;
  uint64_t line = 0;
};

struct SeriesTotals {
  uint64_t count = 0;
  int64_t first_step = 0;
  int64_t last_step = 0;
  SamplePoint peak;                   // max of allocated and max_allocated
  std::optional<SamplePoint> peak_reserved;
  // Fragmentation gap: reserved minus the most the program had allocated (max_allocated
  // when the sample has it, else allocated); `raw_gap` is reserved minus allocated.
  std::optional<SamplePoint> max_gap;
  std::optional<SamplePoint> max_raw_gap;
  bool gap_uses_max_allocated = true;  // false once a sample with reserved lacks max_allocated
  std::optional<uint64_t> capacity;    // the largest "capacity" any sample gave
  bool inference = false;              // any sample said "phase": "inference"
  bool out_of_order = false;           // steps were not read in increasing order
  uint64_t duplicate_steps = 0;        // samples replaced by a later one with the same step
};

struct DeviceSeries {
  int device = 0;
  std::vector<MemSample> samples;  // sorted by step, one per step (after finish())
  SeriesTotals totals;
  uint64_t keep_every = 1;         // 1: every sample kept; n: every n-th
};

class SampleSet {
 public:
  explicit SampleSet(std::size_t max_kept = 1u << 16);
  void add(const MemSample& s);
  // Sorts each series by step and keeps the last sample read for a repeated step.
  void finish();
  const std::vector<DeviceSeries>& devices() const { return devices_; }  // by device number
  uint64_t total_samples() const;

 private:
  DeviceSeries& series(int device);
  // Thins `d` (every other kept sample dropped, keep_every doubled) until it is under the cap.
  void fit(DeviceSeries& d) const;
  std::size_t max_kept_;
  std::size_t per_device_;  // max_kept_ / devices, at least kMinPerDevice
  static constexpr std::size_t kMinPerDevice = 16;
  std::vector<DeviceSeries> devices_;
  std::vector<uint64_t> arrivals_;  // per series, samples seen (for thinning)
};

}  // namespace npu_doctor::mem
