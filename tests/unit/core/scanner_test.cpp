#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <optional>

#include "scanner.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

const char* kKb = R"(schema: npu-doctor/kb/v1
family: s
defaults: {layer: runtime, category: other}
entries:
  - {id: s.boom, match: ['BOOM'], title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}], samples: {match: ['x BOOM']}}
  - {id: s.bang, match: ['BANG (?<n>\d+)'], title: {en: g, zh: g}, cause: {en: g, zh: g}, remedies: [{en: g, zh: g}], samples: {match: ['BANG 1']}}
  - {id: s.benign-code, severity: warning, match: ['error code is 100037'], title: {en: w, zh: w}, cause: {en: w, zh: w}, remedies: [{en: w, zh: w}], samples: {match: ['error code is 100037']}}
  - {id: s.error-code, match: ['error code is 507035'], title: {en: e, zh: e}, cause: {en: e, zh: e}, remedies: [{en: e, zh: e}], samples: {match: ['error code is 507035']}}
)";

class ScannerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<KbProblem> problems;
    kb_ = testing::kb_from_yaml({kKb}, problems);
    matcher_ = KbMatcher::build(kb_, problems);
    ASSERT_TRUE(problems.empty());
  }
  // Scans `text` with a tiny block size so that block boundaries are everywhere.
  std::vector<Finding> scan(const std::string& text, InputReport& report, ScanOptions opts = {},
                            std::size_t chunk = 7) {
    if (opts.block_size == ScanOptions{}.block_size) opts.block_size = 64;
    Scanner scanner(*matcher_, opts);
    FindingCollector out(opts.max_evidence);
    testing::StringStream in(text, chunk);
    report.path = "t.log";
    scanner.scan(in, 0, report, out);
    return out.take();
  }
  // The finding of s.boom when `text` is scanned in blocks of `block` bytes (nullopt: none).
  std::optional<Finding> boom_finding(const std::string& text, std::size_t block) {
    InputReport rep;
    ScanOptions opts;
    opts.block_size = block;
    const auto f = scan(text, rep, opts);
    const auto it = std::find_if(f.begin(), f.end(), [](const Finding& x) { return x.entry->id == "s.boom"; });
    EXPECT_NE(it, f.end()) << text;
    if (it == f.end()) return std::nullopt;
    return *it;
  }
  static std::string numbered(int from, int to) {
    std::string s;
    for (int i = from; i <= to; ++i) s += "line " + std::to_string(i) + "\n";
    return s;
  }
  KnowledgeBase kb_;
  std::unique_ptr<KbMatcher> matcher_;
};

TEST_F(ScannerTest, LineNumbersAndContextAcrossBlocks) {
  const std::string text = numbered(1, 40) + "here is a BOOM\n" + numbered(42, 60);
  InputReport rep;
  const auto f = scan(text, rep);
  ASSERT_EQ(f.size(), 1u);
  const Evidence& e = f[0].first();
  EXPECT_EQ(e.line, 41u);
  EXPECT_EQ(e.text, "here is a BOOM");
  ASSERT_EQ(e.before.size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(e.before[i].line, 33 + i);
    EXPECT_EQ(e.before[i].text, "line " + std::to_string(33 + i));
  }
  ASSERT_EQ(e.after.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(e.after[i].line, 42 + i);
    EXPECT_EQ(e.after[i].text, "line " + std::to_string(42 + i));
  }
  EXPECT_EQ(rep.lines, 60u);
  EXPECT_EQ(rep.bytes, text.size());
  EXPECT_EQ(rep.status, InputStatus::ok);
}

TEST_F(ScannerTest, ContextAtTheStartAndEndOfTheInput) {
  InputReport rep;
  const auto f = scan("BOOM first\nsecond\n", rep);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(f[0].first().before.empty());
  ASSERT_EQ(f[0].first().after.size(), 1u);
  EXPECT_EQ(f[0].first().after[0].text, "second");
  EXPECT_EQ(rep.lines, 2u);
}

