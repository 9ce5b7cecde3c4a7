// The gate the compiler chooses, the index keys, and the index that uses them.
#include <gtest/gtest.h>

#include <algorithm>

#include "line_index.hpp"
#include "scan_plan.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

GatePattern pattern(std::string_view re, bool error_level = false, std::string family = "f") {
  return {required_literals(re), error_level, std::move(family)};
}

// Small knowledge bases: two patterns of one family are enough to earn a gate literal.
GateOptions small() {
  GateOptions o;
  o.min_gain = 2;
  o.min_families = 1;
  return o;
}

TEST(ScanGate, TheGreedyChoiceGatesTheSharedWordAndLeavesTheRestOutside) {
  const std::vector<GatePattern> patterns = {
      pattern("aclrtMalloc failed"), pattern("socket connect failed"), pattern("notify wait failed"),
      pattern("Device or resource busy"),  // shares nothing with the others
  };
  const GateChoice c = choose_gate(patterns, small());
  ASSERT_FALSE(c.gate.literals.empty());
  EXPECT_TRUE(std::any_of(c.gate.literals.begin(), c.gate.literals.end(),
                          [](const std::string& l) { return std::string(" failed").find(l) != std::string::npos; }));
  EXPECT_EQ(c.ungated, (std::vector<std::size_t>{3}));
  EXPECT_FALSE(c.gate.error_markers);
}

TEST(ScanGate, WordsCommonInHealthyLogsAreAvoided) {
  // "memory" gates all three patterns, but every healthy line holds it; "fail" gates two.
  const std::vector<GatePattern> patterns = {pattern("memory alloc fail"), pattern("memory copy fail"),
                                             pattern("memory exhausted")};
  GateOptions o = small();
  o.background = "[INFO] Allocate memory size=1\n[INFO] Allocate memory size=2\n[INFO] memory ok\n";
  const GateChoice c = choose_gate(patterns, o);
  EXPECT_EQ(std::count(c.gate.literals.begin(), c.gate.literals.end(), "memo"), 0);
  EXPECT_TRUE(std::any_of(c.gate.literals.begin(), c.gate.literals.end(),
                          [](const std::string& l) { return l.find("fail") != std::string::npos || l == "fail"; }));
}

