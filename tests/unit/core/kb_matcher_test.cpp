#include <gtest/gtest.h>

#include "kb_matcher.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

const char* kKb = R"(schema: npu-doctor/kb/v1
family: m
defaults: {layer: runtime, category: other}
extractors:
  - {id: x.acl, namespace: acl, regex: 'error code is (?<code>\d{6})\b', samples: {match: ['error code is 507015']}}
  - {id: x.seed, namespace: acl, regex: '(?<component>ACL|HCCL|ATC|ERROR)[\s:]*(?<code>\d{6})', samples: {match: ['HCCL 200001']}}
  - {id: x.errno, namespace: hccl, decode: hccl_errno, regex: 'errNo\[0x(?<code>[0-9a-fA-F]{16})\]', samples: {match: ['errNo[0x0000000005000007]']}}
  - {id: x.ret, namespace: ts, decode: runtime_hex, regex: 'retCode=(?<code>0x[0-9a-fA-F]+)', samples: {match: ['retCode=0x31']}}
  - {id: x.drv, namespace: drv, decode: driver_ret, regex: 'drvRetCode=(?<code>\d+)', samples: {match: ['drvRetCode=6']}}
entries:
  - {id: m.507015, namespace: acl, code: "507015", category: aicore_exception, title: {en: a, zh: a}, cause: {en: a, zh: a}, remedies: [{en: a, zh: a}]}
  - {id: m.hccl-range, namespace: acl, range: [200000, 209999], components: [HCCL], category: communication, title: {en: h, zh: h}, cause: {en: h, zh: h}, remedies: [{en: h, zh: h}]}
  - {id: m.acl-range, namespace: acl, range: [200000, 299999], title: {en: r, zh: r}, cause: {en: r, zh: r}, remedies: [{en: r, zh: r}]}
  - {id: m.unavail, namespace: hccl, code: "7", title: {en: u, zh: u}, cause: {en: u, zh: u}, remedies: [{en: u, zh: u}]}
  - {id: m.vec, namespace: ts, code: "0x31", category: aicore_exception, title: {en: v, zh: v}, cause: {en: v, zh: v}, remedies: [{en: v, zh: v}]}
  - {id: m.inner, namespace: inner, code: "0x7020010", title: {en: i, zh: i}, cause: {en: i, zh: i}, remedies: [{en: i, zh: i}]}
  - {id: m.oom-inner, namespace: inner, code: "0x7020016", category: memory, title: {en: o, zh: o}, cause: {en: o, zh: o}, remedies: [{en: o, zh: o}]}
  - {id: m.drv6, namespace: drv, code: "6", category: memory, title: {en: d, zh: d}, cause: {en: d, zh: d}, remedies: [{en: d, zh: d}]}
  - id: m.oom
    category: memory
    code: OOM
    namespace: acl
    match: ['Tried to allocate (?<requested>[\d.]+ [KMG]iB)']
    title: {en: o, zh: o}
    cause: {en: o, zh: o}
    remedies: [{en: o, zh: o}]
    samples: {match: ['Tried to allocate 2.00 GiB']}
)";

class Matcher : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<KbProblem> problems;
    kb_ = testing::kb_from_yaml({kKb}, problems);
    for (const auto& p : problems) ADD_FAILURE() << p.message;
    m_ = KbMatcher::build(kb_, problems);
    ASSERT_TRUE(problems.empty());
  }
  std::vector<std::string> ids(const std::string& line) {
    std::vector<std::string> out;
    for (const auto& h : m_->match_line(line)) out.push_back(h.entry->id + (h.code.empty() ? "" : "#" + h.code));
    std::sort(out.begin(), out.end());
    return out;
  }
  KnowledgeBase kb_;
  std::unique_ptr<KbMatcher> m_;
};

TEST_F(Matcher, ExactCodesAndSeedComponent) {
  EXPECT_EQ(ids("NPU function error: x, error code is 507015"), (std::vector<std::string>{"m.507015#507015"}));
  EXPECT_EQ(ids("HCCL 201234 happened"), (std::vector<std::string>{"m.hccl-range#201234"}));
  // Without a component the narrowest range wins.
  EXPECT_EQ(ids("ERROR: 201234"), (std::vector<std::string>{"m.hccl-range#201234"}));
  EXPECT_EQ(ids("ERROR: 250000"), (std::vector<std::string>{"m.acl-range#250000"}));
}

TEST_F(Matcher, PlogModuleIsTheComponent) {
  EXPECT_EQ(ids("[ERROR] HCCL(1,python):2024-01-01-00:00:00.000.000 [x.cc:1] ERROR 201234"),
            (std::vector<std::string>{"m.hccl-range#201234"}));
}

TEST_F(Matcher, DecodersMapToTheRightNamespace) {
  EXPECT_EQ(ids("[Init]errNo[0x0000000005000007] setup topo detect error"), (std::vector<std::string>{"m.unavail#7"}));
  EXPECT_EQ(ids("Kernel task happen error, retCode=0x31, [vector core exception]"), (std::vector<std::string>{"m.vec#0x31"}));
  EXPECT_EQ(ids("stream setup failed, retCode=0x7020010."), (std::vector<std::string>{"m.inner#0x7020010"}));
  EXPECT_EQ(ids("halMemAlloc failed: drvRetCode=6, device_id=0"), (std::vector<std::string>{"m.drv6#6"}));
  EXPECT_EQ(ids("DevMemAllocManaged failed: drvRetCode=117571606!"), (std::vector<std::string>{"m.oom-inner#0x7020016"}));
}

