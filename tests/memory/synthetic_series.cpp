#include "memory/synthetic_series.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>

namespace npu_doctor::mem::synth {

std::vector<MemSample> make_series(const SeriesSpec& s) {
  std::mt19937 rng(s.seed);
  std::normal_distribution<double> gauss(0.0, 1.0);
  std::vector<MemSample> out;
  double peak = 0;
  for (int step = 0; step < s.steps; step += s.every) {
    double v = s.base + s.leak_per_step * step;
    if (step < s.steps / 20) v += s.warmup_extra;
    if (s.saw_period > 0) v += s.saw_amplitude * static_cast<double>(step % s.saw_period) / s.saw_period;
    if (s.spike_every > 0 && step > 0 && step % s.spike_every < s.spike_length) v += s.spike_height;
    if (s.noise > 0) v += s.noise * gauss(rng);
    v = std::max(v, 0.0);
    peak = std::max(peak, v);
    MemSample m;
    m.step = step;
    m.time = 1718000000.0 + step * 0.5;
    m.device = s.device;
    m.allocated = static_cast<uint64_t>(v);
    m.max_allocated = static_cast<uint64_t>(peak);
    m.reserved = static_cast<uint64_t>(peak + s.reserved_extra + s.reserved_growth * step);
    out.push_back(m);
  }
  return out;
}

std::string to_jsonl(const std::vector<MemSample>& samples, bool with_reserved, bool with_max) {
  std::ostringstream o;
  o.precision(15);
  for (const auto& s : samples) {
    o << "{\"step\": " << s.step << ", \"time\": " << s.time.value_or(0) << ", \"device\": " << s.device
      << ", \"allocated\": " << s.allocated;
    if (with_reserved && s.reserved) o << ", \"reserved\": " << *s.reserved;
    if (with_max && s.max_allocated) o << ", \"max_allocated\": " << *s.max_allocated;
    if (s.capacity) o << ", \"capacity\": " << *s.capacity;
    o << "}\n";
  }
  return o.str();
}

}  // namespace npu_doctor::mem::synth
