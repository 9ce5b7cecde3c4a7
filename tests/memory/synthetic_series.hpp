#pragma once
// Deterministic synthetic memory series for the leak, fragmentation and CLI tests:
// the shapes real training runs show (flat, noisy, leaking, saw-tooth, evaluation
// spikes, fragmenting), from a seed.
#include <cstdint>
#include <string>
#include <vector>

#include "memory/mem_sample.hpp"

namespace npu_doctor::mem::synth {

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;

struct SeriesSpec {
  int steps = 3000;               // steps 0 .. steps-1
  int every = 1;                  // one sample every N steps
  double base = 30 * kGiB;        // floor after warm-up
  double warmup_extra = 0;        // extra memory in the first 5% of steps (falls off)
  double leak_per_step = 0;       // bytes per step
  double noise = 0;               // standard deviation of Gaussian noise
  int saw_period = 0;             // steps of one saw-tooth cycle (0: none)
  double saw_amplitude = 0;       // bytes the saw-tooth climbs per cycle
  int spike_every = 0;            // an evaluation spike every N steps (0: none)
  int spike_length = 10;
  double spike_height = 0;
  double reserved_extra = 0.5 * kGiB;  // reserved = the peak so far + this (cache overhead)
  double reserved_growth = 0;         // fragmentation: reserved grows by this per step
  int device = 0;
  uint32_t seed = 1;
};

std::vector<MemSample> make_series(const SeriesSpec& spec);
// JSON lines as the Python helper writes them.
std::string to_jsonl(const std::vector<MemSample>& samples, bool with_reserved = true, bool with_max = true);

}  // namespace npu_doctor::mem::synth
