// Each causal relation said once and the same way (issue 18, part 2), and diagnose
// classifying an out-of-memory line as mem analyze does (part 3).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

nlohmann::json finding(const nlohmann::json& findings, const std::string& rule) {
  for (const auto& f : findings) {
    if (f["rule"] == rule) return f;
  }
  return nullptr;
}

nlohmann::json diagnose_json(const std::string& path) {
  const auto r = run_npu_doctor({"diagnose", "-f", "json", path});
  EXPECT_LE(r.exit_code, 1) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(CausalRelations, EveryFindingHasExactlyOneRelationAndSymptomsPointAtTheRoot) {
  const auto j = diagnose_json(testing::fixtures_dir() + "/../../examples/train-aicore-then-hccl-timeout.log");
  int roots = 0;
  for (const auto& f : j["findings"]) {
    const std::string rel = f["relation"];
    EXPECT_TRUE(rel == "root_cause" || rel == "symptom" || rel == "independent" || rel == "context") << rel;
    EXPECT_EQ(f.contains("symptom_of"), rel == "symptom") << f["rule"];
    if (f["key"] == j["root_cause"]["key"]) ++roots;
  }
  EXPECT_EQ(roots, 1);
}

TEST(CausalRelations, TheReasonCountsWhatTheListsName) {
  const auto r = run_npu_doctor({"diagnose", testing::fixtures_dir() + "/../../examples/train-aicore-then-hccl-timeout.log"});
  // Said once: the why counts, the section names each one with its relation.
  const auto why = r.out.find("  why");
  const auto evidence = r.out.find("  evidence", why);
  ASSERT_NE(why, std::string::npos) << r.out;
  std::string why_text;  // the paragraph with its line breaks undone
  for (char ch : r.out.substr(why, evidence - why)) {
    if (ch == '\n') ch = ' ';
    if (ch != ' ' || why_text.empty() || why_text.back() != ' ') why_text += ch;
  }
  EXPECT_NE(why_text.find("follow from it"), std::string::npos) << why_text;
  EXPECT_EQ(why_text.find("EI0002"), std::string::npos) << why_text;
  EXPECT_NE(r.out.find("FOLLOWS FROM THE ROOT CAUSE"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("follows from op."), std::string::npos) << "no second wording by rule id";
}

TEST(CausalRelations, TheRootCausesOwnLineIsNotItsSymptom) {
  // drvRetCode=6 is read from the halMemAlloc line that is the root cause's evidence.
  const auto j = diagnose_json(testing::fixtures_dir() + "/logs/device_oom_plog.log");
  ASSERT_EQ(j["root_cause"]["rule"], "device.hal-mem-alloc-failed");
  const auto drv = finding(j["findings"], "drv.6");
  ASSERT_FALSE(drv.is_null());
  EXPECT_EQ(drv["relation"], "root_cause");
  EXPECT_FALSE(drv.contains("symptom_of"));
  const auto r = run_npu_doctor({"diagnose", testing::fixtures_dir() + "/logs/device_oom_plog.log"});
  EXPECT_NE(r.out.find("same line"), std::string::npos) << r.out;
  const auto follows = r.out.find("FOLLOWS FROM THE ROOT CAUSE");
  ASSERT_NE(follows, std::string::npos);
  EXPECT_EQ(r.out.find("The driver ran out of device memory", follows), std::string::npos) << r.out;
}

TEST(CausalRelations, TheSpecificCodeIsNotDemotedUnderTheRuntimesGenericReason) {
  testing::TempDir d;
  const auto log = d.write("infer.log",
                           "EH9999: [PID: 961] 2025-09-07-01:11:09.333.567 Inner Error!\n"
                           "        rtStreamSynchronizeWithTimeout execute failed, reason=[aicore timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n"
                           "RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: aclrtSynchronizeStream, error code is 507014\n");
  const auto j = diagnose_json(log.string());
  EXPECT_EQ(j["root_cause"]["code"], "507014") << j["root_cause"];
  const auto generic = finding(j["findings"], "op.aicore-reason");
  ASSERT_FALSE(generic.is_null());
  EXPECT_EQ(generic["relation"], "symptom");
}

TEST(CausalRelations, TheTextNamesThePeerRankTheTimeoutWaitedFor) {
  testing::TempDir d;
  const auto log = d.write(
      "rank_25/train.log",
      "[ERROR] 2025-10-11-15:09:34 (PID:2969, Device:0, RankID:25) ERR00100 PTA call acl api failed.\n"
      "EI0002: [PID: 2969] 2025-10-11-15:09:34.713.335 The wait execution of the Notify register times out. Reason: The "
      "Notify register has not received the Notify record from remote rank: [24]. base information: [streamID:[109], "
      "taskID[38], taskType[Notify Wait]]\n");
  const auto r = run_npu_doctor({"diagnose", log.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("rank 25 waited for rank 24: read rank 24's logs first"), std::string::npos) << r.out;
  const auto zh = run_npu_doctor({"--lang", "zh", "diagnose", log.string()});
  EXPECT_NE(zh.out.find("rank 25 在等待 rank 24：请先看 rank 24 的日志"), std::string::npos) << zh.out;
}

TEST(CausalRelations, TheCulpritRanksOwnErrorsAreItsFailureNotIndependentOnes) {
  if (!find_on_path("python3", std::getenv("PATH") ? std::getenv("PATH") : "")) GTEST_SKIP() << "python3 not found";
  testing::TempDir dir;
  CommandOptions o;
  o.timeout = std::chrono::seconds(60);
  const auto gen = run_command({"python3", NPU_DOCTOR_CLUSTER_GEN, dir.path().string(), "--ranks", "8", "--fault",
                                "aicore", "--seed", "1"},
                               o);
  ASSERT_TRUE(gen.ok()) << gen.err;
  const auto j = diagnose_json(dir.path().string());
  ASSERT_EQ(j["incidents"].size(), 1u) << "the ranks of one job are one incident";
  ASSERT_EQ(j["root_cause"]["basis"], "cluster_culprit");
  for (const char* rule : {"ts.0x31", "acl.507035"}) {
    const auto f = finding(j["findings"], rule);
    ASSERT_FALSE(f.is_null()) << rule;
    EXPECT_NE(f["relation"], "independent") << rule;
  }
  const auto r = run_npu_doctor({"diagnose", dir.path().string()});
  EXPECT_EQ(r.out.find("INDEPENDENT ERRORS"), std::string::npos) << r.out;
}

TEST(CausalRelations, DiagnoseAndMemAgreeOnAnOutOfMemoryWithTheAllocatorsNumbers) {
  testing::TempDir d;
  const auto log = d.write(
      "serve.log",
      "[2024-09-03 02:11:42,000] ERROR Engine step failed\n"
      "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity; 1.02 GiB already "
      "allocated; 1.10 GiB current active; 300.00 MiB free; 1.20 GiB reserved in total by PyTorch)\n");
  const auto mem = run_npu_doctor({"mem", "analyze", "-f", "json", log.string()});
  ASSERT_EQ(mem.exit_code, 1) << mem.err;
  const auto m = nlohmann::json::parse(mem.out);
  ASSERT_FALSE(m["oom"].empty()) << mem.out;
  const std::string mem_says = m["oom"][0]["classification"];
  EXPECT_EQ(mem_says, "mem.memory-outside-allocator");

  const auto j = diagnose_json(log.string());
  EXPECT_EQ(j["root_cause"]["rule"], mem_says);
  EXPECT_EQ(j["root_cause"]["basis"], "oom_classified");
  EXPECT_EQ(j["root_cause"]["explains"], "torch-npu.npu-oom");
  EXPECT_EQ(finding(j["findings"], "torch-npu.npu-oom")["relation"], "root_cause") << "the same line, read two ways";
  const auto r = run_npu_doctor({"diagnose", log.string()});
  EXPECT_NE(r.out.find("held outside the allocator"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("Reduce the (micro-)batch size"), std::string::npos) << r.out;
}

TEST(CausalRelations, AnOutOfMemoryWithoutTheNumbersKeepsItsOwnVerdict) {
  testing::TempDir d;
  const auto log = d.write("train.log", "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n");
  const auto j = diagnose_json(log.string());
  EXPECT_EQ(j["root_cause"]["rule"], "torch-npu.npu-oom");
}

}  // namespace
}  // namespace npu_doctor
