// The shipped knowledge base checks itself: every entry loads, every sample is
// recognised, every code entry can be found in a log line, and the seed guide's
// table is present exactly.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "kb_matcher.hpp"
#include "npu_doctor/kb_lint.hpp"
#include "diagnosis/render.hpp"
#include "explain/explain.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::builtin_kb;

TEST(KnowledgeBase, LoadsWithoutProblems) {
  std::vector<KbProblem> problems;
  const auto kb = load_knowledge_base(KbLoadOptions{}, problems);
  for (const auto& p : problems) ADD_FAILURE() << p.file << ":" << p.line << ": " << p.message;
  EXPECT_GT(kb.entries().size(), 100u);
}

TEST(KnowledgeBase, LintIsCleanSoEverySampleIsRecognised) {
  for (const auto& p : lint_knowledge_base(builtin_kb())) {
    if (p.is_error) ADD_FAILURE() << p.file << ":" << p.line << ": " << p.message;
  }
}

TEST(KnowledgeBase, EverySampleMatchesItsEntryAndNoMatchSamplesDoNot) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(builtin_kb(), problems);
  ASSERT_TRUE(problems.empty());
  std::size_t checked = 0;
  for (const auto& e : builtin_kb().entries()) {
    for (const auto& s : e.samples_match) {
      const auto hits = matcher->match_line(s);
      EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) { return h.entry == &e; }))
          << e.id << " does not recognise: " << s;
      ++checked;
    }
    for (const auto& s : e.samples_no_match) {
      const auto hits = matcher->match_line(s);
      EXPECT_FALSE(std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) { return h.entry == &e; }))
          << e.id << " wrongly recognises: " << s;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

// A line in which each namespace's extractors find `code`.
std::string line_for(const std::string& ns, const std::string& code) {
  if (ns == "acl") return "RuntimeError: x NPU function error: f(), error code is " + code;
  if (ns == "ecode") return code + ": [PID: 1] 2025-01-01-00:00:00.000.000 message";
  if (ns == "pta") return "[ERROR] 2025-01-01-00:00:00 (PID:1, Device:0, RankID:-1) " + code + " PTA message";
  if (ns == "hccl") return "HCCL function error: HcclAllReduce(x), error code is " + code;
  if (ns == "ts") return "Kernel task happen error, retCode=" + code + ", [x].";
  if (ns == "inner") return "rtX:[INIT][DEFAULT]ErrCode=507000, desc=[x], InnerCode=" + code;
  if (ns == "event") return "Event id=" + code + ", severity=2";
  if (ns == "drv") return "halMemAlloc failed: drvRetCode=" + code + ", device_id=0";
  return code;
}

TEST(KnowledgeBase, EveryExactCodeIsFoundInALogLine) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(builtin_kb(), problems);
  std::size_t checked = 0;
  for (const auto& e : builtin_kb().entries()) {
    if (!e.patterns.empty()) continue;  // message entries are covered by their samples
    for (const auto& code : e.codes) {
      const auto line = line_for(e.code_namespace, code);
      const auto hits = matcher->match_line(line);
      EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) { return h.entry == &e; }))
          << e.id << " (" << e.code_namespace << ":" << code << ") not found in: " << line;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20u);
}

TEST(KnowledgeBase, EveryEntryIsBilingualAndHasRemedies) {
  for (const auto& e : builtin_kb().entries()) {
    EXPECT_FALSE(e.title.en.empty() || e.title.zh.empty()) << e.id;
    EXPECT_FALSE(e.cause.en.empty() || e.cause.zh.empty()) << e.id;
    ASSERT_FALSE(e.remedies.empty()) << e.id;
    for (const auto& r : e.remedies) EXPECT_FALSE(r.en.empty() || r.zh.empty()) << e.id;
  }
}

struct SeedRowExpected {
  const char* id;
  const char* name;
  const char* range;
  const char* examples;
  const char* cause;
  const char* remedy;
  Category category;
};

