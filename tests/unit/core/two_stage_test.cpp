// The two-stage scan is an optimisation, never a change of result: over every fixture log,
// every real-world corpus log and every knowledge-base sample, the gated scan finds exactly
// what the second stage finds when every line goes to it (same findings, counts, evidence
// lines and context), the word fallback's guesses included (it reads only lines the gate
// lets through). And the gate is small: most patterns are gated.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "npu_doctor/embedded_files.hpp"
#include "scan_plan.hpp"
#include "scanner.hpp"
#include "support/test_support.hpp"
#include "word_fallback.hpp"

namespace npu_doctor {
namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string describe(const std::vector<Finding>& findings) {
  std::ostringstream out;
  for (const auto& f : findings) {
    out << finding_key(f) << " x" << f.count << " low=" << f.only_on_low_level_lines << "\n";
    for (const auto& e : f.evidence) {
      out << "  " << e.line << ": " << e.text << "\n";
      for (const auto& c : e.before) out << "    <" << c.line << " " << c.text << "\n";
      for (const auto& c : e.after) out << "    >" << c.line << " " << c.text << "\n";
    }
  }
  return out.str();
}

// The built-in word fallback (the embedded model), as diagnose runs it.
const WordFallback* builtin_words() {
  static const auto words = [] {
    const auto files = embedded_word_model();
    return files.empty() ? nullptr : WordFallback::create(testing::builtin_kb(), files.front().content);
  }();
  return words.get();
}

std::string scan(const KbMatcher& m, const std::string& text, bool gate, std::size_t block) {
  ScanOptions o;
  o.gate = gate;
  o.block_size = block;
  Scanner scanner(m, o, builtin_words());
  FindingCollector out(o.max_evidence);
  testing::StringStream in(text, 4096);
  InputReport rep;
  scanner.scan(in, 0, rep, out);
  return describe(out.findings()) + "lines=" + std::to_string(rep.lines);
}

TEST(TwoStageScan, FindsExactlyWhatEveryLineInTheSecondStageFinds) {
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(testing::builtin_kb(), problems);
  ASSERT_TRUE(problems.empty());
  std::vector<std::filesystem::path> logs = testing::fixture_logs();
  for (const auto& e : std::filesystem::directory_iterator(std::filesystem::path(NPU_DOCTOR_FIXTURES).parent_path().parent_path() / "examples")) {
    if (e.path().extension() == ".log") logs.push_back(e.path());
  }
  ASSERT_GT(logs.size(), 40u);
  ASSERT_NE(builtin_words(), nullptr);
  std::size_t with_findings = 0;
  std::size_t with_word_guesses = 0;
  for (const auto& p : logs) {
    const std::string text = slurp(p);
    const std::string want = scan(*matcher, text, false, 4u << 20);
    EXPECT_EQ(scan(*matcher, text, true, 4u << 20), want) << p;
    // Blocks shorter than a line: the gate must not change how a cut line is read either.
    EXPECT_EQ(scan(*matcher, text, true, std::size_t{512}), scan(*matcher, text, false, std::size_t{512}))
        << p << " (small blocks)";
    with_findings += want.find(" x") != std::string::npos ? 1u : 0u;
    with_word_guesses += want.find("words.") != std::string::npos ? 1u : 0u;
  }
  EXPECT_GT(with_findings, logs.size() / 2);  // the comparison is not over empty results
  EXPECT_GT(with_word_guesses, 10u);          // nor over no guesses from words

  // Every sample line of the knowledge base, in one document.
  std::string samples;
  for (const auto& x : testing::builtin_kb().extractors()) {
    for (const auto& s : x.samples_match) samples += s + "\n";
  }
  for (const auto& e : testing::builtin_kb().entries()) {
    for (const auto& s : e.samples_match) samples += s + "\n";
    for (const auto& s : e.samples_no_match) samples += s + "\n";
  }
  EXPECT_EQ(scan(*matcher, samples, true, 4u << 20), scan(*matcher, samples, false, 4u << 20));
}

TEST(TwoStageScan, TheShippedGateIsSmallAndCoversMostPatterns) {
  const auto& kb = testing::builtin_kb();
  std::vector<KbProblem> problems;
  auto matcher = KbMatcher::build(kb, problems);
  EXPECT_LE(kb.gate().literals.size(), GateOptions{}.max_literals);  // the budget: 19
  // At least half of the hand-written patterns need a generic gate word (the others run in
  // the first stage; kbc names them); the catalogue's, error-level, all need a marker.
  EXPECT_LE(matcher->ungated_count() * 2, matcher->pattern_count()) << matcher->ungated_count() << " ungated";
  // A healthy INFO line passes no gate; an error line does.
  EXPECT_FALSE(matcher->passes_gate("[INFO] RUNTIME(1,python):2024-05-20-10:00:00.002.047 [stream.cc:1140]1 aclrtSynchronizeStream stream=7 ok, cost 7952 us"));
  EXPECT_TRUE(matcher->passes_gate("[ERROR] RUNTIME(1,python):2024-05-20-10:00:00.002.047 [stream.cc:1140]1 something went wrong"));
}

// A pattern no gate literal covers enters the first stage by the long literals every match
// of it holds, not by its regex: a line holding one passes the gate (in any letter case),
// and the second stage alone decides whether the pattern matches.
TEST(TwoStageScan, AnUngatedPatternIsLookedForByItsLiteralsAndConfirmedInTheSecondStage) {
  const char* kb_text = R"(schema: npu-doctor/kb/v1
family: t
entries:
  - {id: t.davinci, category: other, layer: runtime, match: ['Permission denied on /dev/davinci\d+'], title: {en: d, zh: d}, cause: {en: d, zh: d}, remedies: [{en: d, zh: d}], samples: {match: ['Permission denied on /dev/davinci3']}}
)";
  std::vector<KbProblem> problems;
  auto kb = testing::kb_from_yaml({kb_text}, problems);
  ASSERT_TRUE(problems.empty());
  auto matcher = KbMatcher::build(kb, problems);
  ASSERT_TRUE(problems.empty());
  ASSERT_EQ(matcher->ungated_count(), 1u);
  EXPECT_TRUE(matcher->passes_gate("x PERMISSION DENIED ON /DEV/DAVINCI y"));  // the literal, not the regex
  EXPECT_FALSE(matcher->passes_gate("x permission denied on /dev/hisi_hdc y"));
  const std::string text =
      "[INFO] a line\nopen: Permission denied on /dev/davinci\n[INFO] b\nopen: Permission denied on /dev/davinci7\n";
  for (bool gate : {true, false}) {
    ScanOptions o;
    o.gate = gate;
    Scanner scanner(*matcher, o, nullptr);
    FindingCollector out(o.max_evidence);
    testing::StringStream in(text, 4096);
    InputReport rep;
    scanner.scan(in, 0, rep, out);
    ASSERT_EQ(out.findings().size(), 1u) << "gate=" << gate;
    EXPECT_EQ(out.findings()[0].count, 1u);
    ASSERT_FALSE(out.findings()[0].evidence.empty());
    EXPECT_EQ(out.findings()[0].evidence[0].line, 4u);
  }
}

}  // namespace
}  // namespace npu_doctor
