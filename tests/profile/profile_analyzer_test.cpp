// analyze_profile on fixture trees in the real msprof / torch_npu / msprof-analyze formats.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "profile/profile.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

ProfileReport run(std::vector<std::string> paths, std::size_t top = 10) {
  ProfileOptions o;
  o.paths = std::move(paths);
  o.top = top;
  return analyze_profile(o, testing::builtin_kb());
}

bool has_finding(const ProfileReport& r, std::string_view id) {
  return std::any_of(r.findings.begin(), r.findings.end(), [&](const Finding& f) { return f.entry->id == id; });
}

std::string capture(const Finding& f, std::string_view key) {
  for (const auto& [k, v] : f.first().captures) {
    if (k == key) return v;
  }
  return {};
}

const Finding* finding(const ProfileReport& r, std::string_view id) {
  for (const auto& f : r.findings) {
    if (f.entry->id == id) return &f;
  }
  return nullptr;
}

TEST(ProfileAnalyzer, MsprofDirectoryRanksOperatorsByTotalTime) {
  const auto r = run({testing::area_fixture("profile", "msprof")});
  EXPECT_EQ(r.ops_source, "op_summary");
  const auto top = r.top_by_total();
  ASSERT_GE(top.size(), 5u);
  EXPECT_EQ(top[0]->type, "MatMulV3");
  EXPECT_EQ(top[0]->task_type, "AI_CORE");
  EXPECT_EQ(top[0]->count, 12u);
  EXPECT_DOUBLE_EQ(top[0]->total_us, 6000.0);
  EXPECT_DOUBLE_EQ(top[0]->avg_us(), 500.0);
  for (std::size_t i = 1; i < top.size(); ++i) EXPECT_GE(top[i - 1]->total_us, top[i]->total_us);
  double shares = 0;
  for (const auto& o : r.ops) shares += o.share;
  EXPECT_NEAR(shares, 1.0, 1e-9);
  // Communication rows (Task Type COMMUNICATION, N/A ids) are ranked too and counted apart.
  auto comm = std::find_if(r.ops.begin(), r.ops.end(), [](const OpStat& o) { return o.type == "hcom_allReduce_"; });
  ASSERT_NE(comm, r.ops.end());
  EXPECT_TRUE(comm->is_communication());
  EXPECT_DOUBLE_EQ(r.communication_us, 900.0);
  EXPECT_DOUBLE_EQ(r.ai_cpu_us, 450.0);
}

TEST(ProfileAnalyzer, OlderExportsAndPerDeviceCopiesAreLeftOut) {
  const auto r = run({testing::area_fixture("profile", "msprof")});
  for (const auto& o : r.ops) {
    EXPECT_NE(o.type, "OldOp");
    EXPECT_NE(o.type, "DeviceCopyOp");
  }
  auto skipped_with = [&](std::string_view note) {
    return std::any_of(r.skipped.begin(), r.skipped.end(), [&](const InputReport& s) { return s.note.find(note) != std::string::npos; });
  };
  EXPECT_TRUE(skipped_with("an older export"));
  EXPECT_TRUE(skipped_with("per-device copy"));
  EXPECT_TRUE(skipped_with("not profiling tables"));  // the raw .slice data
}

TEST(ProfileAnalyzer, AiCpuFallbackIsFlaggedAndRaised) {
  const auto r = run({testing::area_fixture("profile", "msprof")});
  auto cast = std::find_if(r.ops.begin(), r.ops.end(), [](const OpStat& o) { return o.type == "Cast"; });
  ASSERT_NE(cast, r.ops.end());
  EXPECT_TRUE(cast->is_ai_cpu());
  const Finding* f = finding(r, "profile.aicpu-fallback");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(capture(*f, "ops"), "Cast");
  EXPECT_EQ(f->entry->category, Category::compile_op_unsupported);
}

TEST(ProfileAnalyzer, TimeSplitFromTasksCountsIdleGaps) {
  const auto r = run({testing::area_fixture("profile", "msprof")});
  ASSERT_TRUE(r.time_split);
  EXPECT_EQ(r.time_split->source, "tasks");
  EXPECT_TRUE(r.time_split->free_known);
  // 30 compute tasks and 3 collectives, 5 us apart: 32 gaps inside the span.
  EXPECT_NEAR(r.time_split->free_us, 32 * 5.0, 0.01);
  EXPECT_DOUBLE_EQ(r.time_split->communication_us, 900.0);
}

