// The guide's OOM table as rules (docs/mem.md), one test per row and per guard.
#include <gtest/gtest.h>

#include "memory/oom_classifier.hpp"

namespace npu_doctor::mem {
namespace {

constexpr uint64_t GiB = 1ull << 30;

OomEvent torch_oom(double requested, double total, double allocated, double free, double reserved) {
  auto b = [](double g) { return static_cast<uint64_t>(g * static_cast<double>(GiB)); };
  OomEvent e;
  e.rule = "torch-npu.npu-oom";
  e.requested = b(requested);
  e.total = b(total);
  e.allocated = b(allocated);
  e.free = b(free);
  e.reserved = b(reserved);
  e.device = 0;
  return e;
}

DeviceReport device(uint64_t kept, int64_t last_step, uint64_t first_allocated = 30 * GiB) {
  DeviceReport d;
  d.kept = kept;
  d.samples = kept;
  d.first_step = 0;
  d.last_step = last_step;
  d.first_allocated = first_allocated;
  d.peak.bytes = 40 * GiB;
  d.capacity = 64 * GiB;
  return d;
}

TEST(MemOomClassifier, TheIssuesMessageAlonePartWayWithSamplesIsActivations) {
  const MemAnalyzeOptions o;
  const auto e = torch_oom(2.00, 60.97, 57.12, 1.02, 58.80);
  const auto d = device(300, 2990);
  const auto v = classify_oom(e, &d, o);
  EXPECT_EQ(v.rule, "mem.activation-growth");
  EXPECT_EQ(v.phase, "part_way");
  EXPECT_EQ(v.basis, "ran_past_warmup");
}

TEST(MemOomClassifier, WithoutSamplesTheMessageAloneDoesNotDecide) {
  const auto v = classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), nullptr, {});
  EXPECT_FALSE(v.rule.has_value());
  EXPECT_EQ(v.phase, "unknown");
  EXPECT_EQ(v.basis, "no_samples");
}

TEST(MemOomClassifier, DiedInTheFirstSamplesIsTheInitialFootprint) {
  const auto d = device(2, 10);
  const auto v = classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {});
  EXPECT_EQ(v.rule, "mem.initial-footprint-too-large");
  EXPECT_EQ(v.phase, "start");
  EXPECT_EQ(v.basis, "died_in_warmup");
  MemAnalyzeOptions o;
  o.leak.warmup_steps = 100;
  const auto e = device(40, 60);
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &e, o).rule, "mem.initial-footprint-too-large");
}

TEST(MemOomClassifier, AFirstStepThatFillsTheCardIsTheInitialFootprint) {
  const auto d = device(300, 2990, 60 * GiB);
  const auto v = classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {});
  EXPECT_EQ(v.rule, "mem.initial-footprint-too-large");
  EXPECT_EQ(v.basis, "static_footprint");
}

TEST(MemOomClassifier, ReservedButUnallocatedMemoryThatFitsTheRequestIsFragmentation) {
  const auto d = device(300, 2990);
  const auto v = classify_oom(torch_oom(1.50, 60.97, 40.10, 1.20, 58.90), &d, {});
  EXPECT_EQ(v.rule, "mem.fragmentation");
  EXPECT_EQ(v.basis, "cache_gap_fits_request");
  // Also without samples: the message says it.
  EXPECT_EQ(classify_oom(torch_oom(1.50, 60.97, 40.10, 1.20, 58.90), nullptr, {}).rule, "mem.fragmentation");
  // A gap smaller than the request is not fragmentation (the issue's own example).
  EXPECT_NE(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), nullptr, {}).rule, "mem.fragmentation");
}

TEST(MemOomClassifier, FragmentedSamplesWhileLiveMemoryIsNotFullIsFragmentation) {
  auto d = device(300, 2990);
  d.fragmentation.warning = true;
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {}).basis, "fragmented_cache");
  d.peak.bytes = 62 * GiB;  // live tensors filled the card: not fragmentation
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {}).rule, "mem.activation-growth");
  auto early = device(1, 0);  // a single sample: the run died at the start, whatever its gap
  early.fragmentation.warning = true;
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &early, {}).rule, "mem.initial-footprint-too-large");
}

TEST(MemOomClassifier, MemoryNeitherReservedNorFreeIsHeldOutsideTheAllocator) {
  // vllm-ascend issue 19: 10.65 GiB reserved of 60.97 GiB, 19.52 MiB free.
  const auto v = classify_oom(torch_oom(22.0 / 1024, 60.97, 10.24, 19.52 / 1024, 10.65), nullptr, {});
  EXPECT_EQ(v.rule, "mem.memory-outside-allocator");
  EXPECT_EQ(v.basis, "held_elsewhere");
}

TEST(MemOomClassifier, ALeakExplainsAnOomPartWay) {
  auto d = device(300, 2990);
  d.leak.detected = true;
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {}).rule, "mem.leak");
}

TEST(MemOomClassifier, InferenceIsTheKvCache) {
  MemAnalyzeOptions o;
  o.workload = Workload::inference;
  const auto v = classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), nullptr, o);
  EXPECT_EQ(v.rule, "mem.kv-cache-too-large");
  EXPECT_EQ(v.phase, "inference");
  auto d = device(300, 2990);
  d.inference = true;  // the samples said "phase": "inference"
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, {}).rule, "mem.kv-cache-too-large");
  o.workload = Workload::training;  // the command line wins over the samples
  EXPECT_EQ(classify_oom(torch_oom(2.00, 60.97, 57.12, 1.02, 58.80), &d, o).rule, "mem.activation-growth");
}

TEST(MemOomClassifier, RuntimeFailuresWithoutNumbersUseTheSamples) {
  OomEvent e;
  e.rule = "device.hal-mem-alloc-failed";
  const auto d = device(1, 0);
  EXPECT_EQ(classify_oom(e, &d, {}).rule, "mem.initial-footprint-too-large");
  EXPECT_FALSE(classify_oom(e, nullptr, {}).rule.has_value());
}

}  // namespace
}  // namespace npu_doctor::mem