TEST_F(ScannerTest, CountsEveryOccurrenceButKeepsFewEvidence) {
  std::string text;
  for (int i = 0; i < 100; ++i) text += "BANG " + std::to_string(i) + "\n";
  InputReport rep;
  ScanOptions opts;
  opts.max_evidence = 3;
  const auto f = scan(text, rep, opts);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].count, 100u);
  ASSERT_EQ(f[0].evidence.size(), 3u);
  EXPECT_EQ(f[0].evidence[2].line, 3u);
  ASSERT_EQ(f[0].evidence[1].captures.size(), 1u);
  EXPECT_EQ(f[0].evidence[1].captures[0].second, "1");
}

// Python's report of an exception it could not raise ("Exception ignored in: ...", at
// interpreter exit or in a destructor) ends with the exception's line: a warning, not the
// run's failure. The same line after an ordinary traceback, or after a marker that another
// line separates from the traceback, stays an error.
TEST_F(ScannerTest, AnExceptionPythonReportsAsIgnoredIsAWarning) {
  const std::string traceback =
      "Traceback (most recent call last):\n"
      "  File \"/x/engine.py\", line 501, in __del__\n"
      "    self.shutdown()\n"
      "AttributeError: BOOM\n";
  const auto severity_of = [&](const std::string& text) {
    InputReport rep;
    ScanOptions opts;
    opts.block_size = 1 << 20;  // one block: the report is read back within it
    const auto f = scan(text, rep, opts, 1 << 20);
    EXPECT_EQ(f.size(), 1u) << text;
    return f.empty() ? Severity::info : effective_severity(f[0]);
  };
  EXPECT_EQ(severity_of("start\nException ignored in: <function LLMEngine.__del__ at 0xfffd>\n" + traceback),
            Severity::warning);
  // The logging module's report of an exception raised while it wrote a record, as a vLLM
  // child prints it (every line with its process prefix).
  EXPECT_EQ(severity_of("(EngineCore pid=7) --- Logging error ---\n"
                        "(EngineCore pid=7) Traceback (most recent call last):\n"
                        "(EngineCore pid=7)   File \"/x/logging/__init__.py\", line 1114, in emit\n"
                        "(EngineCore pid=7)     self.flush()\n"
                        "(EngineCore pid=7) RuntimeError: BOOM\n"),
            Severity::warning);
  EXPECT_EQ(severity_of("--- Logging error ---\n" + traceback), Severity::warning);
  EXPECT_EQ(severity_of("(EngineCore pid=7) Traceback (most recent call last):\n"
                        "(EngineCore pid=7)   File \"/x/engine.py\", line 1, in run\n"
                        "(EngineCore pid=7) RuntimeError: BOOM\n"),
            Severity::error);
  EXPECT_EQ(severity_of("Exception ignored while finalizing file <x>:\n" + traceback), Severity::warning);
  EXPECT_EQ(severity_of("start\n" + traceback), Severity::error);
  EXPECT_EQ(severity_of("Exception ignored in: <function A.__del__>\nrun goes on\n" + traceback), Severity::error);
  // The marker alone, right above the line, is no report.
  EXPECT_EQ(severity_of("Exception ignored in: x\nAttributeError: BOOM\n"), Severity::error);
}

