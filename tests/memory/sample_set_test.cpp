#include <gtest/gtest.h>

#include "memory/sample_reader.hpp"
#include "memory/sample_set.hpp"
#include "memory/synthetic_series.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

MemSample sample(int64_t step, uint64_t allocated, int device = 0) {
  MemSample s;
  s.step = step;
  s.allocated = allocated;
  s.device = device;
  return s;
}

TEST(MemSampleSet, UnorderedStepsAreSortedAndRepeatedStepsKeepTheLastRead) {
  SampleSet set;
  for (int64_t step : {5, 1, 3, 2, 4}) set.add(sample(step, static_cast<uint64_t>(step * 10)));
  set.add(sample(3, 999));
  set.finish();
  ASSERT_EQ(set.devices().size(), 1u);
  const auto& d = set.devices()[0];
  ASSERT_EQ(d.samples.size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(d.samples[i].step, static_cast<int64_t>(i + 1));
  EXPECT_EQ(d.samples[2].allocated, 999u);
  EXPECT_TRUE(d.totals.out_of_order);
  EXPECT_EQ(d.totals.duplicate_steps, 1u);
  EXPECT_EQ(d.totals.count, 6u);
  EXPECT_EQ(d.totals.first_step, 1);
  EXPECT_EQ(d.totals.last_step, 5);
  EXPECT_EQ(d.totals.peak.bytes, 999u);
}

TEST(MemSampleSet, SeveralDevicesAreKeptApartInDeviceOrder) {
  SampleSet set;
  set.add(sample(0, 1, 3));
  set.add(sample(0, 2, 1));
  set.add(sample(1, 3, 3));
  set.finish();
  ASSERT_EQ(set.devices().size(), 2u);
  EXPECT_EQ(set.devices()[0].device, 1);
  EXPECT_EQ(set.devices()[1].device, 3);
  EXPECT_EQ(set.devices()[1].samples.size(), 2u);
  EXPECT_EQ(set.total_samples(), 3u);
}

TEST(MemSampleSet, LongRunsAreThinnedEvenlyButTotalsSeeEverySample) {
  SampleSet set(64);
  for (int64_t step = 0; step < 1000; ++step) set.add(sample(step, step == 777 ? 5000 : 100));
  set.finish();
  const auto& d = set.devices()[0];
  EXPECT_LT(d.samples.size(), 64u);
  EXPECT_GE(d.samples.size(), 16u);
  EXPECT_GT(d.keep_every, 1u);
  EXPECT_EQ(d.samples.front().step, 0);
  EXPECT_GT(d.samples.back().step, 900) << "the kept samples still span the run";
  EXPECT_EQ(d.totals.count, 1000u);
  EXPECT_EQ(d.totals.peak.bytes, 5000u) << "the peak is exact even if its sample was dropped";
  EXPECT_EQ(d.totals.peak.step, 777);
}

// The budget is shared: eight devices keep what one would, whether their samples are
// interleaved (one step of every device after another) or come one device after another
// (the first device's long series is thinned, and its room given back, when the next
// device appears).
TEST(MemSampleSet, DevicesShareOneBudget) {
  for (const bool interleaved : {true, false}) {
    SampleSet set(256);
    const int devices = 8, steps = 1000;
    for (int k = 0; k < devices * steps; ++k) {
      const int device = interleaved ? k % devices : k / steps;
      const int64_t step = interleaved ? k / devices : k % steps;
      MemSample s = sample(step, 100);
      s.device = device;
      set.add(s);
    }
    ASSERT_EQ(set.devices().size(), 8u);
    for (const auto& d : set.devices()) EXPECT_LE(d.samples.capacity(), 256u / 8) << "device " << d.device;
    set.finish();
    std::size_t kept = 0;
    for (const auto& d : set.devices()) {
      EXPECT_LT(d.samples.size(), 256u / 8) << "device " << d.device << (interleaved ? " interleaved" : " in turn");
      EXPECT_GE(d.samples.size(), 8u) << "the kept samples still span the run";
      EXPECT_GT(d.samples.back().step, 900);
      EXPECT_EQ(d.totals.count, 1000u);
      kept += d.samples.size();
    }
    EXPECT_LE(kept, 256u);
  }
}

TEST(MemSampleSet, GapUsesMaxAllocatedWhenEverySampleHasIt) {
  SampleSet set;
  MemSample a = sample(0, 10ull << 30);
  a.max_allocated = 30ull << 30;
  a.reserved = 32ull << 30;
  set.add(a);
  set.finish();
  const auto& t = set.devices()[0].totals;
  EXPECT_TRUE(t.gap_uses_max_allocated);
  EXPECT_EQ(t.max_gap->bytes, 2ull << 30) << "reserved - max_allocated";
  EXPECT_EQ(t.max_raw_gap->bytes, 22ull << 30) << "reserved - allocated";
  EXPECT_EQ(t.peak.bytes, 30ull << 30);
}

TEST(MemSampleReader, GarbageLinesAreCountedWithLineNumbersAndSkipped) {
  testing::TempDir dir;
  const auto p = dir.write("s.jsonl",
                           "{\"step\": 0, \"allocated\": 100}\n"
                           "not json at all\n"
                           "{\"step\": 1, \"allocated\": \n"
                           "{\"step\": 2}\n"
                           "\n"
                           "{\"step\": 3, \"allocated\": 300, \"device\": 1}\n"
                           "{\"step\": 4, \"allocated\": 400}");  // no final newline
  SampleSet set;
  const auto inputs = read_sample_inputs({p.string()}, {}, set);
  set.finish();
  ASSERT_EQ(inputs.size(), 1u);
  const auto& in = inputs[0];
  EXPECT_EQ(in.status, InputStatus::ok);
  EXPECT_EQ(in.lines, 7u);
  EXPECT_EQ(in.samples, 3u);
  EXPECT_EQ(in.other, 1u);
  EXPECT_EQ(in.invalid, 2u);
  ASSERT_EQ(in.problems.size(), 2u);
  EXPECT_EQ(in.problems[0], "line 3: not a JSON object");
  EXPECT_EQ(in.problems[1], "line 4: no \"allocated\"");
  ASSERT_EQ(set.devices().size(), 2u);
  EXPECT_EQ(set.devices()[0].samples.back().line, 7u) << "samples remember their line";
}

TEST(MemSampleReader, MissingBinaryAndHugeLineInputs) {
  testing::TempDir dir;
  const auto bin = dir.write("core.bin", std::string(4096, '\0'));
  const auto huge = dir.write("huge.jsonl", "{\"step\": 1, \"allocated\": 5, \"x\": \"" + std::string(10 << 20, 'a') +
                                                "\"}\n{\"step\": 2, \"allocated\": 6}\n");
  SampleSet set;
  const auto inputs = read_sample_inputs({"/nonexistent/mem.jsonl", bin.string(), huge.string()}, {}, set);
  set.finish();
  ASSERT_EQ(inputs.size(), 3u);
  EXPECT_EQ(inputs[0].status, InputStatus::error);
  EXPECT_EQ(inputs[1].status, InputStatus::skipped);
  EXPECT_NE(inputs[1].note.find("binary"), std::string::npos);
  EXPECT_EQ(inputs[2].status, InputStatus::ok);
  EXPECT_EQ(inputs[2].invalid, 1u);
  EXPECT_EQ(inputs[2].samples, 1u) << "the line after the huge one is still read";
  EXPECT_EQ(set.total_samples(), 1u);
}

TEST(MemSampleReader, CompressedSampleFilesAreRead) {
  testing::TempDir dir;
  synth::SeriesSpec spec;
  spec.steps = 100;
  dir.write("s.jsonl", synth::to_jsonl(synth::make_series(spec)));
  ASSERT_EQ(std::system(("gzip -k " + (dir.path() / "s.jsonl").string()).c_str()), 0);
  SampleSet set;
  const auto inputs = read_sample_inputs({(dir.path() / "s.jsonl.gz").string()}, {}, set);
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_EQ(inputs[0].samples, 100u);
}

}  // namespace
}  // namespace npu_doctor::mem