TEST(ScanGate, AWordOfOneTopicIsLeftToItsPatterns) {
  // "heartbeat" gates three patterns, all of one family: not generic error vocabulary.
  const std::vector<GatePattern> patterns = {
      pattern("lost heartbeat", false, "device"), pattern("heartbeat broken", false, "device"),
      pattern("heartbeat lost", false, "device"), pattern("open failed", false, "a"),
      pattern("read failed", false, "b"), pattern("write failed", false, "c")};
  GateOptions o;
  o.min_gain = 3;
  const GateChoice c = choose_gate(patterns, o);
  EXPECT_EQ(c.gate.literals, (std::vector<std::string>{"failed"}));
  EXPECT_EQ(c.ungated, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(ScanGate, ErrorLevelEntriesAreGatedByTheMarkers) {
  const std::vector<GatePattern> patterns = {pattern("ptr is nullptr", true), pattern("rank size is 0", true)};
  const GateChoice c = choose_gate(patterns, GateOptions{});
  EXPECT_TRUE(c.gate.error_markers);
  EXPECT_TRUE(c.ungated.empty());
  EXPECT_TRUE(c.gate.literals.empty());
}

TEST(ScanGate, APatternIsCoveredOnlyWhenEveryAlternativeHoldsAGateLiteral) {
  ScanGate g;
  g.literals = {"fail"};
  EXPECT_TRUE(gate_covers(g, pattern("(?:open|close) failed")));
  EXPECT_FALSE(gate_covers(g, pattern("(?:open failed|closed)")));
  EXPECT_FALSE(gate_covers(g, pattern(R"(\d+)")));
}

std::vector<std::string> probes_for(const std::vector<std::string_view>& regexes, std::string_view background = {}) {
  std::vector<RequiredLiterals> lits;
  for (auto re : regexes) lits.push_back(required_literals(re));
  std::vector<const RequiredLiterals*> ptrs;
  for (const auto& l : lits) ptrs.push_back(&l);
  ProbeOptions o;
  o.background = background;
  return choose_probes(ptrs, o);
}

TEST(Probes, PatternsShareOneLiteralWhereOneServesSeveral) {
  // Three patterns need "socket timeout"-ish text: one literal covers them all; the fourth
  // shares nothing and is looked for by its own string.
  const auto probes = probes_for({"wait socket timeout, role", "get socket timeout now", "accept socket timeout",
                                  "Device or resource busy"});
  EXPECT_EQ(probes.size(), 2u);
  EXPECT_EQ(std::count(probes.begin(), probes.end(), "device or resource busy"), 1);
  for (auto re : {"wait socket timeout, role", "get socket timeout now", "accept socket timeout", "Device or resource busy"}) {
    EXPECT_TRUE(probes_cover(probes, required_literals(re))) << re;
  }
}

TEST(Probes, ASharedLiteralCommonInHealthyLinesIsNotChosen) {
  // " socket " is shared by both, but every healthy line holds it: each keeps its own string.
  const std::string background = "[INFO] socket 3 open\n[INFO] socket 4 open\n[INFO] socket 5 open\n";
  const auto probes = probes_for({"socket connect refused", "socket accept timed out"}, background);
  EXPECT_EQ(probes, (std::vector<std::string>{"socket accept timed out", "socket connect refused"}));
}

TEST(Probes, TheSpellingsOfOneMessageShareOneLiteral) {
  // One pattern, two spellings: one piece both hold serves them (one literal, not two).
  const char* re = "(?:tensor parallel size|tensor_parallel_size) must divide";
  const auto probes = probes_for({re});
  EXPECT_EQ(probes.size(), 1u);
  EXPECT_TRUE(probes_cover(probes, required_literals(re)));
}

TEST(Probes, ASharedPieceCommonInHealthyLinesLeavesEachSpellingItsOwnLiteral) {
  // Every piece both spellings hold is in every healthy line ("socket "): each keeps its own.
  const std::string background = "[INFO] socket 3 open\n[INFO] socket 4 open\n[INFO] socket 5 open\n";
  const char* re = "socket (?:connect|accept)";
  const auto probes = probes_for({re}, background);
  EXPECT_EQ(probes, (std::vector<std::string>{"socket accept", "socket connect"}));
  EXPECT_TRUE(probes_cover(probes, required_literals(re)));
}

TEST(Probes, APatternsOwnLiteralEndsInBytesHealthyTextRarelyHas) {
  // "ng" ends many healthy words; a piece of the message that no healthy line holds either,
  // ending in rarer bytes, is looked for instead of the whole message (the first stage checks
  // every place a literal's last bytes occur).
  const std::string background = "[info] running step 1, training going\n[info] running step 2, loading\n";
  const std::string message = "the last training process is running";
  const auto probes = probes_for({message}, background);
  ASSERT_EQ(probes.size(), 1u);
  EXPECT_NE(probes[0], message);
  EXPECT_NE(message.find(probes[0]), std::string::npos);
  EXPECT_EQ(background.find(probes[0]), std::string::npos);
  const std::string ending = probes[0].substr(probes[0].size() - 2);
  EXPECT_EQ(background.find(ending), std::string::npos) << probes[0];
  EXPECT_TRUE(probes_cover(probes, required_literals(message)));
}

TEST(Probes, APatternWithOnlyShortLiteralsIsLeftToItsRegex) {
  // "inf" would pass every INFO line: no probe, so the pattern's regex runs in the first stage.
  const auto probes = probes_for({R"(\b(?:kl|ppl)\s*[:=]\s*(?:nan|inf)\b)", "Device or resource busy"});
  EXPECT_EQ(probes, (std::vector<std::string>{"device or resource busy"}));
  EXPECT_FALSE(probes_cover(probes, required_literals(R"(\b(?:kl|ppl)\s*[:=]\s*(?:nan|inf)\b)")));
}

TEST(Probes, APatternIsCoveredOnlyWhenEveryAlternativeHoldsAProbe) {
  const std::vector<std::string> probes = {"refused"};
  EXPECT_TRUE(probes_cover(probes, required_literals("connection (?:refused|was refused)")));
  EXPECT_FALSE(probes_cover(probes, required_literals("connection (?:refused|reset)")));
}

TEST(IndexKeys, OneRareKeyPerStringOfTheBestClause) {
  const auto keys = index_keys(required_literals("(?:socket|notify) wait timeout"));
  ASSERT_EQ(keys.size(), 2u);
  for (const auto& k : keys) EXPECT_EQ(k.size(), 4u);
  EXPECT_TRUE(index_keys(required_literals(R"(\d{6})")).empty());
  EXPECT_TRUE(index_keys(required_literals("(?:ab|cd)")).empty());  // too short to index
}

// The pattern ids of a look-up's hits, in order.
std::vector<std::size_t> sorted_ids(const std::vector<LineIndex::Hit>& hits) {
  std::vector<std::size_t> ids;
  for (const auto& h : hits) ids.push_back(h.pattern);
  std::sort(ids.begin(), ids.end());
  return ids;
}

TEST(LineIndex, ALineWakesOnlyThePatternsWhoseKeysItHolds) {
  LineIndex idx;
  const std::string_view k0[] = {"sock"}, k1[] = {"noti", "time"}, k3[] = {"abc"};
  idx.add(0, k0);
  idx.add(1, k1);
  idx.add(2, {});  // not indexable: every line
  idx.add(3, k3);
  idx.finish();
  std::vector<LineIndex::Hit> out;
  std::vector<uint32_t> seen;
  idx.candidates("[ERROR] NOTIFY wait TIMEOUT", out, seen);
  EXPECT_EQ(sorted_ids(out), (std::vector<std::size_t>{1, 2}));
  out.clear();
  idx.candidates("xxabcx socket", out, seen);
  EXPECT_EQ(sorted_ids(out), (std::vector<std::size_t>{0, 2, 3}));
  // Positions, every occurrence.
  out.clear();
  idx.all_positions("sock .. sock", out);
  EXPECT_EQ(std::count_if(out.begin(), out.end(), [](const auto& h) { return h.pattern == 0; }), 2);
}

// A pattern recognised only on error lines (level: error, most of the message catalogue) is
// no candidate on a line of another level, whichever of a key's patterns it is listed with.
TEST(LineIndex, AnErrorLevelOnlyPatternIsNoCandidateOnALineOfAnotherLevel) {
  LineIndex idx;
  const std::string_view fail[] = {"fail"}, sock[] = {"sock"};
  idx.add(0, fail, /*error_level_only=*/true);
  idx.add(1, fail);
  idx.add(2, fail, /*error_level_only=*/true);
  idx.add(3, sock, /*error_level_only=*/true);
  idx.add(4, fail);
  idx.finish();
  const auto ids_of = [&](std::string_view line, bool error_line, bool all_positions) {
    std::vector<LineIndex::Hit> out;
    std::vector<uint32_t> seen;
    if (all_positions) idx.all_positions(line, out, error_line);
    else idx.candidates(line, out, seen, error_line);
    std::vector<std::size_t> ids = sorted_ids(out);
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());  // all_positions: every place
    return ids;
  };
  for (const bool all : {false, true}) {
    EXPECT_EQ(ids_of("socket connect failed", /*error_line=*/true, all), (std::vector<std::size_t>{0, 1, 2, 3, 4}));
    EXPECT_EQ(ids_of("socket connect failed", /*error_line=*/false, all), (std::vector<std::size_t>{1, 4}));
    EXPECT_EQ(ids_of("socket open", /*error_line=*/false, all), (std::vector<std::size_t>{}));
  }
  // The default keeps every candidate, as before levels were known to the index.
  std::vector<LineIndex::Hit> out;
  std::vector<uint32_t> seen;
  idx.candidates("failed", out, seen);
  EXPECT_EQ(out.size(), 4u);
  // The image keeps the marks: read back, it leaves out the same patterns.
  const testing::AlignedCopy image(idx.write_image());
  LineIndex back;
  ASSERT_TRUE(back.read_image(image.bytes, 5));
  out.clear();
  back.candidates("connect failed", out, seen, /*error_line=*/false);
  EXPECT_EQ(sorted_ids(out), (std::vector<std::size_t>{1, 4}));
}

}  // namespace
}  // namespace npu_doctor
