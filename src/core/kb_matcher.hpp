#pragma once
// The knowledge base compiled for matching: every entry pattern and every code
// extractor in one Vectorscan database, plus the PCRE2 form of each pattern to
// confirm a candidate line and read its captures.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "pattern_set.hpp"
#include "regex.hpp"

namespace npu_doctor {

// One knowledge-base entry recognised on one line.
struct LineHit {
  const Entry* entry = nullptr;
  std::string code;  // the concrete code seen (or the entry's first code)
  Specificity specificity = Specificity::message;
  std::vector<std::pair<std::string, std::string>> captures;
  std::size_t begin = 0;  // match position within the line
  std::size_t end = 0;
  std::optional<WordGuess> words;  // set by the word fallback (Specificity::words)
};

class KbMatcher {
 public:
  // Compiles the patterns of `kb`. A pattern the engine rejects is reported in
  // `problems` and left out; everything else still works. `cache_dir` (optional) keeps
  // compiled databases between runs (see PatternSet::compile).
  // `gates` are extra patterns that recognise nothing themselves but bring their lines
  // to the scanner's attention (the word fallback's candidate lines).
  static std::unique_ptr<KbMatcher> build(const KnowledgeBase& kb, std::vector<KbProblem>& problems,
                                          const std::string& cache_dir = {},
                                          const std::vector<MatchPattern>& gates = {});

  const KnowledgeBase& kb() const { return kb_; }
  const PatternSet& patterns() const { return set_; }
  std::size_t pattern_count() const { return refs_.size(); }

  // Confirms candidate `pattern` on `line` and appends what it recognises.
  // `component` is the plog module of the line ("HCCL"...), used for code ranges.
  void confirm(std::size_t pattern, std::string_view line, std::string_view component,
               std::vector<LineHit>& out) const;

  // Everything recognised on one line (the whole pipeline, for lint and tests).
  std::vector<LineHit> match_line(std::string_view line) const;

  // Everything recognised on one line by PCRE2 alone, without the multi-pattern engine:
  // the reference the engine is checked against (slow; tests only).
  std::vector<LineHit> match_line_reference(std::string_view line) const;

  // Checks the multi-pattern engine against itself: every knowledge-base sample line is
  // scanned alone and inside one large buffer of filler; a pattern reported alone but
  // not in the buffer is a miss. Returns the number of misses (0 = the engine is sound).
  // Some Vectorscan builds lose matches on some CPUs; this catches that at start-up.
  std::size_t engine_self_test(std::string* first_miss = nullptr) const;

 private:
  struct PatternRef {
    const Entry* entry = nullptr;          // an entry's message pattern, or
    const Extractor* extractor = nullptr;  // a code extractor, or neither: a gate
    MatchPattern pattern;
    Regex regex;
  };
  explicit KbMatcher(const KnowledgeBase& kb) : kb_(kb) {}
  void confirm_entry(const PatternRef& ref, std::string_view line, std::vector<LineHit>& out) const;
  void confirm_extractor(const PatternRef& ref, std::string_view line, std::string_view component,
                         std::vector<LineHit>& out) const;

  const KnowledgeBase& kb_;
  std::vector<PatternRef> refs_;
  PatternSet set_;
};

// Removes repeated (entry, code) pairs, keeping the most specific first occurrence.
void dedupe_hits(std::vector<LineHit>& hits);

}  // namespace npu_doctor
