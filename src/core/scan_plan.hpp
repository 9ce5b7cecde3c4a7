#pragma once
// How the scanner reads a log in two stages (docs/scanning.md): a small gate runs over
// every byte, and only the lines that pass it are given to the full knowledge base, where
// an index of each pattern's literals picks the few patterns worth confirming.
//
// The knowledge-base compiler chooses the gate from the patterns themselves: a handful of
// case-insensitive literals that most patterns provably need (regex_literals.hpp), plus
// the markers of an error-level line for entries recognised only on such lines. A pattern
// that needs none of them is not gated: its own regex runs in the first stage, and the
// build names it, so authors can fix it.
#include <cstddef>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "regex_literals.hpp"

namespace npu_doctor {

// The regexes (Vectorscan/PCRE syntax) that find the markers find_level() reads as error
// level: "ERROR" in any of its forms ([ERROR], "| ERROR", "ERROR 03-19 ..."), and glog /
// c10 "[E0319 ..." / "[F ...".
std::vector<std::string> error_level_marker_regexes();

struct GateOptions {
  // The gate's size budget (first-stage speed depends on it): data/gate-words.txt's words
  // (6, three of them Chinese) and 13 chosen from the patterns.
  std::size_t max_literals = 19;
  std::size_t min_literal = 4;      // shorter literals pass too many lines
  std::size_t max_literal = 8;
  // A gate literal is generic error vocabulary ("fail", "error", "timeout"): it must gate at
  // least `min_gain` more patterns of at least `min_families` families. A word of one topic
  // ("heartbeat", "numpy") is better left to that topic's patterns, which are more precise:
  // healthy logs print topic words ("device 3 heartbeat ok") all the time.
  std::size_t min_gain = 3;
  std::size_t min_families = 3;
  std::string_view background;      // healthy log text: literals common there are avoided
  double max_healthy_share = 0.01;  // a literal may let through at most this share of healthy lines
  // What the stack prints at ERROR level (the message catalogue's formats, one a line). When
  // given, a gate literal must be error vocabulary: at least `min_error_ratio` times as
  // frequent among these lines as among the healthy ones ("fail" is; "heartbeat", printed
  // at INFO level every few seconds, is not).
  std::string_view error_text;
  double min_error_ratio = 4.0;
  // Literals every gate holds whatever the patterns need (data/gate-words.txt): the word
  // fallback reads only lines the gate lets through, and its candidates are lines with
  // these words.
  std::vector<std::string> always;
};

struct GateChoice {
  ScanGate gate;
  std::vector<std::size_t> ungated;  // indices of patterns the gate does not cover
};

// One pattern as the gate sees it.
struct GatePattern {
  RequiredLiterals literals;
  bool error_level_only = false;  // its entry is recognised only on error-level lines
  std::string family;             // the knowledge-base family it belongs to
};

// Chooses the gate for `patterns` (greedy: the literal that gates the most patterns not yet
// gated, discounted by how often healthy lines hold it, until the budget or the gains run out).
GateChoice choose_gate(const std::vector<GatePattern>& patterns, const GateOptions& options);

// Whether `gate` covers a pattern: every match of it holds a gate literal (or, for an
// error-level-only pattern, its line holds an error-level marker).
bool gate_covers(const ScanGate& gate, const GatePattern& pattern);

// The first stage's literals for the patterns the gate does not cover (ScanGate::probes).
// Every literal the first stage holds slows it (Vectorscan's literal matcher gives way to a
// slower one past a few dozen), so patterns share literals where one serves several: the
// literal that alone completes the most of them, among those few healthy lines hold, until
// none completes two; each pattern left then gets, for each string of its clause, a literal
// chosen before that the string holds, else the string itself (or a piece of it that as few
// healthy lines hold and whose last two bytes are rarer in them: the matcher checks every
// place a literal's last bytes occur; ties between shared literals go the same way). Only
// clauses of at most `max_strings` strings none shorter than `min_literal` bytes count (a
// short literal passes many lines); a pattern without one runs its own regex in the first
// stage.
struct ProbeOptions {
  std::size_t min_literal = 5;
  std::size_t max_literal = 16;
  std::size_t max_strings = 16;
  std::string_view background;         // healthy log text, as for the gate
  double max_healthy_share = 0.001;    // a shared literal may let through at most this share of healthy lines
};
std::vector<std::string> choose_probes(const std::vector<const RequiredLiterals*>& patterns, const ProbeOptions& options);

// Whether `probes` cover a pattern: every string of one of its clauses holds a probe.
bool probes_cover(const std::vector<std::string>& probes, const RequiredLiterals& literals);

// The index keys of a pattern: lower-case strings of 3 or 4 bytes, one per string of its
// best clause (the rarest piece by `key_frequency`, when given). A line can only match the
// pattern if it holds one of them. Empty: the pattern cannot be indexed (checked on every
// line that passes the gate).
std::vector<std::string> index_keys(const RequiredLiterals& literals,
                                    const std::unordered_map<std::string, std::size_t>* key_frequency = nullptr);

// Fills `keys` and `gated` of every pattern of the knowledge base's entries and extractors
// against `gate` (the compiler after choosing it; at load time for users' files).
void plan_patterns(std::vector<Entry>& entries, std::vector<Extractor>& extractors, const ScanGate& gate,
                   bool only_unplanned);

}  // namespace npu_doctor