TEST(ProfileAnalyzer, OperatorCompileTimeFromApiStatistic) {
  const auto r = run({testing::area_fixture("profile", "msprof")});
  EXPECT_EQ(r.compile.compile_calls, 8u);  // aclopCompileAndExecute x6 + OpCompile x2, not aclrtSynchronizeStream
  EXPECT_NEAR(r.compile.compile_us, 3200.5, 1e-6);
  ASSERT_FALSE(r.compile.compile_apis.empty());
  EXPECT_EQ(r.compile.compile_apis.front().first, "aclopCompileAndExecute");
  EXPECT_TRUE(has_finding(r, "profile.op-compile-time"));
  EXPECT_EQ(r.compile.static_tasks, 30u);
  EXPECT_FALSE(has_finding(r, "profile.dynamic-shape"));
}

TEST(ProfileAnalyzer, OldCannColumnSetIsRead) {
  const auto r = run({testing::area_fixture("profile", "old_cann")});
  EXPECT_EQ(r.ops_source, "op_summary");
  ASSERT_FALSE(r.ops.empty());
  EXPECT_EQ(r.ops.front().type, "Conv2D");
  EXPECT_NEAR(r.ops.front().total_us, 200.5, 1e-9);
  EXPECT_TRUE(r.column_problems.empty()) << r.column_problems.front().column;
  ASSERT_TRUE(r.time_split);  // "Task Start Time" without the unit still gives the span
  EXPECT_NEAR(r.time_split->free_us, 4.5 + 5.0 + 10.0, 1e-6);
}

TEST(ProfileAnalyzer, TorchNpuKernelDetailsAndStepTrace) {
  const auto r = run({testing::area_fixture("profile", "torch_npu")});
  EXPECT_EQ(r.ops_source, "kernel_details");
  auto hccl = std::find_if(r.ops.begin(), r.ops.end(), [](const OpStat& o) { return o.task_type == "HCCL"; });
  ASSERT_NE(hccl, r.ops.end());
  EXPECT_TRUE(hccl->is_communication());
  ASSERT_TRUE(r.time_split);
  EXPECT_EQ(r.time_split->source, "step_trace_time");
  EXPECT_NEAR(r.time_split->compute_us, 3400.5 + 3390.5, 1e-6);
  EXPECT_NEAR(r.time_split->communication_us, 2100.2 + 2050.8, 1e-6);
  EXPECT_NEAR(r.time_split->free_us, 9050.0, 1e-6);
  EXPECT_TRUE(has_finding(r, "profile.device-idle"));
  EXPECT_TRUE(has_finding(r, "profile.dynamic-shape"));  // every task OP State = dynamic
}

TEST(ProfileAnalyzer, ClusterStepTraceNamesTheSlowRank) {
  const auto r = run({testing::area_fixture("profile", "cluster/slow_rank")});
  ASSERT_EQ(r.ranks.size(), 4u);  // the "stage" row is not a rank
  ASSERT_TRUE(r.communication);
  EXPECT_EQ(r.communication->basis, "exposed_share");
  EXPECT_TRUE(r.communication->bottleneck);
  EXPECT_EQ(r.communication->slow_rank, "2");
  const Finding* f = finding(r, "profile.slow-rank");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(capture(*f, "slow_rank"), "2");
  EXPECT_EQ(f->entry->category, Category::communication);
  EXPECT_FALSE(has_finding(r, "profile.communication-bound"));
}

TEST(ProfileAnalyzer, EveryRankWaitingAlikeMeansSlowLinks) {
  const auto r = run({testing::area_fixture("profile", "cluster/slow_link")});
  ASSERT_TRUE(r.communication);
  EXPECT_TRUE(r.communication->bottleneck);
  EXPECT_TRUE(r.communication->slow_link);
  EXPECT_TRUE(r.communication->slow_rank.empty());
  EXPECT_TRUE(has_finding(r, "profile.communication-bound"));
}

TEST(ProfileAnalyzer, WaitRatiosFromClusterCommunicationJson) {
  const auto r = run({testing::area_fixture("profile", "cluster/with_comm")});
  ASSERT_TRUE(r.communication);
  EXPECT_EQ(r.communication->basis, "wait_ratio");
  auto rank0 = std::find_if(r.ranks.begin(), r.ranks.end(), [](const RankTime& x) { return x.rank == "0"; });
  ASSERT_NE(rank0, r.ranks.end());
  ASSERT_TRUE(rank0->wait_ratio);
  EXPECT_NEAR(*rank0->wait_ratio, 40.0 / 50.0, 1e-9);  // Total Op Info, not summed twice with the operator
  EXPECT_EQ(r.communication->slow_rank, "2");
}

TEST(ProfileAnalyzer, BelowTheThresholdNothingIsRaised) {
  testing::TempDir dir;
  dir.write("cluster_analysis_output/cluster_step_trace_time.csv",
            "Step,Type,Index,Computing,Communication(Not Overlapped),Overlapped,Communication,Free\n"
            "1,rank,0,1000,100,10,110,50\n1,rank,1,1000,120,10,130,40\n");
  const auto r = run({dir.path().string()});
  ASSERT_TRUE(r.communication);
  EXPECT_FALSE(r.communication->bottleneck);
  EXPECT_TRUE(r.findings.empty());
}

