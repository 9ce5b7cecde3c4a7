#include <gtest/gtest.h>

#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "diagnosis/diagnosis.hpp"
#include "diagnosis/root_cause.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// Builds findings over hand-made entries: the rules of root_cause.hpp, one per test.
class RootCause : public ::testing::Test {
 protected:
  const Entry* entry(const std::string& id, Category c, Role role = Role::cause, Severity s = Severity::error,
                     std::vector<Category> symptom_of = {}, std::vector<std::string> explains = {}) {
    Entry e;
    e.id = id;
    e.category = c;
    e.role = role;
    e.severity = s;
    e.symptom_of = std::move(symptom_of);
    e.explains = std::move(explains);
    entries_.push_back(e);
    return &entries_.back();
  }
  void add(const Entry* e, Specificity spec, uint64_t line, std::size_t input = 0,
           std::optional<int64_t> time_s = std::nullopt, bool low_level_only = false) {
    Finding f;
    f.entry = e;
    f.specificity = spec;
    f.count = 1;
    f.only_on_low_level_lines = low_level_only;
    Evidence ev;
    ev.input = input;
    ev.path = "in" + std::to_string(input);
    ev.line = line;
    if (time_s) ev.time = Timestamp{*time_s * 1000000, true, "t"};
    f.evidence.push_back(ev);
    findings_.push_back(f);
  }
  std::string root() {
    auto d = choose_root_cause(findings_);
    decision_ = d;
    return d ? findings_[d->finding].entry->id : "none";
  }
  std::deque<Entry> entries_;
  std::vector<Finding> findings_;
  std::optional<RootCauseDecision> decision_;
};

TEST_F(RootCause, WarningsAndHintsAloneNameNoRootCause) {
  add(entry("fallback", Category::compile_op_unsupported, Role::hint, Severity::warning), Specificity::message, 1);
  add(entry("w", Category::communication, Role::cause, Severity::warning), Specificity::exact_code, 2);
  EXPECT_EQ(root(), "none");
}

TEST_F(RootCause, AnErrorWrapperOutranksAWarningCause) {
  add(entry("w", Category::memory, Role::cause, Severity::warning), Specificity::message, 1);
  add(entry("wrap", Category::other, Role::wrapper), Specificity::exact_code, 2);
  EXPECT_EQ(root(), "wrap");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::sole_error);
}

TEST_F(RootCause, CauseBeatsAnEarlierGenericWrapper) {
  add(entry("ERR00100", Category::other, Role::wrapper), Specificity::exact_code, 1);
  add(entry("507014", Category::aicore_exception), Specificity::exact_code, 3);
  EXPECT_EQ(root(), "507014");
  EXPECT_EQ(findings_[0].symptom_of, "507014");
  EXPECT_EQ(findings_[0].effective_role, Role::wrapper);
}

TEST_F(RootCause, TimeoutIsASymptomWhenABasicCauseIsPresent) {
  const auto* notify = entry("EI0002", Category::communication, Role::cause, Severity::error, {Category::aicore_exception, Category::memory});
  add(notify, Specificity::exact_code, 1);
  add(entry("507015", Category::aicore_exception), Specificity::exact_code, 200);
  EXPECT_EQ(root(), "507015");
  EXPECT_EQ(findings_[0].effective_role, Role::symptom);
  EXPECT_EQ(findings_[0].symptom_of, "507015");
  ASSERT_EQ(decision_->consequences.size(), 1u);
}

TEST_F(RootCause, TimeoutAloneIsTheRootCause) {
  add(entry("ERR00100", Category::other, Role::wrapper), Specificity::exact_code, 1);
  add(entry("EI0002", Category::communication, Role::cause, Severity::error, {Category::memory}), Specificity::exact_code, 2);
  EXPECT_EQ(root(), "EI0002");
}

TEST_F(RootCause, AHintThatExplainsTheErrorBecomesTheRootCause) {
  const auto* init = entry("init-500001", Category::install_version_mismatch);
  add(entry("numpy2", Category::install_version_mismatch, Role::hint, Severity::info, {}, {"init-500001"}),
      Specificity::message, 1);
  add(init, Specificity::message, 12);
  EXPECT_EQ(root(), "numpy2");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::explained_by_hint);
  ASSERT_TRUE(decision_->explained);
  EXPECT_EQ(findings_[*decision_->explained].entry->id, "init-500001");
  EXPECT_EQ(findings_[*decision_->explained].symptom_of, "numpy2");
}

TEST_F(RootCause, AHintThatExplainsNothingPresentStaysAHint) {
  add(entry("numpy2", Category::install_version_mismatch, Role::hint, Severity::info, {}, {"init-500001"}),
      Specificity::message, 1);
  add(entry("oom", Category::memory), Specificity::message, 5);
  EXPECT_EQ(root(), "oom");
}

TEST_F(RootCause, TheMostSpecificErrorOfTheFirstBlockWins) {
  add(entry("207004", Category::permission_device), Specificity::exact_code, 1);
  add(entry("visible-devices", Category::rank_config), Specificity::message, 5);
  EXPECT_EQ(root(), "visible-devices");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::most_specific);
  EXPECT_EQ(decision_->block_size, 2u);
}

TEST_F(RootCause, TheEarliestDecisiveErrorWinsAcrossBlocks) {
  add(entry("507015", Category::aicore_exception), Specificity::exact_code, 10);
  add(entry("oom", Category::memory), Specificity::message, 900);
  EXPECT_EQ(root(), "507015");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::earliest_decisive);
  ASSERT_EQ(decision_->independent.size(), 1u);
  EXPECT_TRUE(findings_[1].symptom_of.empty());
}

