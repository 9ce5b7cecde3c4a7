// analyze_memory end to end on files: samples and logs together, with the built-in
// knowledge base recognising the OOM messages.
#include <gtest/gtest.h>

#include "diagnosis/memory_log_findings.hpp"
#include "memory/mem_report.hpp"
#include "memory/synthetic_series.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

using synth::kGiB;
using synth::kMiB;


const std::string& pattern_cache() {
  static const testing::TempDir dir;
  static const std::string path = dir.path().string();
  return path;
}

MemReport analyze(const std::vector<std::string>& paths, MemAnalyzeOptions o = {}) {
  o.paths = paths;
  std::vector<KbProblem> problems;
  MemReport r = analyze_memory(o, testing::builtin_kb(), memory_log_findings(testing::builtin_kb(), problems, pattern_cache()));
  for (const auto& p : problems) ADD_FAILURE() << p.message;
  return r;
}

const Finding* find(const MemReport& r, const std::string& rule) {
  for (const auto& f : r.findings) {
    if (f.entry->id == rule) return &f;
  }
  return nullptr;
}

TEST(MemAnalysis, LeakThatEndsInTheIssuesOomMessage) {
  testing::TempDir dir;
  synth::SeriesSpec s;
  s.leak_per_step = 8 * kMiB;
  s.noise = 100 * kMiB;
  const auto samples = dir.write("mem.jsonl", synth::to_jsonl(synth::make_series(s)));
  const auto r = analyze({samples.string(), testing::area_fixture("memory", "train_oom.log")});

  ASSERT_EQ(r.devices.size(), 1u);
  const auto& d = r.devices[0];
  EXPECT_EQ(d.samples, 3000u);
  EXPECT_TRUE(d.leak.detected);
  EXPECT_NEAR(d.leak.bytes_per_step, 8 * kMiB, 0.5 * kMiB);
  ASSERT_TRUE(d.capacity);
  EXPECT_EQ(d.capacity_source, "oom_message") << "no capacity in the samples: the message's total capacity";
  EXPECT_EQ(*d.capacity, static_cast<uint64_t>(60.97 * kGiB + 0.5));
  ASSERT_TRUE(d.leak.projected_oom_step);
  EXPECT_GT(*d.leak.projected_oom_step, 3000);

  ASSERT_EQ(r.ooms.size(), 1u);
  const auto& e = r.ooms[0];
  EXPECT_EQ(e.rule, "torch-npu.npu-oom");
  EXPECT_EQ(e.line, 8u);
  EXPECT_EQ(e.device, 0);
  EXPECT_EQ(e.requested, 2ull << 30);
  EXPECT_EQ(e.allocated, static_cast<uint64_t>(57.12 * kGiB + 0.5));
  EXPECT_EQ(e.reserved, static_cast<uint64_t>(58.80 * kGiB + 0.5));
  EXPECT_EQ(e.free, static_cast<uint64_t>(1.02 * kGiB + 0.5));
  EXPECT_EQ(e.classification, "mem.leak");
  EXPECT_EQ(e.phase, "part_way");

  const Finding* leak = find(r, "mem.leak");
  ASSERT_NE(leak, nullptr);
  ASSERT_EQ(leak->evidence.size(), 2u) << "the OOM line and the samples";
  EXPECT_EQ(leak->evidence[0].path, testing::area_fixture("memory", "train_oom.log"));
  EXPECT_EQ(leak->evidence[1].path, samples.string());
  EXPECT_EQ(leak->evidence[1].line, 3000u);
  EXPECT_NE(leak->evidence[1].text.find("the allocated floor rose"), std::string::npos);
  EXPECT_NE(find(r, "torch-npu.npu-oom"), nullptr) << "the log's own finding is kept, with its remedies";
  EXPECT_EQ(r.findings.front().entry->id, "mem.leak") << "the analysis comes before the log's findings";
  EXPECT_TRUE(r.anything_found());
}