TEST(ProfileAnalyzer, BadFilesSayWhichFileAndColumn) {
  const auto r = run({testing::area_fixture("profile", "bad")});
  auto problem = [&](std::string_view file, std::string_view column, std::string_view what) {
    return std::find_if(r.column_problems.begin(), r.column_problems.end(), [&](const ColumnProblem& p) {
      return p.path.find(file) != std::string::npos && p.column == column && p.problem == what;
    });
  };
  auto non_numeric = problem("op_summary_non_numeric.csv", "Task Duration(us)", "non-numeric");
  ASSERT_NE(non_numeric, r.column_problems.end());
  EXPECT_EQ(non_numeric->first_line, 2u);
  EXPECT_EQ(non_numeric->example, "abc");
  EXPECT_NE(problem("op_summary_non_numeric.csv", "Task Start Time(us)", "non-numeric"), r.column_problems.end());
  EXPECT_NE(problem("op_summary_no_task_type.csv", "Task Type", "missing"), r.column_problems.end());
  EXPECT_NE(problem("op_summary_no_duration.csv", "Task Duration(us)", "missing"), r.column_problems.end());
  EXPECT_NE(problem("op_summary_truncated.csv", "", "short rows"), r.column_problems.end());
  auto input = [&](std::string_view file) {
    return std::find_if(r.inputs.begin(), r.inputs.end(), [&](const ProfileInput& in) {
      return in.report.path.find(file) != std::string::npos;
    });
  };
  ASSERT_NE(input("op_summary_empty.csv"), r.inputs.end());
  EXPECT_EQ(input("op_summary_empty.csv")->report.status, InputStatus::skipped);
  EXPECT_EQ(input("op_summary_truncated.csv")->report.status, InputStatus::partial);
  EXPECT_EQ(input("op_summary_binary.csv")->report.status, InputStatus::error);
  EXPECT_NE(input("op_summary_binary.csv")->report.note.find("binary"), std::string::npos);
  // The readable rows still count: the good row of the non-numeric file and of the truncated one.
  auto mm = std::find_if(r.ops.begin(), r.ops.end(), [](const OpStat& o) { return o.type == "MatMulV3"; });
  ASSERT_NE(mm, r.ops.end());
  EXPECT_EQ(mm->count, 4u);
}

TEST(ProfileAnalyzer, MissingPathIsReportedNotFatal) {
  const auto r = run({testing::area_fixture("profile", "does-not-exist"), testing::area_fixture("profile", "old_cann")});
  EXPECT_FALSE(r.ops.empty());
  ASSERT_FALSE(r.skipped.empty());
  EXPECT_EQ(r.skipped.front().status, InputStatus::error);
}

TEST(ProfileAnalyzer, TopLimitsTheRankings) {
  const auto r = run({testing::area_fixture("profile", "msprof")}, 2);
  EXPECT_EQ(r.top_by_total().size(), 2u);
  EXPECT_EQ(r.top_by_average().size(), 2u);
  EXPECT_EQ(r.top_by_average()[0]->type, "MatMulV3");
}

TEST(ProfileAnalyzer, RenamedFileIsRecognisedByItsHeader) {
  testing::TempDir dir;
  const auto p = dir.write("export.csv", "Op Name,OP Type,Task Type,Task Duration(us)\nx,Gather,AI_CPU,30\ny,MatMul,AI_CORE,70\n");
  const auto r = run({p.string()});
  EXPECT_EQ(r.ops_source, "op_summary");
  EXPECT_EQ(r.ops.size(), 2u);
}

// The msprof-csv fuzzer found this: a row without the trailing Core Type column, after a
// longer row had grown the record buffer, read the previous row's (freed) core cell.
TEST(ProfileAnalyzer, OpStatisticRowWithoutItsCoreColumnIsUnknownCore) {
  testing::TempDir dir;
  const std::string long_type(400, 'X');
  dir.write("op_statistic_1.csv",
            "OP Type,Count,Total Time(us),Core Type\n"
            "Cast,1,2,AI_CPU\n" +
                long_type + ",1,5\n");
  const auto r = run({dir.path().string()});
  auto it = std::find_if(r.ops.begin(), r.ops.end(), [&](const OpStat& o) { return o.type == long_type; });
  ASSERT_NE(it, r.ops.end());
  EXPECT_EQ(it->task_type, "UNKNOWN");
}

}  // namespace
}  // namespace npu_doctor