// The seed guide's table, exactly as the product started from it.
const SeedRowExpected kSeedTable[] = {
    {"seed.acl-error-memory", "ACL_ERROR_MEMORY", "100000-109999", "100001, 100002",
     "memory allocation failed / device out of memory (OOM)", "reduce batch size / enable ZeRO-3 / check for memory leaks",
     Category::memory},
    {"seed.acl-error-resource", "ACL_ERROR_RESOURCE", "110000-119999", "110001",
     "resources exhausted: streams/events not released",
     "check for a missing torch.npu.synchronize() or release tensors explicitly", Category::resource},
    {"seed.hccl-error-timeout", "HCCL_ERROR_TIMEOUT", "200000-209999", "200001, 200002",
     "multi-card communication timeout (network jitter / wrong configuration)",
     "raise HCCL_CONNECT_TIMEOUT / check the NIC's physical links", Category::communication},
    {"seed.hccl-error-rank", "HCCL_ERROR_RANK", "210000-219999", "210001",
     "wrong rank configuration / node id conflict", "check RANK/WORLD_SIZE / check hccn_tool status",
     Category::rank_config},
    {"seed.atc-error-op-not-support", "ATC_ERROR_OP_NOT_SUPPORT", "300000-309999", "300001",
     "ONNX operator not supported / fusion failed", "read op_not_support.log / recompile with fusion disabled",
     Category::compile_op_unsupported},
    {"seed.atc-error-shape", "ATC_ERROR_SHAPE", "320000-329999", "320001",
     "shape mismatch / wrong dynamic shape configuration", "give the dynamic shape inputs on the ATC command line",
     Category::compile_shape},
    {"seed.op-error-compute", "OP_ERROR_COMPUTE", "400000-409999", "400001",
     "operator overflow / division by zero / NaN", "check input data ranges / change precision (FP16 to BF16)",
     Category::compute_overflow_nan},
    {"seed.env-error-driver", "ENV_ERROR_DRIVER", "600000-609999", "600001", "driver / firmware version mismatch",
     "upgrade firmware to the recommended version (CANN compatibility matrix)", Category::driver_firmware_env},
};

TEST(SeedTable, IsPresentExactly) {
  for (const auto& row : kSeedTable) {
    const Entry* e = builtin_kb().find_id(row.id);
    ASSERT_NE(e, nullptr) << row.id;
    ASSERT_TRUE(e->seed) << row.id;
    EXPECT_EQ(e->seed->name, row.name);
    EXPECT_EQ(e->seed->range, row.range);
    EXPECT_EQ(e->seed->examples, row.examples);
    EXPECT_EQ(e->seed->cause, row.cause);
    EXPECT_EQ(e->seed->remedy, row.remedy);
    EXPECT_EQ(e->name, row.name);
    EXPECT_EQ(e->category, row.category);
    EXPECT_EQ(e->cause.en, row.cause);
    // The range the entry covers is the row's range.
    ASSERT_EQ(e->ranges.size(), 1u);
    EXPECT_EQ(std::to_string(e->ranges[0].lo) + "-" + std::to_string(e->ranges[0].hi), row.range);
    // The user-facing remedies start with the row's remedies, in order, word for word.
    std::vector<std::string> pieces;
    const std::string remedy = row.remedy;
    for (std::size_t pos = 0;;) {
      const std::size_t sep = remedy.find(" / ", pos);
      pieces.push_back(remedy.substr(pos, sep == std::string::npos ? std::string::npos : sep - pos));
      if (sep == std::string::npos) break;
      pos = sep + 3;
    }
    ASSERT_GE(e->remedies.size(), pieces.size()) << row.id;
    for (std::size_t i = 0; i < pieces.size(); ++i) {
      EXPECT_TRUE(e->remedies[i].en.starts_with(pieces[i])) << row.id << ": " << e->remedies[i].en;
    }
  }
}

TEST(SeedTable, EveryExampleCodeIsFoundAndExplained) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(builtin_kb(), problems);
  for (const auto& row : kSeedTable) {
    std::string examples = row.examples;
    for (std::size_t pos = 0; pos < examples.size();) {
      const std::size_t comma = examples.find(',', pos);
      std::string code = examples.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
      code.erase(0, code.find_first_not_of(' '));
      pos = comma == std::string::npos ? examples.size() : comma + 1;
      // The seed guide's own script finds "ERROR: <code>"; npu-doctor must too.
      const auto hits = matcher->match_line("ERROR: " + code);
      EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const LineHit& h) { return h.code == code; }))
          << "ERROR: " << code;
      // With the component the guide's table names, the table's row explains it
      // unless the real code has an exact meaning of its own.
      const auto explained = explain_query(builtin_kb(), code);
      ASSERT_FALSE(explained.matches.empty()) << code;
      // The row is the answer, or the family named after the code's own entry.
      auto lists = [&](const std::vector<CodeResolution>& v) {
        return std::any_of(v.begin(), v.end(), [&](const CodeResolution& m) { return m.entry->id == row.id; });
      };
      EXPECT_TRUE(lists(explained.matches) || lists(explained.families)) << code << " should list " << row.id;
    }
  }
}

TEST(SeedTable, TheComponentNamedBeforeACodeSettlesTheRange) {
  // 201234 is no real AscendCL code: after "HCCL" it is the seed's communication timeout.
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(builtin_kb(), problems);
  auto hits = matcher->match_line("HCCL 201234");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].entry->id, "seed.hccl-error-timeout");
  hits = matcher->match_line("ATC 300123 op not supported");
  ASSERT_FALSE(hits.empty());
  EXPECT_EQ(hits[0].entry->id, "seed.atc-error-op-not-support");
}

}  // namespace
}  // namespace npu_doctor
