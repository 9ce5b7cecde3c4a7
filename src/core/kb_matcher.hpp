#pragma once
// The knowledge base compiled for the two-stage scan (docs/scanning.md):
//   - the first stage, one Vectorscan/Hyperscan database run over every byte: the gate's
//     literals and error-level markers, plus the regex of every pattern the gate does not
//     cover; a line with any of them goes on to
//   - the second stage: an index of every pattern's literals picks the patterns the line may
//     match (line_index.hpp), and PCRE2 confirms each on the line and reads its captures.
// PCRE2 programs are compiled the first time a pattern is confirmed, so start-up does not
// grow with the knowledge base.
#include <algorithm>
#include <array>
#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "line_grams.hpp"
#include "line_index.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/line_info.hpp"
#include "npu_doctor/once_slots.hpp"
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
  // A pattern's regex is compiled to machine code after this many confirmations (Program).
  static constexpr uint32_t kJitAfter = 16;
  // Compiles the first stage and indexes the patterns of `kb`. A pattern that does not
  // compile is reported in `problems` and left out; everything else still works.
  // `cache_dir` (optional) keeps compiled first-stage databases between runs.
  // `use`: how long catalogue programs live. `repeated` (a scan): a program, once made, may
  // match many lines. `one_pass` (kb lint): each entry is met once and what was made is let
  // go every few hundred entries (forget_made), so programs are not compiled to machine code.
  enum class ProgramUse { repeated, one_pass };
  static std::unique_ptr<KbMatcher> build(const KnowledgeBase& kb, std::vector<KbProblem>& problems,
                                          const std::string& cache_dir = {}, ProgramUse use = ProgramUse::repeated);
  ~KbMatcher();

  const KnowledgeBase& kb() const { return kb_; }
  // The first stage: any match marks its line for the second stage.
  const PatternSet& gate() const { return gate_; }
  std::size_t pattern_count() const;
  // Patterns whose own regex runs in the first stage (the gate does not cover them).
  std::size_t ungated_count() const { return ungated_; }
  const LineIndex& index() const { return index_; }
  // The pattern a first-stage match id stands for (npos: a gate literal or marker).
  std::size_t stage1_pattern(std::size_t id) const { return id < stage1_owner_.size() ? stage1_owner_[id] : std::string::npos; }
  // Patterns the index cannot hold that run in the first stage: candidates where it found them.
  const std::vector<std::size_t>& unindexed_ungated() const { return unindexed_ungated_; }

  // Confirms candidate `pattern` on `line` and appends what it recognises. `info` is what
  // the line says of itself: its plog module ("HCCL"...) settles code ranges, its level
  // decides entries recognised only on error-level lines. `grams`, the line's pieces when
  // the caller read them (line_grams.hpp), turn down before PCRE2 a pattern whose required
  // strings the line lacks; the result is the same with or without them.
  void confirm(std::size_t pattern, std::string_view line, const LineInfo& info, std::vector<LineHit>& out,
               const LineGrams* grams = nullptr) const;
  // Whether a line with these pieces may match `pattern` at all (false: it cannot).
  bool may_match(std::size_t pattern, const LineGrams& grams) const;

  // Everything recognised on one line by the second stage (what the scanner does with a
  // line that passed the gate; lint, explain and tests use it directly).
  std::vector<LineHit> match_line(std::string_view line) const;
  // Lets go of every catalogue pattern compiled and catalogue entry decoded so far (made
  // again when needed): only when no other thread is matching and no hit's entry is used after.
  void forget_made() const;
  // How many entries (or sample lines) `kb lint` checks between two forget_made() calls.
  static constexpr std::size_t kEntriesBetweenForgets = 500;

  // Everything recognised on one line by PCRE2 alone, every pattern tried: the reference
  // the index is checked against (slow; tests only).
  std::vector<LineHit> match_line_reference(std::string_view line) const;

  // The tables this matcher computed at start-up, as an image for the snapshot of the same
  // knowledge base (npu-doctor-kbc writes it; kb_matcher_image.cpp). build() reads them in
  // place from KnowledgeBase::matcher_image() when the image was made for exactly its
  // patterns, instead of computing them again.
  std::string write_image() const;
  // Whether build() took the index from the knowledge base's image.
  bool index_from_image() const { return index_from_image_; }

  // Whether the first stage lets `line` through (alone, and inside a large buffer).
  bool passes_gate(std::string_view line) const;

  // Checks the first stage: lines that must pass the gate are scanned alone and inside one
  // large buffer of filler; a line that passes alone but not in the buffer, or not at all,
  // is a miss. Returns the number of misses (0 = sound). Some Vectorscan builds lose matches
  // on some CPUs; the quick form (one line per gate literal and marker, the samples of the
  // patterns outside the gate) catches that at start-up. The thorough form (every sample the
  // knowledge base recognises) is the lint's proof that the gate covers what it claims; it
  // runs on one thread only (it lets go of compiled programs and decoded entries as it goes).
  // `only_user_defined` limits the thorough form to the user's entries and extractors.
  std::size_t engine_self_test(std::string* first_miss = nullptr, bool thorough = false,
                               bool only_user_defined = false) const;

 private:
  // A hand-written pattern or an extractor's. A catalogue pattern has no record here: its
  // id is refs_.size() + its catalogue index, and it is read from the catalogue's record
  // when needed, so start-up does not build ~100 bytes for each of tens of thousands.
  struct PatternRef {
    const Entry* entry = nullptr;          // a decoded entry's message pattern, or
    const Extractor* extractor = nullptr;  // a code extractor
    std::string_view regex;                // valid as long as the knowledge base is
    bool ignore_case = false;
    bool gated = false;
    LevelRequirement level = LevelRequirement::any;
  };
  // Any pattern's regex, own or catalogue, as the engines take it.
  struct PatternView {
    std::string_view regex;
    bool ignore_case = false;
  };
  explicit KbMatcher(const KnowledgeBase& kb) : kb_(kb) {}
  // A matcher image as read back (kb_matcher_image.cpp).
  struct Image {
    uint64_t fingerprint = 0;
    std::vector<uint32_t> ungated_catalogue;     // catalogue patterns the gate does not cover
    std::vector<std::size_t> unindexed_ungated;  // unindexed_ungated_
    std::string_view index;                      // LineIndex::write_image()
  };
  static std::optional<Image> read_image(std::string_view bytes);
  // What the index depends on besides the snapshot's catalogue: every hand-written and
  // extractor pattern as planned, with its keys, and the catalogue's size.
  uint64_t fingerprint(const std::vector<std::vector<std::string_view>>& own_keys) const;
  std::size_t total_patterns() const { return refs_.size() + catalogue_size_; }
  bool is_catalogue(std::size_t id) const { return id >= refs_.size(); }
  PatternView view(std::size_t id) const;
  bool gated(std::size_t id) const;  // without decoding a catalogue record's keys
  LevelRequirement level(std::size_t id) const;
  bool dead(std::size_t id) const { return dead_[id]; }
  // A pattern's program: its regex and what a line must hold for it (GramFilter). The regex
  // is interpreted until the pattern has been confirmed kJitAfter times, and only then
  // compiled to machine code, once: compiling costs more than interpreting a few dozen lines,
  // and most patterns a run touches are confirmed on a handful of lines (a small log's run
  // spent a quarter of its time compiling). A pattern confirmed on every other line of a big
  // log gets its machine code early.
  struct Program {
    Program(Regex interpreted, GramFilter line_filter) : regex(std::move(interpreted)), filter(std::move(line_filter)) {}
    Regex regex;  // interpreted
    GramFilter filter;
    mutable std::atomic<uint32_t> uses{0};
    mutable std::once_flag jit_once;
    mutable std::unique_ptr<Regex> jit;               // set once, inside jit_once
    mutable std::atomic<const Regex*> hot{nullptr};  // jit, once it is ready
  };
  const Program* program_of(std::size_t id) const;
  // A catalogue pattern of a one-pass matcher (kb lint), confirmed on an entry's samples and
  // let go: neither a line filter nor machine code is worth making for it.
  bool one_pass(std::size_t id) const { return is_catalogue(id) && catalogue_jit_ == Regex::Jit::off; }
  // The regex to confirm pattern `id` with this time (counts the use).
  const Regex& regex_for_use(std::size_t id, const Program& program) const;
  const Entry* entry_of(std::size_t id) const;
  void confirm_entry(std::size_t pattern, const Regex& re, std::string_view line, std::vector<LineHit>& out) const;
  void confirm_extractor(const Extractor& extractor, const Regex& re, std::string_view line, std::string_view component,
                         std::vector<LineHit>& out) const;

  const KnowledgeBase& kb_;
  std::vector<PatternRef> refs_;
  std::size_t catalogue_size_ = 0;
  // Every pattern's program, compiled on first use: hand-written ones by id, the catalogue's
  // by id - refs_.size() (apart, so that `kb lint` can let go of the catalogue's alone).
  OnceSlots<Program> own_programs_;
  OnceSlots<Program> catalogue_programs_;
  Regex::Jit catalogue_jit_ = Regex::Jit::on;
  // By id: a catalogue entry a user's entry replaced, or a pattern the first stage rejected
  // that nothing gates; never found.
  std::vector<bool> dead_;
  std::deque<MatchPattern> planned_;  // plans made here for patterns the compiler did not plan
  LineIndex index_;
  std::vector<std::size_t> unindexed_ungated_;
  std::vector<std::size_t> stage1_owner_;  // first-stage id -> pattern (npos: gate literal or marker)
  PatternSet gate_;
  std::size_t ungated_ = 0;
  std::vector<std::size_t> ungated_patterns_;  // ids of the patterns the gate does not cover
  uint64_t fingerprint_ = 0;
  bool index_from_image_ = false;
};

// What one line finally says: repeated (entry, code) pairs removed (the most specific first
// occurrence kept), catalogue hits dropped when a hand-written entry claims the line by a
// message or an exact code, and of several catalogue hits only the one with the most
// literal text kept (docs/kb-messages.md).
void dedupe_hits(std::vector<LineHit>& hits);

// How much literal text a catalogue entry's format keeps (its specificity among others).
std::size_t literal_weight(const Entry& e);

}  // namespace npu_doctor
