#pragma once
// Findings: what the scanner recognised, as plain data. One Finding per
// (knowledge-base entry, code), with its first occurrences as evidence.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/line_info.hpp"

namespace npu_doctor {

struct ContextLine {
  uint64_t line = 0;  // 1-based line number
  std::string text;   // sanitized
};

// One occurrence: where it is, the line, and the lines around it.
struct Evidence {
  std::size_t input = 0;  // index into DiagnosisReport::inputs
  std::string path;       // display path (archive members as "archive.tar.gz:member")
  uint64_t line = 0;      // 1-based
  std::string text;       // sanitized, at most a few KiB around the match
  std::optional<Timestamp> time;
  std::optional<int> rank;
  std::optional<int> device;
  std::optional<long> pid;
  std::string module;
  std::vector<std::pair<std::string, std::string>> captures;
  std::vector<ContextLine> before;
  std::vector<ContextLine> after;
  // When this line ends a Python traceback: the line of the record the traceback hangs from
  // ("AsyncLLM output_handler failed." above "Traceback (most recent call last):"); 0: none.
  uint64_t traceback_header_line = 0;
};

// How the word fallback classified a line no knowledge-base entry claims
// (docs/root-cause.md, "The word fallback").
struct WordGuess {
  double probability = 0;     // of the finding's category, for its first line
  double root_threshold = 1;  // the model's: below it the finding is a warning
  bool confident() const { return probability >= root_threshold; }
};

// A finding the user declared expected on their systems (diagnose --expected FILE,
// docs/expected-errors.md): shown with the user's reason, never a root cause.
struct Expectation {
  std::string reason;
  std::string source;  // "FILE:LINE" of the declaration
};

struct Finding {
  const Entry* entry = nullptr;
  std::string code;
  Specificity specificity = Specificity::message;
  uint64_t count = 0;              // occurrences in all inputs
  std::vector<Evidence> evidence;  // the first few occurrences, in input order
  // True while every occurrence was on a line its program logged at INFO, DEBUG or
  // WARNING level: the program carried on, so the finding is at most a warning
  // ("Failed to import vllm._C: No module named ..." in a healthy vLLM log).
  bool only_on_low_level_lines = true;
  // Set when a context rule read the finding as another entry: the entry it was matched as.
  const Entry* read_from = nullptr;
  // Set for the word fallback's findings (entries `words.<category>`) only.
  std::optional<WordGuess> words;
  // Set when the user's file of expected errors names it (severity info from then on).
  std::optional<Expectation> expected;

  // Set by the root-cause analysis.
  Role effective_role = Role::cause;  // the entry's role after cause/symptom reasoning
  std::string symptom_of;             // id of the root-cause finding this follows from

  const Evidence& first() const { return evidence.front(); }
};

// The entry's severity, capped at warning when every occurrence was on a low-level line
// (unless the entry is `any_level`) and for a word-fallback finding below its threshold;
// info for a finding the user declared expected.
Severity effective_severity(const Finding& f);

// A finding raised by an analysis (check, mem ...) rather than matched in a log: the
// entry gives category, texts and remedies; `evidence` says what was read where
// (a file and line, or a command's output).
Finding make_finding(const Entry& entry, Evidence evidence, std::string code = {});

// Identity of a finding inside a report: "<entry id>" or "<entry id>#<code>" when a
// family entry (a code range) was matched by a concrete code.
std::string finding_key(const Finding& f);

// The finding's title in `lang`; a word-fallback finding's carries its probability:
// "Unrecognised error; its words point to memory (p = 0.82)".
std::string finding_title(const Finding& f, Lang lang);

// An entry text (title, cause, remedy) with each `{name}` whose capture the finding's first
// occurrence has replaced by the captured value ("`{variable}` is not set" -> "`ASCEND_HOME_PATH`
// is not set"); names it did not capture stay as written.
std::string with_captures(std::string text, const Finding& f);
// The entry's cause and remedies in `lang`, captures filled in.
std::string finding_cause(const Finding& f, Lang lang);
std::vector<std::string> finding_remedies(const Finding& f, Lang lang);

}  // namespace npu_doctor
