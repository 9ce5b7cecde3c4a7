#include "leak_detector.hpp"

#include <algorithm>
#include <cmath>

namespace npu_doctor::mem {
namespace {

double floor_of(std::span<const MemSample> w) {
  std::vector<double> v;
  v.reserve(w.size());
  for (const auto& s : w) v.push_back(static_cast<double>(s.allocated));
  return quantile(v, 0.1);
}

double middle_step(std::span<const MemSample> w) { return static_cast<double>(w[w.size() / 2].step); }

}  // namespace

LeakVerdict detect_leak(std::span<const MemSample> samples, const LeakOptions& o) {
  LeakVerdict v;
  std::size_t skip = 0;
  if (!samples.empty()) {
    if (o.warmup_steps) {
      const int64_t until = samples.front().step + *o.warmup_steps;
      while (skip < samples.size() && samples[skip].step < until) ++skip;
    } else {
      skip = static_cast<std::size_t>(std::ceil(o.warmup_fraction * static_cast<double>(samples.size())));
      skip = std::min(skip, samples.size());
    }
  }
  const auto rest = samples.subspan(skip);
  v.analysed = rest.size();
  if (!rest.empty()) {
    v.from_step = rest.front().step;
    v.to_step = rest.back().step;
  }
  if (rest.size() < std::max<std::size_t>(o.min_samples, 8) || v.to_step <= v.from_step) {
    v.reason = "too_few_samples";
    return v;
  }

  // Floors of K windows with equal sample counts.
  const std::size_t k = std::clamp<std::size_t>(rest.size() / 4, 5, 20);
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t lo = i * rest.size() / k;
    const std::size_t hi = (i + 1) * rest.size() / k;
    const auto w = rest.subspan(lo, hi - lo);
    v.floors.push_back({middle_step(w), floor_of(w)});
  }
  v.bytes_per_step = theil_sen_slope(v.floors);
  v.confidence = std::max(0.0, kendall_tau(v.floors));
  std::vector<double> offsets;
  for (const auto& p : v.floors) offsets.push_back(p.y - v.bytes_per_step * p.x);
  v.intercept = median(offsets);
  std::vector<double> residuals;
  std::vector<double> levels;
  for (const auto& p : v.floors) {
    residuals.push_back(p.y - (v.intercept + v.bytes_per_step * p.x));
    levels.push_back(p.y);
  }
  v.noise_bytes = robust_spread(residuals);
  v.growth_bytes = v.bytes_per_step * static_cast<double>(v.to_step - v.from_step);

  const double needed = std::max({static_cast<double>(o.min_growth_bytes), o.min_growth_fraction * median(levels),
                                  3 * v.noise_bytes});
  const std::size_t q = rest.size() / 4;
  const auto first = rest.subspan(0, q);
  const auto last = rest.subspan(rest.size() - q);
  const double floor_rise = floor_of(last) - floor_of(first);
  const double expected_rise = v.bytes_per_step * (middle_step(last) - middle_step(first));

  if (v.bytes_per_step <= 0) v.reason = "no_rise";
  else if (v.confidence < o.min_confidence) v.reason = "inconsistent";
  else if (v.growth_bytes < needed) v.reason = "too_small";
  else if (floor_rise <= 0 || floor_rise < 0.5 * expected_rise) v.reason = "floor_not_raised";
  else v.reason = "rising_floor";
  v.detected = v.reason == "rising_floor";

  if (v.detected && o.capacity) {
    // The floor plus the largest excursion above it seen so far must fit.
    double excursion = 0;
    for (const auto& s : rest) {
      const double high = static_cast<double>(std::max(s.allocated, s.max_allocated.value_or(0)));
      excursion = std::max(excursion, high - (v.intercept + v.bytes_per_step * static_cast<double>(s.step)));
    }
    const double at = (static_cast<double>(*o.capacity) - excursion - v.intercept) / v.bytes_per_step;
    v.projected_oom_step = std::max(v.to_step, static_cast<int64_t>(std::ceil(std::min(at, 9.0e18))));
  }
  return v;
}

}  // namespace npu_doctor::mem