// torch_npu prints CANN's error-manager report inside a PyTorch warning ("[W ...] Warning:
// NPU warning, error code is N[Error]: " ... " (function operator())"). When the knowledge
// base reads the header's code as benign (a second aclFinalize, 100037), the report's lines
// are warnings too; an error code in the header, a header no entry reads, a record already
// closed or a line that is no report line between them keep the line an error. Small blocks
// and the default ones: the header is also read back from the previous block's lines.
TEST_F(ScannerTest, CannsReportInsideABenignTorchWarningIsAWarning) {
  const auto report = [](const std::string& header) {
    return "step 10 loss 1.0\n" + header +
           "\n[Error]: Repeated deinitialization.\nEH9999: Inner Error!\n"
           "EH9999: [PID: 1] 2025-12-14-19:00:28.262.491 BOOM[FUNC:ReportInnerError]\n"
           "        TraceBack (most recent call last):\n (function operator())\n";
  };
  const auto boom_severity = [&](const std::string& text, std::size_t block) {
    const auto boom = boom_finding(text, block);
    return boom ? effective_severity(*boom) : Severity::info;
  };
  for (const std::size_t block : {std::size_t{64}, std::size_t{1} << 20}) {
    const std::string benign = "[W compiler_depend.ts:316] Warning: NPU warning, error code is 100037[Error]: ";
    EXPECT_EQ(boom_severity(report(benign), block), Severity::warning) << block;
    EXPECT_EQ(boom_severity(report("[rank1]:[W1214 19:00:28.26 compiler_depend.ts:52] Warning: NPU warning, error code is 100037[Error]: "), block),
              Severity::warning);
    EXPECT_EQ(boom_severity(report("[W compiler_depend.ts:316] Warning: NPU warning, error code is 507035[Error]: "), block),
              Severity::error);
    EXPECT_EQ(boom_severity(report("[W compiler_depend.ts:57] Warning: EZ9999: Inner Error!"), block), Severity::error);
    EXPECT_EQ(boom_severity(report(benign + "(function f)"), block), Severity::error);
    EXPECT_EQ(boom_severity(report(benign + "\nthe run goes on"), block), Severity::error);
  }
}

// A logger that writes an exception heads its traceback with its own message: the
// exception's line knows that heading line (context_meaning.cpp reads a wrapper there as the
// exception is read). Under one record prefix, or none; at small blocks too (the heading
// line is read back from the previous block's lines). A prefix that changes, a line that is
// no traceback's between, or a line that is itself a frame: no heading line.
TEST_F(ScannerTest, AnExceptionKnowsTheLineItsTracebackHangsFrom) {
  const auto header_of = [&](const std::string& text, std::size_t block) -> uint64_t {
    const auto boom = boom_finding(text, block);
    return boom ? boom->first().traceback_header_line : 99;
  };
  const std::string p = "(APIServer pid=1) ERROR 08-14 03:02:46 [async_llm.py:707] ";
  const std::string vllm = "start\n" + p + "AsyncLLM output_handler failed.\n" + p + "Traceback (most recent call last):\n" + p +
                           "  File \"/x/async_llm.py\", line 663, in output_handler\n" + p + "    outputs = await get()\n" + p +
                           "              ^^^^^^^^^\n" + p + "EngineDeadError: BOOM\n";
  for (const std::size_t block : {std::size_t{256}, std::size_t{1} << 20}) {
    EXPECT_EQ(header_of(vllm, block), 2u) << block;
    EXPECT_EQ(header_of("a\nworker failed:\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\n    g()\nValueError: BOOM\n", block), 2u);
    // A line under another prefix than the traceback's is another record.
    EXPECT_EQ(header_of("start\n(API pid=2) INFO other\n" + vllm.substr(vllm.find(p + "Traceback")), block), 0u);
    EXPECT_EQ(header_of(vllm.substr(0, vllm.rfind(p)) + "EngineDeadError: BOOM\n", block), 0u);
    EXPECT_EQ(header_of("a\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\nnot a frame\nValueError: BOOM\n", block), 0u);
    EXPECT_EQ(header_of("a\nTraceback (most recent call last):\n  File \"x.py\", line 1, in f\n    BOOM()\nValueError: x\n", block), 0u);
    EXPECT_EQ(header_of("Traceback (most recent call last):\n  File \"x.py\", line 1, in f\nValueError: BOOM\n", block), 0u);
    EXPECT_EQ(header_of("a\nValueError: BOOM\n", block), 0u);
  }
}