TEST_F(RootCause, CodeRangeFallbacksAreNotDecisive) {
  add(entry("seed-range", Category::memory), Specificity::code_family, 1);
  add(entry("507015", Category::aicore_exception), Specificity::exact_code, 900);
  EXPECT_EQ(root(), "507015");
}

TEST_F(RootCause, InsideABlockTheFirstLinkOfTheCascadeWins) {
  add(entry("87-occupied", Category::permission_device), Specificity::exact_code, 1);
  add(entry("507008-soc", Category::install_version_mismatch), Specificity::exact_code, 3);
  EXPECT_EQ(root(), "87-occupied");
  EXPECT_EQ(findings_[1].symptom_of, "87-occupied") << "the rest of the block is part of the same failure";
  EXPECT_TRUE(decision_->independent.empty());
}

TEST_F(RootCause, SeedOrderBreaksTiesBetweenErrorsOfTheSameMoment) {
  add(entry("oom", Category::memory), Specificity::exact_code, 7);
  add(entry("comm", Category::communication), Specificity::exact_code, 7);
  add(entry("driver", Category::driver_firmware_env), Specificity::exact_code, 7);
  EXPECT_EQ(root(), "driver");
}

TEST_F(RootCause, TimeStampsOrderFindingsAcrossInputs) {
  add(entry("late", Category::memory), Specificity::exact_code, 1, /*input=*/0, /*time=*/1000);
  add(entry("early", Category::aicore_exception), Specificity::exact_code, 50, /*input=*/1, /*time=*/100);
  EXPECT_EQ(root(), "early");
  EXPECT_TRUE(occurs_before(findings_[1], findings_[0]));
}

TEST_F(RootCause, ErrorsLoggedOnlyAsWarningsAreNotRootCauses) {
  // "WARNING ... Failed to import from vllm._C: No module named 'vllm._C'" in a healthy log.
  add(entry("module-missing", Category::install_version_mismatch), Specificity::message, 3, 0, std::nullopt, true);
  EXPECT_EQ(root(), "none");
  EXPECT_EQ(effective_severity(findings_[0]), Severity::warning);
  Entry* e = &entries_.back();
  e->any_level = true;  // entries whose producers log real failures at INFO keep their severity
  EXPECT_EQ(root(), "module-missing");
}

TEST_F(RootCause, SymptomOnlyLogsStillGetARootCause) {
  add(entry("507046", Category::communication, Role::symptom), Specificity::exact_code, 1);
  add(entry("EZ9999", Category::other, Role::wrapper), Specificity::exact_code, 2);
  EXPECT_EQ(root(), "507046");
  EXPECT_EQ(findings_[1].symptom_of, "507046");
}

// The word fallback's guesses (Finding::words): only when no entry found anything specific
// (no error, or only envelopes of category "other" that are no cause), and only above
// their threshold.
TEST_F(RootCause, AWordGuessDecidesOnlyWhenNoEntryFoundAnError) {
  const Entry* mem = entry("words.memory", Category::memory);
  add(mem, Specificity::words, 1);
  findings_.back().words = WordGuess{0.8, 0.6};
  EXPECT_EQ(root(), "words.memory");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::words);

  // A cause an entry found wins, even one of category "other" far away...
  add(entry("other-cause", Category::other, Role::cause), Specificity::message, 500);
  EXPECT_EQ(root(), "other-cause");
  EXPECT_TRUE(decision_->independent.empty());  // the guess is shown, not listed
  EXPECT_TRUE(findings_[0].symptom_of.empty());
  findings_.pop_back();

  // ...and so does a wrapper that names a category (an HCCL code wrapping the failure).
  add(entry("hccl-wrap", Category::communication, Role::wrapper), Specificity::exact_code, 500);
  EXPECT_EQ(root(), "hccl-wrap");
}

TEST_F(RootCause, AWordGuessReadsTheMessageOfAGenericEnvelope) {
  // A bare Python exception and an "engine failed to start" symptom say nothing of the
  // failure; the words of the exception's message do.
  add(entry("python.exception", Category::other, Role::wrapper), Specificity::message, 10);
  add(entry("engine-failed", Category::other, Role::symptom), Specificity::message, 12);
  add(entry("words.compile_op_unsupported", Category::compile_op_unsupported), Specificity::words, 10);
  findings_.back().words = WordGuess{0.79, 0.7};
  EXPECT_EQ(root(), "words.compile_op_unsupported");
  EXPECT_EQ(decision_->basis, RootCauseDecision::Basis::words);

  // Below its threshold the guess is a warning: an envelope stays the root cause.
  findings_.back().words = WordGuess{0.65, 0.7};
  EXPECT_NE(root(), "words.compile_op_unsupported");
  EXPECT_NE(decision_->basis, RootCauseDecision::Basis::words);
}

TEST_F(RootCause, AWordGuessBelowItsThresholdIsAWarning) {
  add(entry("words.memory", Category::memory), Specificity::words, 1);
  findings_.back().words = WordGuess{0.55, 0.6};
  EXPECT_EQ(effective_severity(findings_[0]), Severity::warning);
  EXPECT_EQ(root(), "none");
  findings_.back().words = WordGuess{0.6, 0.6};
  EXPECT_EQ(root(), "words.memory");
}

