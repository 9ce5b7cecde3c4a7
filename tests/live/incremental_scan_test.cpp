// The incremental scan gives what one scan of the whole stream gives, however the bytes
// arrive: findings, counts, evidence lines and their context, the time line.
#include <gtest/gtest.h>

#include <random>

#include "core/scanner.hpp"
#include "live/incremental_scan.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::live {
namespace {

using testing::read_file;

const char* kKb = R"(schema: npu-doctor/kb/v1
family: s
defaults: {layer: runtime, category: other}
entries:
  - {id: s.boom, match: ['BOOM'], title: {en: b, zh: b}, cause: {en: b, zh: b}, remedies: [{en: b, zh: b}], samples: {match: ['x BOOM']}}
  - {id: s.bang, match: ['BANG (?<n>\d+)'], title: {en: g, zh: g}, cause: {en: g, zh: g}, remedies: [{en: g, zh: g}], samples: {match: ['BANG 1']}}
)";

struct Scanned {
  std::vector<Finding> findings;
  InputReport report;
};

Scanned whole(const KbMatcher& matcher, const ScanOptions& o, const std::string& text) {
  Scanned s;
  Scanner scanner(matcher, o);
  FindingCollector out(o.max_evidence);
  testing::StringStream in(text);
  s.report.path = "t.log";
  scanner.scan(in, 0, s.report, out);
  s.findings = out.take();
  return s;
}

// Feeds `text` in pieces cut at random places, flushing at random moments.
Scanned pieces(const KbMatcher& matcher, const IncrementalScanOptions& o, const std::string& text, unsigned seed) {
  std::mt19937 rng(seed);
  Scanner scanner(matcher, o.scan);
  SourceScan src("t.log", "file", o);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t n = std::min<std::size_t>(text.size() - at, 1 + rng() % 97);
    src.feed(std::string_view(text).substr(at, n), scanner);
    at += n;
    if (rng() % 5 == 0) src.flush(scanner);
  }
  src.flush(scanner, true);
  Scanned s;
  s.findings = src.findings().findings();
  s.report = src.report();
  return s;
}

void expect_same(const Scanned& want, const Scanned& got) {
  ASSERT_EQ(want.findings.size(), got.findings.size());
  for (std::size_t i = 0; i < want.findings.size(); ++i) {
    const Finding& a = want.findings[i];
    const Finding& b = got.findings[i];
    SCOPED_TRACE(finding_key(a));
    EXPECT_EQ(finding_key(a), finding_key(b));
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(a.only_on_low_level_lines, b.only_on_low_level_lines);
    ASSERT_EQ(a.evidence.size(), b.evidence.size());
    for (std::size_t j = 0; j < a.evidence.size(); ++j) {
      const Evidence& x = a.evidence[j];
      const Evidence& y = b.evidence[j];
      EXPECT_EQ(x.line, y.line);
      EXPECT_EQ(x.text, y.text);
      EXPECT_EQ(x.captures, y.captures);
      ASSERT_EQ(x.before.size(), y.before.size()) << "evidence at line " << x.line;
      for (std::size_t k = 0; k < x.before.size(); ++k) {
        EXPECT_EQ(x.before[k].line, y.before[k].line);
        EXPECT_EQ(x.before[k].text, y.before[k].text);
      }
      ASSERT_EQ(x.after.size(), y.after.size()) << "evidence at line " << x.line;
      for (std::size_t k = 0; k < x.after.size(); ++k) {
        EXPECT_EQ(x.after[k].line, y.after[k].line);
        EXPECT_EQ(x.after[k].text, y.after[k].text);
      }
    }
  }
  EXPECT_EQ(want.report.bytes, got.report.bytes);
  EXPECT_EQ(want.report.lines, got.report.lines);
  ASSERT_EQ(want.report.timeline.events.size(), got.report.timeline.events.size());
  for (std::size_t i = 0; i < want.report.timeline.events.size(); ++i) {
    EXPECT_EQ(want.report.timeline.events[i].entry, got.report.timeline.events[i].entry);
    EXPECT_EQ(want.report.timeline.events[i].line, got.report.timeline.events[i].line);
  }
  EXPECT_EQ(want.report.timeline.first_time.has_value(), got.report.timeline.first_time.has_value());
  if (want.report.timeline.first_time) {
    EXPECT_EQ(want.report.timeline.first_time->text, got.report.timeline.first_time->text);
  }
}

std::string numbered(int from, int to) {
  std::string s;
  for (int i = from; i <= to; ++i) s += "line " + std::to_string(i) + "\n";
  return s;
}

