// The leak detector on synthetic series with known truth. The false-alarm sweep is the
// contract of the issue: no leak is ever reported for flat, noisy or saw-tooth series.
#include <gtest/gtest.h>

#include "memory/leak_detector.hpp"
#include "memory/synthetic_series.hpp"

namespace npu_doctor::mem {
namespace {

using synth::kGiB;
using synth::kMiB;
using synth::make_series;
using synth::SeriesSpec;

LeakVerdict detect(const SeriesSpec& spec, LeakOptions o = {}) {
  const auto s = make_series(spec);
  return detect_leak(s, o);
}

TEST(MemLeak, FlatSeriesIsNoLeak) {
  SeriesSpec s;
  const auto v = detect(s);
  EXPECT_FALSE(v.detected);
  EXPECT_EQ(v.reason, "no_rise");
  EXPECT_EQ(v.bytes_per_step, 0);
}

TEST(MemLeak, NoisyFlatSeriesIsNoLeak) {
  SeriesSpec s;
  s.noise = 500 * kMiB;
  const auto v = detect(s);
  EXPECT_FALSE(v.detected) << v.reason << " slope " << v.bytes_per_step << " conf " << v.confidence;
  EXPECT_LT(v.confidence, 0.6);
}

TEST(MemLeak, LinearLeakIsFoundWithItsRateAndConfidence) {
  SeriesSpec s;
  s.leak_per_step = 2 * kMiB;
  s.noise = 100 * kMiB;
  const auto v = detect(s);
  ASSERT_TRUE(v.detected) << v.reason;
  EXPECT_EQ(v.reason, "rising_floor");
  EXPECT_NEAR(v.bytes_per_step, 2 * kMiB, 0.1 * kMiB);
  EXPECT_GT(v.confidence, 0.9);
  EXPECT_FALSE(v.projected_oom_step) << "no capacity, no projection";
  EXPECT_EQ(v.from_step, 300) << "the first 10% of samples are warm-up";
  EXPECT_EQ(v.to_step, 2999);
}

TEST(MemLeak, ProjectedOutOfMemoryStepFromCapacity) {
  SeriesSpec s;
  s.leak_per_step = 2 * kMiB;
  LeakOptions o;
  o.capacity = static_cast<uint64_t>(64 * kGiB);
  const auto v = detect(s, o);
  ASSERT_TRUE(v.detected);
  ASSERT_TRUE(v.projected_oom_step);
  // 30 GiB + 2 MiB * step reaches 64 GiB at step 17408.
  EXPECT_NEAR(static_cast<double>(*v.projected_oom_step), 17408, 17408 * 0.01);
  // With noise the largest excursion above the floor counts: earlier, but close.
  s.noise = 100 * kMiB;
  const auto noisy = detect(s, o);
  ASSERT_TRUE(noisy.projected_oom_step);
  EXPECT_LT(*noisy.projected_oom_step, 17408);
  EXPECT_GT(*noisy.projected_oom_step, 17408 * 0.95);
}

TEST(MemLeak, SlowLeakUnderNoiseAndEvaluationSpikesIsFound) {
  SeriesSpec s;
  s.steps = 10000;
  s.every = 10;
  s.leak_per_step = 80 * 1024;  // 80 KiB per step: 780 MiB over the run
  s.noise = 150 * kMiB;
  s.spike_every = 1000;
  s.spike_length = 30;
  s.spike_height = 12 * kGiB;
  const auto v = detect(s);
  ASSERT_TRUE(v.detected) << v.reason << " conf " << v.confidence;
  EXPECT_NEAR(v.bytes_per_step, 80 * 1024, 20 * 1024);
}

TEST(MemLeak, SawToothWithEvaluationSpikesIsNoLeak) {
  SeriesSpec s;
  s.saw_period = 50;
  s.saw_amplitude = 6 * kGiB;
  s.spike_every = 500;
  s.spike_length = 20;
  s.spike_height = 10 * kGiB;
  s.noise = 100 * kMiB;
  const auto v = detect(s);
  EXPECT_FALSE(v.detected) << v.reason << " conf " << v.confidence;
}

TEST(MemLeak, SlowSawToothIsNoLeak) {
  // Four long cycles: each window sees only part of a cycle.
  SeriesSpec s;
  s.saw_period = 700;
  s.saw_amplitude = 8 * kGiB;
  const auto v = detect(s);
  EXPECT_FALSE(v.detected) << v.reason << " conf " << v.confidence;
}

TEST(MemLeak, LeakUnderSawToothAndSpikesIsFound) {
  SeriesSpec s;
  s.saw_period = 40;
  s.saw_amplitude = 5 * kGiB;
  s.spike_every = 400;
  s.spike_height = 8 * kGiB;
  s.leak_per_step = 1.5 * kMiB;
  s.noise = 100 * kMiB;
  const auto v = detect(s);
  ASSERT_TRUE(v.detected) << v.reason;
  EXPECT_NEAR(v.bytes_per_step, 1.5 * kMiB, 0.2 * kMiB);
}

TEST(MemLeak, OneStepUpIsNotALeak) {
  // A buffer allocated once part-way (a cache, an evaluation loader) then flat.
  std::vector<MemSample> v;
  for (int64_t step = 0; step < 2000; ++step) {
    MemSample m;
    m.step = step;
    m.allocated = static_cast<uint64_t>((step < 1000 ? 30 : 34) * kGiB);
    v.push_back(m);
  }
  const auto r = detect_leak(v, {});
  EXPECT_FALSE(r.detected) << r.reason << " conf " << r.confidence;
}

TEST(MemLeak, ShrinkingMemoryIsNoLeak) {
  SeriesSpec s;
  s.leak_per_step = -1 * kMiB;
  s.noise = 50 * kMiB;
  EXPECT_EQ(detect(s).reason, "no_rise");
}

TEST(MemLeak, TooFewSamplesAfterWarmUp) {
  SeriesSpec s;
  s.steps = 12;
  s.leak_per_step = 100 * kMiB;
  const auto v = detect(s);
  EXPECT_FALSE(v.detected);
  EXPECT_EQ(v.reason, "too_few_samples");
}

TEST(MemLeak, WarmUpInStepsCutsTheRampAtTheStart) {
  SeriesSpec s;
  s.warmup_extra = 20 * kGiB;  // the first 5% of steps hold 20 GiB more (falls off)
  s.leak_per_step = 0;
  s.noise = 50 * kMiB;
  LeakOptions o;
  o.warmup_steps = 200;
  const auto v = detect(s, o);
  EXPECT_FALSE(v.detected);
  EXPECT_EQ(v.from_step, 200);
}

TEST(MemLeak, TinyGrowthBelowTheThresholdIsNotReported) {
  SeriesSpec s;
  s.leak_per_step = 4 * 1024;  // 12 MiB over the run: below 64 MiB and 1% of 30 GiB
  const auto v = detect(s);
  EXPECT_FALSE(v.detected);
  EXPECT_EQ(v.reason, "too_small");
}

// The contract: zero false alarms on non-leaking series.
TEST(MemLeak, NoFalseAlarmsOnNonLeakingSeries) {
  int runs = 0, alarms = 0;
  std::string first_alarm;
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::vector<SeriesSpec> shapes;
    for (double noise : {20 * kMiB, 300 * kMiB, 2 * kGiB}) {
      SeriesSpec s;
      s.noise = noise;
      shapes.push_back(s);
    }
    for (int period : {7, 20, 50, 130, 333, 700}) {
      SeriesSpec s;
      s.saw_period = period;
      s.saw_amplitude = 6 * kGiB;
      s.noise = 100 * kMiB;
      shapes.push_back(s);
      s.spike_every = 250;
      s.spike_height = 10 * kGiB;
      shapes.push_back(s);
    }
    SeriesSpec sparse;
    sparse.steps = 50000;
    sparse.every = 100;
    sparse.noise = 1 * kGiB;
    sparse.spike_every = 5000;
    sparse.spike_length = 200;
    sparse.spike_height = 20 * kGiB;
    shapes.push_back(sparse);
    SeriesSpec warm;
    warm.warmup_extra = 15 * kGiB;
    warm.noise = 200 * kMiB;
    shapes.push_back(warm);
    for (auto& s : shapes) {
      s.seed = seed;
      const auto v = detect(s);
      ++runs;
      if (v.detected) {
        ++alarms;
        if (first_alarm.empty()) {
          first_alarm = "seed " + std::to_string(seed) + " saw " + std::to_string(s.saw_period) + " noise " +
                        std::to_string(s.noise / kMiB) + " conf " + std::to_string(v.confidence);
        }
      }
    }
  }
  EXPECT_EQ(alarms, 0) << "of " << runs << " series; first: " << first_alarm;
  EXPECT_GT(runs, 500);
}

TEST(MemLeak, EveryLeakingSeriesIsFound) {
  int misses = 0, runs = 0;
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    for (int period : {0, 20, 130}) {
      SeriesSpec s;
      s.seed = seed;
      s.leak_per_step = 1 * kMiB;
      s.noise = 200 * kMiB;
      s.saw_period = period;
      s.saw_amplitude = period > 0 ? 4 * kGiB : 0;
      s.spike_every = 300;
      s.spike_height = 6 * kGiB;
      ++runs;
      if (!detect(s).detected) ++misses;
    }
  }
  EXPECT_EQ(misses, 0) << "of " << runs;
}

}  // namespace
}  // namespace npu_doctor::mem
