#pragma once
// The word fallback at scan time: an error-level line that no knowledge-base entry
// claims (or only a generic wrapper does) is classified by its words with the embedded
// model, and becomes a finding of the entry `words.<category>` (kb/words.yaml) with the
// probability attached. docs/root-cause.md ("The word fallback") says when it may be the
// root cause.
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kb_matcher.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/line_info.hpp"
#include "word_model.hpp"

namespace npu_doctor {

class WordFallback {
 public:
  // Lines classified per input at most: a log of endless unknown errors costs bounded
  // time (its findings are one per category anyway).
  static constexpr std::size_t kMaxLinesPerInput = 1000;
  // Only the start of a very long line is read.
  static constexpr std::size_t kMaxTextBytes = 2048;

  // nullptr (the fallback is off) when `model_bytes` is not a valid model or `kb` has no
  // `words.<category>` entries for the model's categories. `bytes_outlive_fallback` (the
  // model embedded in the binary): its rows are read in place (read_word_model).
  static std::unique_ptr<WordFallback> create(const KnowledgeBase& kb, std::string_view model_bytes,
                                              bool bytes_outlive_fallback = false);
  WordFallback(const KnowledgeBase& kb, WordModel model);

  const WordModel& model() const { return model_; }

  // An error-level line: logged at ERROR level, an exception's last line
  // ("FooError: ..."), or of unknown level with an error word ("failed", "error") on it
  // that is not negated ("0 errors"). The scanner asks only about lines that passed its
  // gate (error-level markers and error words such as "error" and "fail" are among the
  // gate's literals; tests/unit/core/word_fallback_test.cpp checks that they still are).
  bool is_candidate(std::string_view line, LineLevel level) const;

  // True when no entry claims the line, or only wrappers do.
  static bool unclaimed(const std::vector<LineHit>& hits);

  // The model's best category for the line and its probability (only the line's first
  // kMaxTextBytes are read), whatever the thresholds.
  WordPrediction predict(std::string_view line) const;

  // The line's words as a hit of `words.<category>`, or nullopt when they point nowhere
  // (the best class is `other`, or its probability is below the report threshold).
  std::optional<LineHit> classify(std::string_view line) const;

 private:
  bool has_error_word(std::string_view line) const;

  WordModel model_;
  std::array<const Entry*, 12> entries_{};  // by Category
  // The model's error words and negations written in Chinese (no spaces between words:
  // looked for anywhere on the line), picked out once.
  std::vector<std::string> cjk_error_words_;
  std::vector<std::string> cjk_negations_;
};

// An exception's last line: "RuntimeError: ...", "torch.OutOfMemoryError: ...".
bool is_exception_line(std::string_view line);

// A traceback's frame ('File "x.py", line 12, in f'), its header, or its underline of
// '^'/'~', or a C++ backtrace's "frame #0: ..." (after a logger's prefix too): never a
// candidate of the word fallback.
bool is_traceback_frame(std::string_view line);
bool is_traceback_scaffolding(std::string_view line);

}  // namespace npu_doctor
