#include <gtest/gtest.h>

#include "memory/mem_verdict_words.hpp"

namespace npu_doctor::mem {
namespace {

constexpr double kGiB = 1024.0 * 1024 * 1024;

// The evidence sentences come from data/ui.yaml (mem.*); these pin them word for word, in
// both languages, including the variants the golden cases do not reach.
TEST(MemVerdictWords, LeakSentenceWithAndWithoutAProjectedOutOfMemory) {
  const int64_t oom = 5200;
  EXPECT_EQ(leak_sentence(3, 2 * kGiB, 100, 6 * kGiB, 900, 5 * 1024 * 1024, 0.875, &oom, Lang::en),
            "device 3: the allocated floor rose from 2.0 GiB at step 100 to 6.0 GiB at step 900 "
            "(5.0 MiB per step, confidence 0.88); out of memory projected at step 5200");
  EXPECT_EQ(leak_sentence(3, 2 * kGiB, 100, 6 * kGiB, 900, 5 * 1024 * 1024, 0.875, nullptr, Lang::en),
            "device 3: the allocated floor rose from 2.0 GiB at step 100 to 6.0 GiB at step 900 "
            "(5.0 MiB per step, confidence 0.88)");
  EXPECT_EQ(leak_sentence(3, 2 * kGiB, 100, 6 * kGiB, 900, 5 * 1024 * 1024, 0.875, &oom, Lang::zh),
            "设备 3：已分配内存的底线从第 100 步的 2.0 GiB 升至第 900 步的 6.0 GiB（每步 5.0 MiB，置信度 0.88）"
            "；预计在第 5200 步耗尽内存");
}

TEST(MemVerdictWords, FragmentationSentenceAgainstThePeakOrAllocated) {
  const auto gap = static_cast<uint64_t>(3 * kGiB), threshold = static_cast<uint64_t>(kGiB);
  EXPECT_EQ(fragmentation_sentence(0, gap, 42, true, threshold, Lang::en),
            "device 0: at step 42 the cache (reserved) held 3.0 GiB more than the peak allocation (max_allocated) "
            "(threshold 1.0 GiB)");
  EXPECT_EQ(fragmentation_sentence(0, gap, 42, false, threshold, Lang::en),
            "device 0: at step 42 the cache (reserved) held 3.0 GiB more than allocated (threshold 1.0 GiB)");
  EXPECT_EQ(fragmentation_sentence(0, gap, 42, false, threshold, Lang::zh),
            "设备 0：第 42 步时缓存（reserved）比当前分配（allocated）多 3.0 GiB（阈值 1.0 GiB）");
}

TEST(MemVerdictWords, ReasonsAndPhasesAndUnknownOnes) {
  EXPECT_EQ(leak_reason_text("no_rise", Lang::en), "the floor does not rise");
  EXPECT_EQ(leak_reason_text("no_rise", Lang::zh), "底线没有上升");
  EXPECT_EQ(leak_reason_text("some_new_reason", Lang::zh), "some_new_reason");
  EXPECT_EQ(phase_text("part_way", Lang::en), "part-way");
  EXPECT_EQ(phase_text("", Lang::zh), "阶段未知");
}

}  // namespace
}  // namespace npu_doctor::mem