class IncrementalScan : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<KbProblem> problems;
    kb_ = testing::kb_from_yaml({kKb}, problems);
    matcher_ = KbMatcher::build(kb_, problems);
    ASSERT_TRUE(problems.empty());
    options_ = live_scan_options(8, 4, 3);
    options_.segment_bytes = 64;  // segments end everywhere
  }
  KnowledgeBase kb_;
  std::unique_ptr<KbMatcher> matcher_;
  IncrementalScanOptions options_;
};

TEST_F(IncrementalScan, PiecesGiveWhatTheWholeGives) {
  const std::string text = numbered(1, 3) + "a BOOM\n" + numbered(5, 30) + "BANG 7 and BOOM\n" + numbered(32, 33) +
                           "BANG 8\nBOOM\nBOOM\n" + numbered(37, 60) + "x BOOM\r\n" + numbered(62, 64) + "last BANG 9";
  const Scanned want = whole(*matcher_, options_.scan, text);
  ASSERT_FALSE(want.findings.empty());
  for (unsigned seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    expect_same(want, pieces(*matcher_, options_, text, seed));
  }
}

TEST_F(IncrementalScan, RealLogsWithTheBuiltInKnowledgeBase) {
  std::vector<KbProblem> problems;
  const auto matcher = KbMatcher::build(testing::builtin_kb(), problems);
  options_.segment_bytes = 512;
  for (const char* name : {"logs/notify_timeout_after_aicore.log", "logs/device_oom_plog.log"}) {
    SCOPED_TRACE(name);
    const std::string text = read_file(testing::fixtures_dir() + "/" + name);
    const Scanned want = whole(*matcher, options_.scan, text);
    ASSERT_FALSE(want.findings.empty());
    for (unsigned seed = 1; seed <= 5; ++seed) expect_same(want, pieces(*matcher, options_, text, seed));
  }
}

TEST_F(IncrementalScan, FollowedFromTheMiddleNumbersLinesAsTheFile) {
  Scanner scanner(*matcher_, options_.scan);
  SourceScan src("p.log", "file", options_, 101);
  src.feed("ok\nthen a BOOM\nok\n", scanner);
  src.flush(scanner, true);
  const auto& f = src.findings().findings();
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].first().line, 102u);
  ASSERT_EQ(f[0].first().before.size(), 1u);
  EXPECT_EQ(f[0].first().before[0].line, 101u);
  EXPECT_EQ(src.report().lines, 103u);
}

TEST_F(IncrementalScan, LastLinesShowWhatTheTerminalShowed) {
  Scanner scanner(*matcher_, options_.scan);
  options_.tail_lines = 3;
  SourceScan src("(stderr)", "job stderr", options_);
  src.feed(numbered(1, 5) + " 10%|#\r 20%|##\r 30%|###", scanner);
  src.flush(scanner);
  const auto last = src.last_lines();
  ASSERT_EQ(last.size(), 3u);
  EXPECT_EQ(last[0].text, "line 4");
  EXPECT_EQ(last[1].text, "line 5");
  EXPECT_EQ(last[2].text, " 30%|###");  // the unfinished progress line, as last drawn
  EXPECT_EQ(last[2].line, 6u);
}

TEST_F(IncrementalScan, ALineWithoutEndIsScannedOnceItIsTooLong) {
  options_.max_pending = 1024;
  Scanner scanner(*matcher_, options_.scan);
  SourceScan src("(stdout)", "job stdout", options_);
  src.feed(std::string(600, 'x') + " BOOM ", scanner);
  src.flush(scanner);
  EXPECT_TRUE(src.findings().findings().empty());  // not yet: the line may go on
  src.feed(std::string(600, 'y'), scanner);
  src.flush(scanner);
  ASSERT_EQ(src.findings().findings().size(), 1u);
  EXPECT_EQ(src.findings().findings()[0].first().line, 1u);
}

TEST_F(IncrementalScan, ResetForgetsFindingsButKeepsCounting) {
  Scanner scanner(*matcher_, options_.scan);
  SourceScan src("a.log", "file", options_);
  src.feed("BOOM\nok\n", scanner);
  src.flush(scanner);
  ASSERT_EQ(src.findings().findings().size(), 1u);
  src.reset_findings();
  EXPECT_TRUE(src.findings().findings().empty());
  src.feed("BANG 3\n", scanner);
  src.flush(scanner);
  ASSERT_EQ(src.findings().findings().size(), 1u);
  EXPECT_EQ(src.findings().findings()[0].first().line, 3u);
  EXPECT_EQ(src.findings().findings()[0].first().before.size(), 2u);
}

}  // namespace
}  // namespace npu_doctor::live