TEST_F(Matcher, SeveralCodesOnOneLineAreAllFound) {
  EXPECT_EQ(ids("error code is 507015 then ERROR: 250000"),
            (std::vector<std::string>{"m.507015#507015", "m.acl-range#250000"}));
}

TEST_F(Matcher, MessagePatternsCaptureNamedGroups) {
  const auto hits = m_->match_line("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0)");
  ASSERT_EQ(hits.size(), 1u);
  EXPECT_EQ(hits[0].entry->id, "m.oom");
  EXPECT_EQ(hits[0].code, "OOM");  // the entry's own code
  EXPECT_EQ(hits[0].specificity, Specificity::message);
  ASSERT_EQ(hits[0].captures.size(), 1u);
  EXPECT_EQ(hits[0].captures[0].first, "requested");
  EXPECT_EQ(hits[0].captures[0].second, "2.00 GiB");
}

// A pattern confirmed often switches from its interpreted regex to machine code: the
// findings, codes and captures stay the same on either side of the switch.
TEST_F(Matcher, APatternFindsTheSameBeforeAndAfterItsRegexIsCompiledToMachineCode) {
  const std::vector<std::string> lines = {"RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0)",
                                          "NPU function error: x, error code is 507015",
                                          "errNo[0x0000000005000007] HCCL 201234 happened", "nothing to see"};
  std::vector<std::vector<std::string>> first;
  for (const auto& l : lines) first.push_back(ids(l));
  const auto capture = [&] { return m_->match_line(lines[0]).at(0).captures; };
  const auto first_capture = capture();
  for (uint32_t round = 0; round < 3 * KbMatcher::kJitAfter; ++round) {
    for (std::size_t i = 0; i < lines.size(); ++i) ASSERT_EQ(ids(lines[i]), first[i]) << "round " << round << ": " << lines[i];
    ASSERT_EQ(capture(), first_capture) << "round " << round;
  }
  EXPECT_EQ(first[0], (std::vector<std::string>{"m.oom#OOM"}));
}

TEST_F(Matcher, UnknownCodesAndNoiseMatchNothing) {
  EXPECT_TRUE(ids("error code is 999999").empty());
  EXPECT_TRUE(ids("[INFO] GE(1,python): graph built in 123456 us").empty());
}

TEST(MatcherBuild, PatternsTheEngineRejectsAreReportedAndDropped) {
  const char* kb_text = R"(schema: npu-doctor/kb/v1
family: b
entries:
  - {id: b.look, category: other, layer: runtime, match: ['foo(?=bar)'], title: {en: l, zh: l}, cause: {en: l, zh: l}, remedies: [{en: l, zh: l}], samples: {match: [foobar]}}
  - {id: b.ok, category: other, layer: runtime, match: ['hello'], title: {en: h, zh: h}, cause: {en: h, zh: h}, remedies: [{en: h, zh: h}], samples: {match: [hello]}}
)";
  std::vector<KbProblem> problems;
  auto kb = testing::kb_from_yaml({kb_text}, problems);
  ASSERT_TRUE(problems.empty());
  auto m = KbMatcher::build(kb, problems);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_NE(problems[0].message.find("'b.look'"), std::string::npos);
  EXPECT_EQ(m->pattern_count(), 1u);
  EXPECT_EQ(m->match_line("hello world").size(), 1u);
}

// kb lint's proof that the gate covers what it claims: a sample the second stage recognises
// but the gate does not let through is a miss, named; so is none when the gate holds it.
TEST(MatcherSelfTest, TheThoroughFormFindsASampleTheGateDoesNotLetThrough) {
  const char* kb_text = R"(schema: npu-doctor/kb/v1
family: g
entries:
  - {id: g.alpha, category: other, layer: runtime, match: ['alpha failure \d+'], title: {en: a, zh: a}, cause: {en: a, zh: a}, remedies: [{en: a, zh: a}], samples: {match: ['alpha failure 3']}}
  - {id: g.beta, category: other, layer: runtime, match: ['qqqq beta \d+'], title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}], samples: {match: ['qqqq beta 4']}}
)";
  for (const bool gate_holds_alpha : {false, true}) {
    std::vector<KbProblem> problems;
    auto parts = testing::kb_from_yaml({kb_text}, problems).release();
    ASSERT_TRUE(problems.empty());
    for (auto& e : parts.entries) {
      for (auto& p : e.patterns) {
        p.planned = true;  // as if planned against the gate below (a wrong plan for alpha)
        p.gated = true;
      }
    }
    KnowledgeBase kb(std::move(parts.entries), std::move(parts.extractors), "v", std::move(parts.sources));
    ScanGate gate;
    gate.literals = {"qqqq"};
    if (gate_holds_alpha) gate.literals.push_back("alpha");
    kb.set_gate(gate);
    for (const auto use : {KbMatcher::ProgramUse::repeated, KbMatcher::ProgramUse::one_pass}) {
      auto m = KbMatcher::build(kb, problems, {}, use);
      ASSERT_TRUE(problems.empty());
      std::string miss;
      EXPECT_EQ(m->engine_self_test(&miss, true), gate_holds_alpha ? 0u : 1u);
      EXPECT_EQ(miss, gate_holds_alpha ? "" : "alpha failure 3");
      EXPECT_EQ(m->match_line("x alpha failure 12 y").size(), 1u);
    }
  }
}

}  // namespace
}  // namespace npu_doctor