// A log pasted without its newlines glues records together: a match after an "[ERROR]"
// marker glued to the text before it is an error although the line starts as a warning;
// a marker after a space is part of the warning's message, and one after the match does
// not count.
TEST_F(ScannerTest, AMatchAfterAGluedErrorRecordIsAnError) {
  const auto severity_of = [&](const std::string& text) {
    InputReport rep;
    const auto f = scan(text, rep);
    EXPECT_EQ(f.size(), 1u) << text;
    return f.empty() ? Severity::info : effective_severity(f[0]);
  };
  EXPECT_EQ(severity_of("[WARNING] Can not open the file.[ERROR] x BOOM\n"), Severity::error);
  EXPECT_EQ(severity_of("[INFO] start.[WARNING] slow.[ERROR] BOOM here\n"), Severity::error);
  EXPECT_EQ(severity_of("[WARNING] BOOM\n"), Severity::warning);
  EXPECT_EQ(severity_of("[WARNING] [ERROR] 2026-01-31 ERR00007 BOOM\n"), Severity::warning);
  EXPECT_EQ(severity_of("[WARNING] BOOM then.[ERROR] later\n"), Severity::warning);
}

TEST_F(ScannerTest, CrlfAndNoTrailingNewline) {
  InputReport rep;
  const auto f = scan("a\r\nb\r\nBOOM\r\nc", rep);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].first().line, 3u);
  EXPECT_EQ(f[0].first().text, "BOOM");
  EXPECT_EQ(f[0].first().before.back().text, "b");
  EXPECT_EQ(rep.lines, 4u);
}

TEST_F(ScannerTest, ProgressBarSegmentsShowOnlyTheMatchingSegment) {
  InputReport rep;
  const auto f = scan("10%|#   \r20%|##  \rBOOM at step 3\r30%|### \n", rep);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].first().text, "BOOM at step 3");
}

TEST_F(ScannerTest, LineLongerThanABlockIsScannedInPiecesWithBoundedText) {
  std::string text = "start\n" + std::string(300, 'x') + " BOOM " + std::string(300, 'y') + "\nafter BANG 7\n";
  InputReport rep;
  ScanOptions opts;
  opts.block_size = 128;
  opts.max_text = 64;
  const auto f = scan(text, rep, opts);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].first().line, 2u);
  EXPECT_LE(f[0].first().text.size(), 64u + 6u);  // plus the two "…" markers
  EXPECT_NE(f[0].first().text.find("BOOM"), std::string::npos);
  EXPECT_EQ(f[1].first().line, 3u);
  EXPECT_EQ(rep.lines, 3u);
}

TEST_F(ScannerTest, BinaryInputIsSkippedWithANote) {
  InputReport rep;
  std::string bin(4096, '\0');
  bin += "BOOM\n";
  const auto f = scan(bin, rep);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(rep.status, InputStatus::skipped);
  EXPECT_NE(rep.note.find("binary"), std::string::npos);
}

TEST_F(ScannerTest, InvalidUtf8IsSanitizedNotDropped) {
  InputReport rep;
  const auto f = scan(std::string("x\xff\xfe BOOM \xc3\n"), rep);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].first().text, "x\xEF\xBF\xBD\xEF\xBF\xBD BOOM \xEF\xBF\xBD");
}

class FailsAfterOneReadStream final : public ByteStream {
 public:
  long read(char* buf, std::size_t n) override {
    if (sent_) return -1;
    sent_ = true;
    const std::string s = "BOOM\nmore\n";
    const std::size_t k = std::min(n, s.size());
    std::memcpy(buf, s.data(), k);
    return static_cast<long>(k);
  }
  std::string error() const override { return "Input/output error"; }

 private:
  bool sent_ = false;
};

TEST_F(ScannerTest, ReadErrorKeepsWhatWasReadAndSaysSo) {
  Scanner scanner(*matcher_, ScanOptions{});
  FindingCollector out(3);
  FailsAfterOneReadStream in;
  InputReport rep;
  rep.path = "bad.log";
  scanner.scan(in, 0, rep, out);
  EXPECT_EQ(out.findings().size(), 1u);
  EXPECT_EQ(rep.status, InputStatus::partial);
  EXPECT_NE(rep.note.find("Input/output error"), std::string::npos);
}

TEST_F(ScannerTest, EmptyInputIsFine) {
  InputReport rep;
  EXPECT_TRUE(scan("", rep).empty());
  EXPECT_EQ(rep.status, InputStatus::ok);
  EXPECT_EQ(rep.lines, 0u);
}

}  // namespace
}  // namespace npu_doctor