TEST_F(RootCause, AmongWordGuessesTheEarliestOpensTheBlock) {
  add(entry("words.communication", Category::communication), Specificity::words, 400);
  findings_.back().words = WordGuess{0.95, 0.6};
  add(entry("words.memory", Category::memory), Specificity::words, 10);
  findings_.back().words = WordGuess{0.7, 0.6};
  EXPECT_EQ(root(), "words.memory");
  EXPECT_EQ(decision_->independent, std::vector<std::size_t>{0});
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

// Meaning from context (kb-schema.md): EZ1001 is a shape error by itself and an unsupported
// data type when the line beside it says so.
TEST(ContextMeaning, ACodeIsReadAsTheEntryItsNeighbouringLineNames) {
  testing::TempDir dir;
  const auto dtype = dir.write("dtype.log",
                               "RuntimeError: call aclnnCast failed, detail:EZ1001: [PID: 1] 2025-07-01-15:17:20.355.304 "
                               "The dtype or format is not supported for the input self: DT_BFLOAT16\n");
  const auto shape = dir.write("shape.log",
                               "RuntimeError: call aclnnAdd failed, detail:EZ1001: [PID: 1] 2025-07-01-15:17:20.355.304 "
                               "The size of tensor self [3] must match the size of tensor other [4]\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {dtype.string()};
  const auto a = d.run(o);
  ASSERT_NE(a.root_finding(), nullptr);
  EXPECT_EQ(a.root_finding()->entry->category, Category::compile_op_unsupported);
  bool read = false;
  for (const auto& f : a.findings) read = read || (f.read_from != nullptr && f.read_from->id == "ecode.EZ1001");
  EXPECT_TRUE(read);
  o.paths = {shape.string()};
  const auto b = d.run(o);
  ASSERT_NE(b.root_finding(), nullptr);
  EXPECT_EQ(b.root_finding()->entry->category, Category::compile_shape);
  for (const auto& f : b.findings) EXPECT_EQ(f.read_from, nullptr);
}

// A diagnoser over a hand-made knowledge base, and the logs one test writes for it.
class LogsDiagnoser {
 public:
  explicit LogsDiagnoser(const char* kb_text) : kb_(testing::kb_from_yaml({kb_text}, problems_)), d_(kb_, problems_) {}
  const std::vector<KbProblem>& problems() const { return problems_; }
  DiagnosisReport run(const std::vector<std::string>& logs, std::size_t max_evidence = 3) {
    DiagnoseOptions o;
    o.max_evidence = max_evidence;
    for (const auto& log : logs) o.paths.push_back(dir_.write("l" + std::to_string(written_++) + ".log", log).string());
    return d_.run(o);
  }
  // The root cause's entry id, or "none".
  std::string root_of(const std::vector<std::string>& logs, std::size_t max_evidence = 3) {
    const auto r = run(logs, max_evidence);
    return r.root_finding() == nullptr ? "none" : r.root_finding()->entry->id;
  }

 private:
  std::vector<KbProblem> problems_;
  KnowledgeBase kb_;
  Diagnoser d_;
  testing::TempDir dir_;
  int written_ = 0;
};

// A failure that a later line of the same log shows was overcome (kb-schema.md, `recovers`):
// a probe that failed and a fallback that worked. Read as the later line's hint, it is not a
// root cause; before the failure, in another log, or with the failure again after it, the
// later line changes nothing.
TEST(ContextMeaning, AFailureALaterLineRecoversIsNoRootCause) {
  LogsDiagnoser d(R"(schema: npu-doctor/kb/v1
family: t
entries:
  - {id: t.probe-failed, category: driver_firmware_env, layer: driver, match: ['Failed to open the v1 interface'], samples: {match: ['Failed to open the v1 interface']}, title: {en: p, zh: p}, cause: {en: p, zh: p}, remedies: [{en: p, zh: p}]}
  - {id: t.fallback-ok, category: driver_firmware_env, layer: driver, severity: info, role: hint, recovers: [t.probe-failed], match: ['Opened the v2 interface instead'], samples: {match: ['Opened the v2 interface instead']}, title: {en: f, zh: f}, cause: {en: f, zh: f}, remedies: [{en: f, zh: f}]}
)");
  ASSERT_TRUE(d.problems().empty()) << d.problems().front().message;
  const std::string failed = "ERROR Failed to open the v1 interface\n";
  const std::string fallback = "INFO Opened the v2 interface instead\n";
  EXPECT_EQ(d.root_of({failed + "x\n" + fallback}), "none");
  EXPECT_EQ(d.root_of({fallback + failed}), "t.probe-failed");               // the fallback came first
  EXPECT_EQ(d.root_of({failed, fallback}), "t.probe-failed");                // another log
  EXPECT_EQ(d.root_of({failed + fallback + failed}), "t.probe-failed");      // failed again after it
  const auto r = d.run({failed + fallback});
  ASSERT_EQ(r.findings.size(), 1u);  // the failure merged into the hint that recovers it
  EXPECT_EQ(r.findings[0].entry->id, "t.fallback-ok");
  ASSERT_NE(r.findings[0].read_from, nullptr);
  EXPECT_EQ(r.findings[0].read_from->id, "t.probe-failed");
}

// A test run's passing summary (kb-schema.md, `passes_run`): the errors a run printed before
// it are its tests' own (a negative test provokes one). A failure after the summary (GoogleTest
// lists failed tests after its passed count), an error in another log, or an error with
// occurrences not kept leaves every error a failure.
TEST(ContextMeaning, ErrorsBeforeAPassingTestSummaryAreNoRootCause) {
  LogsDiagnoser d(R"(schema: npu-doctor/kb/v1
family: t
entries:
  - {id: t.malloc-failed, category: memory, layer: driver, match: ['malloc failed, invalid size'], samples: {match: ['malloc failed, invalid size']}, title: {en: m, zh: m}, cause: {en: m, zh: m}, remedies: [{en: m, zh: m}]}
  - {id: t.test-failed, category: other, layer: framework, role: wrapper, match: ['\[  FAILED  \] \w'], samples: {match: ['[  FAILED  ] A.b']}, title: {en: f, zh: f}, cause: {en: f, zh: f}, remedies: [{en: f, zh: f}]}
  - {id: t.passed, category: other, layer: framework, severity: info, role: hint, passes_run: true, match: ['\[  PASSED  \] [1-9]\d* tests?\.'], samples: {match: ['[  PASSED  ] 3 tests.']}, title: {en: p, zh: p}, cause: {en: p, zh: p}, remedies: [{en: p, zh: p}]}
)");
  ASSERT_TRUE(d.problems().empty()) << d.problems().front().message;
  const std::string negative_test = "[ RUN      ] A.malloc\nERROR malloc failed, invalid size\n[       OK ] A.malloc (3 ms)\n";
  const std::string passed = "[  PASSED  ] 3 tests.\n";
  EXPECT_EQ(d.root_of({negative_test + passed}), "none");
  EXPECT_EQ(d.root_of({negative_test + passed + "[  FAILED  ] 1 test, listed below:\n[  FAILED  ] A.other\n"}),
            "t.malloc-failed");                                                            // a test failed
  EXPECT_EQ(d.root_of({negative_test + passed + "ERROR malloc failed, invalid size\n"}), "t.malloc-failed");  // after it
  EXPECT_EQ(d.root_of({passed + negative_test}), "t.malloc-failed");                       // the summary came first
  EXPECT_EQ(d.root_of({negative_test, passed}), "t.malloc-failed");                        // another log
  EXPECT_EQ(d.root_of({negative_test + negative_test + passed}, 1), "t.malloc-failed");    // an occurrence not kept
  EXPECT_EQ(d.root_of({negative_test + negative_test + passed}, 3), "none");
  const auto r = d.run({negative_test + passed});
  ASSERT_EQ(r.findings.size(), 1u);  // the failure merged into the passing summary
  EXPECT_EQ(r.findings[0].entry->id, "t.passed");
  ASSERT_NE(r.findings[0].read_from, nullptr);
  EXPECT_EQ(r.findings[0].read_from->id, "t.malloc-failed");
}

// An excerpt of per-test lines without the run's summary: the last "[       OK ]" says the
// same as a summary, unless a runner's line says a test failed anywhere in the input
// (`fails_run`), before that line too, where a summary's rule alone would not look.
TEST(ContextMeaning, ErrorsInsideAPassedTestAreNoRootCauseUnlessATestFailed) {
  LogsDiagnoser d(R"(schema: npu-doctor/kb/v1
family: t
entries:
  - {id: t.malloc-failed, category: memory, layer: driver, match: ['malloc failed, invalid size'], samples: {match: ['malloc failed, invalid size']}, title: {en: m, zh: m}, cause: {en: m, zh: m}, remedies: [{en: m, zh: m}]}
  - {id: t.test-failed, category: other, layer: framework, severity: error, role: wrapper, fails_run: true, match: ['\[  FAILED  \] \w'], samples: {match: ['[  FAILED  ] A.b (1 ms)']}, title: {en: f, zh: f}, cause: {en: f, zh: f}, remedies: [{en: f, zh: f}]}
  - {id: t.test-ok, category: other, layer: framework, severity: info, role: hint, passes_run: true, match: ['^\[       OK \] \w+\.\w+ \(\d+ ms\)'], samples: {match: ['[       OK ] A.b (3 ms)']}, title: {en: p, zh: p}, cause: {en: p, zh: p}, remedies: [{en: p, zh: p}]}
)");
  ASSERT_TRUE(d.problems().empty()) << d.problems().front().message;
  const std::string negative_test = "[ RUN      ] A.malloc\nERROR malloc failed, invalid size\n[       OK ] A.malloc (3 ms)\n";
  const std::string other_passed = "[ RUN      ] A.other\n[       OK ] A.other (1 ms)\n";
  const std::string other_failed = "[ RUN      ] A.other\nexpected 1, got 2\n[  FAILED  ] A.other (1 ms)\n";
  EXPECT_EQ(d.root_of({negative_test}), "none");
  EXPECT_EQ(d.root_of({negative_test + other_passed}), "none");
  EXPECT_EQ(d.root_of({other_failed + negative_test}), "t.malloc-failed");  // a test failed before it
  EXPECT_EQ(d.root_of({negative_test + other_failed}), "t.malloc-failed");  // and after it
  EXPECT_EQ(d.root_of({negative_test + "[ RUN      ] A.crash\nERROR malloc failed, invalid size\n"}),
            "t.malloc-failed");  // the test after the last passed one ended in the error
}

TEST(ContextMeaning, OnlyAHintThatNamesRealEntriesMayRecoverThem) {
  const auto problems_of = [](const std::string& extra) {
    std::vector<KbProblem> problems;
    testing::kb_from_yaml({"schema: npu-doctor/kb/v1\nfamily: t\nentries:\n"
                           "  - {id: t.a, category: other, layer: driver, match: ['aaa'], samples: {match: [aaa]}, title: {en: a, zh: a}, cause: {en: a, zh: a}, remedies: [{en: a, zh: a}]}\n" +
                           extra},
                          problems);
    std::string all;
    for (const auto& p : problems) all += p.message + "\n";
    return all;
  };
  EXPECT_EQ(problems_of("  - {id: t.b, category: other, layer: driver, severity: info, role: hint, recovers: [t.a], match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n"), "");
  EXPECT_NE(problems_of("  - {id: t.b, category: other, layer: driver, severity: info, role: hint, recovers: [t.zzz], match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n")
                .find("recovers unknown entry id 't.zzz'"),
            std::string::npos);
  EXPECT_NE(problems_of("  - {id: t.b, category: other, layer: driver, recovers: [t.a], match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n")
                .find("must be a hint"),
            std::string::npos);
  EXPECT_NE(problems_of("  - {id: t.b, category: other, layer: driver, passes_run: true, match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n")
                .find("an entry that passes_run must be a hint"),
            std::string::npos);
  EXPECT_EQ(problems_of("  - {id: t.b, category: other, layer: driver, severity: error, role: wrapper, fails_run: true, match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n"), "");
  EXPECT_NE(problems_of("  - {id: t.b, category: other, layer: driver, severity: warning, fails_run: true, match: ['bbb'], samples: {match: [bbb]}, title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}]}\n")
                .find("an entry that fails_run must be of severity error"),
            std::string::npos);
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

std::string root_id_of(Diagnoser& d, const std::filesystem::path& log) {
  DiagnoseOptions o;
  o.paths = {log.string()};
  const auto r = d.run(o);
  const Finding* f = r.root_finding();
  return f == nullptr ? "none" : f->entry->id;
}

// Ranking data taught from blind batch 4 (docs/accuracy.md): a generic code beside an
// operator's own message, and generic failures read through the line next to them.
TEST(TaughtRanking, TheOperatorsOwnMessageAfterEz9903IsTheRootCause) {
  testing::TempDir dir;
  const auto log = dir.write("soc.log",
                             "CANN error: EZ9903: [PID: 4410] 2026-02-02-10:01:12.238.630 support for Ascend310P is not implemented\n"
                             "  current device: 0, in function ggml_cann_mul_mat at ggml-cann.cpp:1234\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {log.string()};
  const auto r = d.run(o);
  ASSERT_NE(r.root_finding(), nullptr);
  EXPECT_EQ(r.root_finding()->entry->category, Category::compile_op_unsupported) << r.root_finding()->entry->id;
}

TEST(TaughtRanking, Ge500002IsASingleOperatorFailureOnlyBesideTheOpRunner) {
  testing::TempDir dir;
  const auto runner = dir.write("runner.log",
                                "ExternalError:  ACL error, the error code is : 500002.  (at /work/PaddleCustomDevice/backends/npu/kernels/funcs/npu_op_runner.cc:611)\n"
                                "  [operator < pad3d > error]\n");
  const auto bare = dir.write("bare.log", "ExternalError:  ACL error, the error code is : 500002.\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, runner), "op.single-op-failed");
  EXPECT_EQ(root_id_of(d, bare), "acl.500002");
}

TEST(TaughtRanking, FeatureNotSupportIsTheDriverUnlessTheLineBesideSaysOfflineMode) {
  testing::TempDir dir;
  const auto offline = dir.write("offline.log",
                                 "EE9999: Inner Error!\n"
                                 "EE9999  get device msg feature can not support offline mode.[FUNC:GetDevMsg][FILE:api_impl.cc][LINE:3483]\n"
                                 "rtGetDevMsg execute failed, reason=[feature not support][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:49]\n");
  const auto driver = dir.write("driver.log",
                                "rtMemGetInfoEx execute failed, reason=[driver error:feature not support][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, offline), "device.offline-mode-unsupported");
  EXPECT_EQ(root_id_of(d, driver), "device.api-feature-not-supported");
}

// Taught from blind batch 79: a failure a later line shows was overcome (vllm-ascend's custom
// operator falling back to PyTorch) takes the generic exception wrapper of its own line with
// it; the same exception on another line stays the root cause.
TEST(TaughtRanking, AWrapperOnTheLineOfARecoveredFailureIsRecoveredToo) {
  testing::TempDir dir;
  const std::string failed =
      "(EngineCore pid=1) RuntimeError: aclnnApplyTopKTopPCustom or aclnnApplyTopKTopPCustomGetWorkspaceSize not in libopapi.so, or libopapi.sonot found.\n";
  const std::string fallback =
      "(EngineCore pid=1) 2026-08-16 13:05:54,316 - WARNING - Custom op npu_apply_top_k_top_p is unavailable (op is not registered); falling back to the pytorch implementation.\n";
  const auto recovered = dir.write("recovered.log", failed + fallback);
  const auto other_error = dir.write("other.log", failed + fallback + "RuntimeError: something else broke\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, recovered), "none");
  EXPECT_EQ(root_id_of(d, other_error), "python.exception");
}

// Taught from blind batch 95 (kb/test_runners.yaml): a GoogleTest run whose negative tests
// print the errors they provoke (an HCCL rank table not found, a malloc of an invalid size) and
// that passes has no root cause; the same run with a failed test listed after the passed count
// keeps a root cause. Not a healthy_*.log fixture: its lines are real errors, which the word
// model's calibration on those logs must not be asked to read as harmless.
TEST(TaughtRanking, ErrorsOfAPassingGoogleTestRunAreTheTestsOwn) {
  const std::string log = testing::fixtures_dir() + "/logs/unit_tests_passed_with_negative_tests.log";
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  std::string failing = text.str();
  failing.replace(failing.rfind("[  PASSED  ] 3 tests."), std::string::npos,
                  "[  PASSED  ] 2 tests.\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] HcclCommTest.MallocTooLargeFails\n");
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, log), "none");
  EXPECT_NE(root_id_of(d, dir.write("failing.log", failing)), "none");
}

// Taught from blind batch 105: Python's unittest prints "Ran N tests in Xs", then OK or FAILED
// (...). A callback error the framework reports and ignores, printed by a test that checks just
// that, is the test's own when the run ends OK; the FAILED line after the count is a failure,
// so the same output with it keeps a root cause.
TEST(TaughtRanking, ErrorsOfAPassingUnittestRunAreTheTestsOwn) {
  const std::string tests =
      "test_add_done_callback_error_is_ignored (__main__.TestFuture) ... [E226 11:44:38.999984481 "
      "pybind_utils.h:209] Got the following error when running the callback: TypeError: raise_error() "
      "takes 1 positional argument but 2 were given\n"
      "ok\n"
      "----------------------------------------------------------------------\n"
      "Ran 22 tests in 6.038s\n"
      "\n";
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, dir.write("passed.log", tests + "OK\n")), "none");
  EXPECT_NE(root_id_of(d, dir.write("failed.log", tests + "FAILED (errors=1)\n")), "none");
}

// Taught from blind batch 99: an AttributeError on an object of plain Python code is the code's
// own bug (python.object-lacks-attribute, other), not a component's message that happens to be
// worded as Python words it (a catalogue format "{} has no attribute '{}'" named it a compiler
// error); a module's missing attribute stays a version mismatch, and a multiprocessing
// manager's shutdown noise stays no failure.
TEST(TaughtRanking, PythonsOwnAttributeErrorIsTheCodesBugNotAComponentsMessage) {
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  const auto root_of_line = [&](const std::string& name, const std::string& line) {
    return root_id_of(d, dir.write(name, "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n" + line + "\n"));
  };
  EXPECT_EQ(root_of_line("a.log", "AttributeError: ... has no attribute 'get_hidden_dim'"), "python.object-lacks-attribute");
  EXPECT_EQ(root_of_line("b.log", "AttributeError: 'MXWeightPerBlockMinmax' object has no attribute 'weight'"),
            "python.object-lacks-attribute");
  EXPECT_EQ(root_of_line("c.log", "AttributeError: module 'torch_npu' has no attribute 'npu_rotary_mul'"),
            "install.module-has-no-attribute");
  EXPECT_NE(root_of_line("d.log", "AttributeError: 'ForkAwareLocal' object has no attribute 'connection'"),
            "python.object-lacks-attribute");
}

// Taught from blind batch 79: vLLM's API server logs "AsyncLLM output_handler failed." and
// the EngineDeadError's traceback under it when a harness stops the server. The engine-dead
// line is read as a normal exit after the shutdown lines; the heading line, a wrapper, follows
// the exception its traceback ends with. The same heading over a traceback that ends in
// another error, or without the shutdown, stays a failure.
TEST(TaughtRanking, AWrapperHeadingTheTracebackOfANormalExitIsNoFailure) {
  const std::string p = "(APIServer pid=342140) ERROR 08-14 03:02:46 [async_llm.py:707] ";
  const std::string shutdown =
      "(EngineCore pid=342648) INFO 08-14 03:02:46 [core.py:1219] [shutdown] EngineCore: trigger received signal=SIGTERM\n"
      "(APIServer pid=342140) INFO 08-14 03:02:46 [core_client.py:666] [shutdown] MPClient: complete\n";
  const auto traceback_ending = [&](const std::string& exception) {
    return p + "AsyncLLM output_handler failed.\n" + p + "Traceback (most recent call last):\n" + p +
           "  File \"/w/vllm/v1/engine/async_llm.py\", line 663, in output_handler\n" + p +
           "    outputs = await engine_core.get_output_async()\n" + p + exception + "\n";
  };
  const std::string dead =
      "vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.";
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, dir.write("stopped.log", shutdown + traceback_ending(dead))), "none");
  EXPECT_NE(root_id_of(d, dir.write("crashed.log", traceback_ending(dead))), "none");
  EXPECT_NE(root_id_of(d, dir.write("other.log", shutdown + traceback_ending("ValueError: bad shape") + p + dead + "\n")), "none");
}

// Taught from blind batch 74: the kernel lookup's failure beside the loader's warning that it
// cannot open opp/vendors/config.ini is that file's permissions; without the warning it is a
// missing kernels package, and the warning alone is no failure.
TEST(TaughtRanking, AnUnreadableVendorsConfigIniMakesTheMissingKernelAPermissionError) {
  testing::TempDir dir;
  const std::string failed =
      "[ERROR] 2026-01-01-10:00:00 Get path and read binary_info_config.json failed, please check if the opp_kernel package is installed!\n";
  const std::string warning = "[WARNING]  Can not open file: /usr/local/Ascend/latest/opp/vendors/config.ini.\n";
  const auto both = dir.write("both.log", "[INFO] Start get path and read binary_info_config.json.\n" + failed + warning);
  const auto alone = dir.write("alone.log", failed);
  const auto only_warning = dir.write("warning.log", warning);
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id_of(d, both), "install.custom-opp-config-unreadable");
  EXPECT_EQ(root_id_of(d, alone), "install.op-binary-missing");
  EXPECT_EQ(root_id_of(d, only_warning), "none");
}