TEST(MemAnalysis, FragmentingCacheWarnsButIsNoLeak) {
  testing::TempDir dir;
  synth::SeriesSpec s;
  s.noise = 100 * kMiB;
  s.reserved_extra = 0.2 * kGiB;
  s.reserved_growth = 4 * kMiB;  // reserved climbs 12 GiB above the peak allocation
  const auto p = dir.write("mem.jsonl", synth::to_jsonl(synth::make_series(s)));
  const auto r = analyze({p.string()});
  ASSERT_EQ(r.devices.size(), 1u);
  const auto& f = r.devices[0].fragmentation;
  EXPECT_TRUE(f.warning);
  EXPECT_EQ(f.basis, "reserved_minus_max_allocated");
  EXPECT_GT(*f.max_gap_bytes, 11 * kGiB);
  EXPECT_FALSE(r.devices[0].leak.detected);
  const Finding* frag = find(r, "mem.fragmentation");
  ASSERT_NE(frag, nullptr);
  EXPECT_EQ(effective_severity(*frag), Severity::warning);
  EXPECT_EQ(find(r, "mem.leak"), nullptr);
}

TEST(MemAnalysis, CachedActivationsAreNotFragmentationWhenMaxAllocatedIsKnown) {
  // Sampled between steps: activations freed, so reserved - allocated is large, but the
  // cache holds no more than the peak the program needed.
  testing::TempDir dir;
  synth::SeriesSpec s;
  s.spike_every = 2;
  s.spike_length = 1;
  s.spike_height = 20 * kGiB;  // peak inside every other step
  s.reserved_extra = 0.1 * kGiB;
  const auto series = synth::make_series(s);
  const auto with_max = analyze({dir.write("a.jsonl", synth::to_jsonl(series)).string()});
  EXPECT_FALSE(with_max.devices[0].fragmentation.warning);
  EXPECT_GT(*with_max.devices[0].fragmentation.max_reserved_minus_allocated_bytes, 19 * kGiB);
  // Without max_allocated the raw gap is all there is, and it says so.
  const auto without = analyze({dir.write("b.jsonl", synth::to_jsonl(series, true, false)).string()});
  EXPECT_EQ(without.devices[0].fragmentation.basis, "reserved_minus_allocated");
  EXPECT_TRUE(without.devices[0].fragmentation.warning);
}

TEST(MemAnalysis, SeveralDevicesAreJudgedApart) {
  testing::TempDir dir;
  synth::SeriesSpec leaking;
  leaking.leak_per_step = 3 * kMiB;
  leaking.device = 0;
  synth::SeriesSpec flat;
  flat.noise = 300 * kMiB;
  flat.device = 1;
  flat.seed = 7;
  const auto p = dir.write("all.jsonl", synth::to_jsonl(synth::make_series(leaking)) + synth::to_jsonl(synth::make_series(flat)));
  const auto r = analyze({p.string()});
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_TRUE(r.devices[0].leak.detected);
  EXPECT_FALSE(r.devices[1].leak.detected);
  const Finding* leak = find(r, "mem.leak");
  ASSERT_NE(leak, nullptr);
  ASSERT_EQ(leak->evidence.size(), 1u);
  EXPECT_EQ(leak->evidence[0].device, 0);
}

TEST(MemAnalysis, HealthyRunHasNothingToReport) {
  testing::TempDir dir;
  synth::SeriesSpec s;
  s.noise = 200 * kMiB;
  s.saw_period = 30;
  s.saw_amplitude = 4 * kGiB;
  s.spike_every = 500;
  s.spike_height = 6 * kGiB;
  const auto r = analyze({dir.write("ok.jsonl", synth::to_jsonl(synth::make_series(s))).string()});
  EXPECT_TRUE(r.findings.empty());
  EXPECT_TRUE(r.ooms.empty());
  EXPECT_FALSE(r.anything_found());
  EXPECT_FALSE(r.devices[0].capacity) << "no capacity anywhere: unknown, not guessed";
}

TEST(MemAnalysis, OtherProcessOomFromALogAlone) {
  const auto r = analyze({testing::area_fixture("memory", "other_process_oom.log")});
  EXPECT_TRUE(r.devices.empty());
  ASSERT_EQ(r.ooms.size(), 1u);
  EXPECT_EQ(r.ooms[0].classification, "mem.memory-outside-allocator");
  EXPECT_NE(find(r, "mem.memory-outside-allocator"), nullptr);
}

