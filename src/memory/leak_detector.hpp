#pragma once
// Is allocated memory leaking? After a warm-up, the series is cut into windows of equal
// sample counts and each window's floor (its 10th percentile) is taken: evaluation and
// checkpoint spikes sit above the floor and saw-tooth cycles have the same trough in
// every window, so neither moves it. A leak is a floor that rises:
//   - the Theil-Sen slope of the floors is positive,
//   - Kendall's tau of the floors (the confidence) is at least min_confidence,
//   - the growth over the analysed steps is larger than min_growth_bytes, than
//     min_growth_fraction of the floor and than 3 times the floors' scatter,
//   - and the floor of the last quarter is above the floor of the first quarter by at
//     least half of what the slope predicts (a guard against slow saw-tooth beats).
// docs/mem.md explains the choice and the numbers.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "mem_sample.hpp"
#include "robust_stats.hpp"

namespace npu_doctor::mem {

struct LeakOptions {
  std::optional<int64_t> warmup_steps;  // ignore steps before first step + this; default: a fraction
  double warmup_fraction = 0.1;         // of the samples, when warmup_steps is not given
  std::size_t min_samples = 20;         // after warm-up
  double min_confidence = 0.6;
  uint64_t min_growth_bytes = 64ull << 20;
  double min_growth_fraction = 0.01;
  std::optional<uint64_t> capacity;     // for the projected out-of-memory step
};

struct LeakVerdict {
  bool detected = false;
  double bytes_per_step = 0;  // slope of the floor
  double confidence = 0;      // Kendall's tau of the floors, clipped to [0, 1]
  std::optional<int64_t> projected_oom_step;
  std::size_t analysed = 0;   // samples after warm-up
  int64_t from_step = 0;
  int64_t to_step = 0;
  double intercept = 0;       // floor(step) = intercept + bytes_per_step * step
  double growth_bytes = 0;    // bytes_per_step * (to_step - from_step)
  double noise_bytes = 0;     // robust scatter of the floors around the trend
  std::vector<Point> floors;  // (step, floor) per window
  // Why: rising_floor (detected), too_few_samples, no_rise, inconsistent, too_small,
  // floor_not_raised.
  std::string reason;
};

// `samples` sorted by step (one device).
LeakVerdict detect_leak(std::span<const MemSample> samples, const LeakOptions& options);

}  // namespace npu_doctor::mem