// Taught from blind batches 80 and 81: knowledge that decides by the line beside (data in
// kb/, these tests keep the decisions): HCCL's result 1 beside EI0015 is ranks that never
// connected, not a parameter; GE's missing ASCEND_CACHE_PATH directory explains torch_npu's
// 500001; aclnn's 8-dimension limit outranks its generic EZ1001.
TEST(TaughtRankingBatch80, TheLineBesideDecidesHcclResultOneAnd500001AndEz1001) {
  testing::TempDir dir;
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  const std::string hccl_one =
      "RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:130 HCCL function error: "
      "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 1\n"
      "[ERROR] 2026-01-29-18:56:15 (PID:452, Device:4, RankID:-1) ERR02200 DIST call hccl api failed.\n";
  const std::string ei0015 =
      "[PID: 452] 2026-01-29-18:56:15.391.994 Ranktable_Detect_Failed(EI0015): Failed to collect cluster information of "
      "the communicator based on rootInfo detection.\n";
  EXPECT_EQ(root_id_of(d, dir.write("ei0015.log", hccl_one + ei0015)), "ecode.EI0015");
  EXPECT_EQ(root_id_of(d, dir.write("alone.log", hccl_one)), "hccl.1");

  const std::string precision =
      "RuntimeError: SetPrecisionMode:../torch_npu/csrc/framework/LazyInitAclops.cpp:223 NPU function error: "
      "at_npu::native::AclSetCompileopt(aclCompileOpt::ACL_PRECISION_MODE, precision_mode), error code is 500001\n";
  const std::string cache_dir =
      "[PID: 805333] 2026-09-28-21:49:46.040.092 Directory_Operation_Error(EC0006): Directory operation failed. Reason: "
      "Directory /data/run/ascend_cache for environment variable ASCEND_CACHE_PATH does not exist.\n";
  EXPECT_EQ(root_id_of(d, dir.write("cache.log", precision + cache_dir)), "install.ascend-env-directory-missing");
  EXPECT_EQ(root_id_of(d, dir.write("precision.log", precision)), "torch-npu.precision-mode-init-500001");

  EXPECT_EQ(root_id_of(d, dir.write("dims.log",
                                    "[PID: 1] 2026-04-10-17:11:48.281.315 AclNN_Parameter_Error(EZ1001): The self tensor "
                                    "cannot be larger than 8 dimensions.[THREAD:2]\n")),
            "op.npu-tensor-too-many-dims");
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

std::string root_of(Diagnoser& d, const std::filesystem::path& log) {
  DiagnoseOptions o;
  o.paths = {log.string()};
  const auto r = d.run(o);
  const Finding* f = r.root_finding();
  return f == nullptr ? "none" : f->entry->id;
}

// Ranking data taught from blind batch 5 (docs/accuracy.md).
TEST(TaughtRankingBatch5, TheDriverRejectingDeviceZeroExplainsTheInvalidDeviceId) {
  testing::TempDir dir;
  const auto zero = dir.write("zero.log",
                              "Call aclrtSetDevice(device->id) failed : 507033 at file /work/backends/npu/runtime/runtime.cc line 430\n"
                              "EL0002: 2024-10-22-11:56:14.885.664 The device ID is invalid.\n"
                              "        TraceBack (most recent call last):\n"
                              "        Failed to open device, retCode=0x7020013, deviceId=0.[FUNC:InitRawDriver][FILE:device.cc][LINE:150]\n");
  // Another device than 0 may well be a wrong id: EL0002 keeps its own meaning.
  const auto nine = dir.write("nine.log",
                              "EL0002: 2024-10-22-11:56:14.885.664 The device ID is invalid.\n"
                              "        Failed to open device, retCode=0x7020013, deviceId=9.[FUNC:InitRawDriver][FILE:device.cc][LINE:150]\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_of(d, zero), "device.first-device-open-rejected");
  DiagnoseOptions o;
  o.paths = {nine.string()};
  const auto r = d.run(o);
  ASSERT_NE(r.root_finding(), nullptr);
  EXPECT_EQ(r.root_finding()->entry->category, Category::rank_config) << r.root_finding()->entry->id;
}

TEST(TaughtRankingBatch5, PaddlesOperatorReportAtWarningLevelIsAnErrorButYieldsToTheOperatorsOwnError) {
  testing::TempDir dir;
  const auto alone = dir.write("alone.log",
                               "W0916 17:40:23.718220 12044 pir_interpreter.cc:1861]  OP id:57 pd_op.conv3d raises an EnforceNotMet exception common::enforce::EnforceNotMet\n");
  const auto with_code = dir.write("code.log",
                                   "W0916 17:40:23.718220 12044 pir_interpreter.cc:1861]  OP id:57 pd_op.matmul raises an EnforceNotMet exception common::enforce::EnforceNotMet\n"
                                   "RuntimeError: npuSynchronizeDevice: NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507015\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_of(d, alone), "framework.paddle-op-raised");
  DiagnoseOptions o;
  o.paths = {with_code.string()};
  const auto r = d.run(o);
  ASSERT_NE(r.root_finding(), nullptr);
  EXPECT_EQ(r.root_finding()->entry->category, Category::aicore_exception) << r.root_finding()->entry->id;
}

TEST(TaughtRankingBatch5, ALinkerWarningAloneIsNoRootCauseButTheUndefinedReferenceIs) {
  testing::TempDir dir;
  const auto warning = dir.write("warning.log",
                                 "/usr/bin/ld: warning: libdevmm.so, needed by /usr/local/Ascend/acllib/lib64/libruntime.so, not found (try using -rpath or -rpath-link)\n");
  const auto failed = dir.write("failed.log",
                                "/usr/bin/ld: warning: libdevmm.so, needed by /usr/local/Ascend/acllib/lib64/libruntime.so, not found (try using -rpath or -rpath-link)\n"
                                "/usr/local/Ascend/acllib/lib64/libruntime.so: undefined reference to `drvStreamIdFree'\n"
                                "collect2: error: ld returned 1 exit status\n");
  const auto version = dir.write("version.log",
                                 "[W  5/ 9 20:23:15.461 .../src/driver/huawei_ascend_npu/utility.cc:57 InitializeAscendCL] CANN version mismatch. The build version is 5.1.0, but the current environment version is 5.1.2.\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_of(d, warning), "none");
  EXPECT_EQ(root_of(d, failed), "install.link-ascend-undefined-reference");
  EXPECT_EQ(root_of(d, version), "none");  // a warning: the program went on
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

std::string root_id(Diagnoser& d, const std::filesystem::path& log) {
  DiagnoseOptions o;
  o.paths = {log.string()};
  const auto r = d.run(o);
  const Finding* f = r.root_finding();
  return f == nullptr ? "none" : f->entry->id;
}

// Ranking data taught from blind batch 6 (docs/accuracy.md).
TEST(TaughtRankingBatch6, AnOptionalImportThatAProgramLogsAndSurvivesIsNoRootCause) {
  testing::TempDir dir;
  // sglang's start-up warning on a healthy run (its log format carries no level name).
  const auto healthy = dir.write("healthy.log",
                                 "[2026-07-01 15:18:55 TP3] get env HCCL_BUFFSIZE = 200\n"
                                 "[2026-07-01 15:18:55 TP13] NPU custom kernel packages unavailable: No module named 'custom_ops'\n");
  // The import failing as an exception is still the root cause.
  const auto failed = dir.write("failed.log",
                                "Traceback (most recent call last):\n"
                                "  File \"/work/train.py\", line 3, in <module>\n"
                                "    import mindspeed\n"
                                "ModuleNotFoundError: No module named 'mindspeed'\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id(d, healthy), "none");
  EXPECT_EQ(root_id(d, failed), "install.python-module-missing");
}

TEST(TaughtRankingBatch6, AFrameworksNpuSubclassLackingAMemberIsAVersionMismatchNotAGenericAttributeError) {
  testing::TempDir dir;
  const auto npu = dir.write("npu.log", "AttributeError: 'NPUMHATokenToKVPool' object has no attribute 'data_strides'\n");
  const auto other = dir.write("other.log", "AttributeError: 'Parameter' object has no attribute 'main_grad'\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id(d, npu), "install.npu-backend-class-lacks-attribute");
  EXPECT_NE(root_id(d, other), "install.npu-backend-class-lacks-attribute");
}

}  // namespace
}  // namespace npu_doctor

namespace npu_doctor {
namespace {

// Launcher and server wrappers (kb/launchers.yaml, docs/accuracy.md "What the framework
// sweep taught"): alone they name `other` and say where the worker's log is; beside the
// worker's own error they never outrank it.
TEST(LauncherWrappers, AloneTheyAreTheRootCauseBesideARealCauseTheyYield) {
  testing::TempDir dir;
  const std::string msrun =
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.720.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:268] Worker process 162146 exit with exception.\n"
      "[ERROR] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:38.722.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:431] Time out nodes are ['3']\n";
  const auto alone = dir.write("alone.log", msrun);
  const auto with_oom = dir.write("oom.log",
                                  "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total "
                                  "capacity; 58.10 GiB already allocated; 58.10 GiB current active; 0 bytes free; "
                                  "59.00 GiB reserved in total by PyTorch)\n" +
                                      msrun);
  const std::string mindie_fail =
      "[2025-06-12 08:08:24.544+00:00] [12646] [12648] [server] [ERROR] [endpoint.cpp:45] : [MIE04E02011C] "
      "[endpoint] Failed to init engine! Please check in the env MINDIE_LOG_PATH\n"
      "[2025-06-12 08:08:24.544+00:00] [12646] [<redacted>] [system] [server] [Start mindie server] [fail]\n";
  const auto mindie = dir.write("mindie.log", mindie_fail);
  const auto mindie_listen = dir.write(
      "listen.log",
      "[2025-12-15 15:19:22.681+08:00] [38] [452] [server] [ERROR] [http_server.cpp:163] : [MIE04E02041C] "
      "[endpoint] Failed to listen 172.17.0.5:1025, please check if business ip and port are legal.\n" +
          mindie_fail);
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id(d, alone), "launcher.msrun-worker-exit");
  EXPECT_NE(root_id(d, with_oom).rfind("launcher.", 0), 0U) << root_id(d, with_oom);
  EXPECT_EQ(root_id(d, mindie), "launcher.mindie-server-init-failed");
  EXPECT_EQ(root_id(d, mindie_listen), "launcher.mindie-listen-failed");
}

TEST(LauncherWrappers, ASuccessfulStartAndAWarningCodeAreNoRootCause) {
  testing::TempDir dir;
  const auto healthy = dir.write(
      "healthy.log",
      "[2025-06-12 08:08:24.544+00:00] [12646] [12648] [server] [WARN] [http_server.cpp:161] : [MIE04W020205] "
      "[endpoint] request queue is busy\n"
      "[2025-06-12 08:08:24.544+00:00] [12646] [12648] [system] [server] [Start mindie server] [success]\n"
      "[WARNING] ME(1:2,MainProcess):2025-03-10-09:40:12.444.000 "
      "[mindspore/parallel/cluster/process_entity/_api.py:246] Start worker process with rank id:0, log "
      "file:./msrun_log/worker_0.log\n");
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  EXPECT_EQ(root_id(d, healthy), "none");
}

}  // namespace
}  // namespace npu_doctor