TEST(MemAnalysis, FragmentedOomFromALogAlone) {
  const auto r = analyze({testing::area_fixture("memory", "fragmented_oom.log")});
  ASSERT_EQ(r.ooms.size(), 1u);
  EXPECT_EQ(r.ooms[0].classification, "mem.fragmentation");
  EXPECT_EQ(r.ooms[0].basis, "cache_gap_fits_request");
}

TEST(MemAnalysis, RuntimeAllocationFailuresAreOomEventsWithoutNumbers) {
  const auto r = analyze({testing::area_fixture("memory", "runtime_oom_plog.log")});
  ASSERT_FALSE(r.ooms.empty());
  bool hal = false;
  for (const auto& e : r.ooms) {
    hal = hal || e.rule == "device.hal-mem-alloc-failed";
    EXPECT_EQ(e.classification, "") << "a log alone cannot say when in the run it happened";
    EXPECT_EQ(e.phase, "unknown");
  }
  EXPECT_TRUE(hal);
  EXPECT_TRUE(r.anything_found());
}

TEST(MemAnalysis, OomAtStartWithOnlyTheFirstSample) {
  testing::TempDir dir;
  const auto p = dir.write("start.jsonl", "{\"step\": 0, \"device\": 0, \"allocated\": 58000000000, \"reserved\": 60000000000}\n");
  const auto r = analyze({p.string(), testing::area_fixture("memory", "train_oom.log")});
  ASSERT_EQ(r.ooms.size(), 1u);
  EXPECT_EQ(r.ooms[0].classification, "mem.initial-footprint-too-large");
  EXPECT_EQ(r.ooms[0].phase, "start");
}

TEST(MemAnalysis, CapacityOptionWinsOverSamplesAndMessages) {
  testing::TempDir dir;
  synth::SeriesSpec s;
  auto series = synth::make_series(s);
  for (auto& m : series) m.capacity = 32ull << 30;
  const auto p = dir.write("cap.jsonl", synth::to_jsonl(series));
  auto r = analyze({p.string()});
  EXPECT_EQ(r.devices[0].capacity_source, "samples");
  EXPECT_EQ(*r.devices[0].capacity, 32ull << 30);
  MemAnalyzeOptions o;
  o.capacity = 64ull << 30;
  r = analyze({p.string()}, o);
  EXPECT_EQ(r.devices[0].capacity_source, "option");
  const auto& d = r.devices[0];
  const uint64_t high = std::max(d.peak.bytes, d.peak_reserved->bytes);
  EXPECT_EQ(*d.headroom_bytes, static_cast<int64_t>(64ull << 30) - static_cast<int64_t>(high));
}

TEST(MemAnalysis, GarbageLinesAreReportedAndTheRestAnalysed) {
  const auto r = analyze({testing::area_fixture("memory", "garbage.jsonl")});
  ASSERT_EQ(r.inputs.size(), 1u);
  EXPECT_EQ(r.inputs[0].samples, 3u);
  EXPECT_EQ(r.inputs[0].invalid, 4u);
  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices[0].samples, 2u);
}

TEST(MemAnalysis, ChartThinningKeepsSpikesAndTroughs) {
  std::vector<MemSample> v;
  for (int64_t i = 0; i < 10000; ++i) {
    MemSample s;
    s.step = i;
    s.allocated = i == 4321 ? 900 : (i == 8000 ? 1 : 100);
    v.push_back(s);
  }
  const auto pts = chart_points(v, 200);
  EXPECT_LE(pts.size(), 200u);
  bool spike = false, trough = false;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    spike = spike || pts[i].allocated == 900;
    trough = trough || pts[i].allocated == 1;
    if (i > 0) {
      EXPECT_LT(pts[i - 1].step, pts[i].step);
    }
  }
  EXPECT_TRUE(spike);
  EXPECT_TRUE(trough);
}

}  // namespace
}  // namespace npu_doctor::mem
