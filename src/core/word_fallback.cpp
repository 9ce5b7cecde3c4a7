#include "word_fallback.hpp"

#include <algorithm>
#include <iterator>

namespace npu_doctor {
namespace {

constexpr std::size_t kCategoryCount = static_cast<std::size_t>(Category::other) + 1;

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char lower_letter(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// A report's field whose value is only a number, a time or a hex word ("error time   :
// 2020-08-26-11:24:07", "error code : 0x4" in msaicerr's info.txt): a label, no statement
// about a failure, and nothing for the classifier to read.
bool is_field_with_plain_value(std::string_view line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon > 40) return false;
  for (char c : line.substr(0, colon)) {
    if (!is_identifier_char(c) && c != ' ' && c != '\t' && c != '-') return false;
  }
  bool any_digit = false;
  for (char c : line.substr(colon + 1)) {
    const bool hex_letter = (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == 'x' || c == 'X';
    if (c >= '0' && c <= '9') any_digit = true;
    else if (!hex_letter && c != ' ' && c != '\t' && c != ':' && c != '.' && c != '-' && c != '/' && c != '\r') return false;
  }
  return any_digit;
}

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// A C++ backtrace's frame as c10 (torch, torch_npu) prints it under an error:
// "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0xb8 (0x... in libc10.so)".
bool is_native_backtrace_frame(std::string_view line) {
  std::size_t at = line.find("frame #");
  if (at == std::string_view::npos) return false;
  at += 7;
  const std::size_t digits = at;
  while (at < line.size() && line[at] >= '0' && line[at] <= '9') ++at;
  return at > digits && line.substr(at, 2) == ": ";
}

}  // namespace

bool is_traceback_frame(std::string_view line) {
  // '  File "/x/y.py", line 12, in f' (also after a logger's prefix, as vLLM prints
  // every line of a worker's traceback at ERROR level).
  const std::size_t file = line.find("File \"");
  if (file == std::string_view::npos) return false;
  const std::size_t at = line.find("\", line ", file + 6);
  if (at == std::string_view::npos) return false;
  const std::size_t digit = at + 8;
  return digit < line.size() && line[digit] >= '0' && line[digit] <= '9';
}

bool is_traceback_scaffolding(std::string_view line) {
  if (is_traceback_frame(line) || is_native_backtrace_frame(line) ||
      line.find("Traceback (most recent call last)") != std::string_view::npos) {
    return true;
  }
  // Python 3.11's underline of the failing expression: "    ^^^^^^^" or "~~~~^^^^".
  std::size_t end = line.size();
  while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\r' || line[end - 1] == '\t')) --end;
  std::size_t begin = end;
  while (begin > 0 && (line[begin - 1] == '^' || line[begin - 1] == '~')) --begin;
  if (end - begin < 3) return false;
  std::size_t before = begin;
  while (before > 0 && (line[before - 1] == ' ' || line[before - 1] == '\t')) --before;
  return before == 0 || line[before - 1] == ']' || line[before - 1] == ':';
}

bool is_exception_line(std::string_view line) {
  for (std::string_view suffix : {std::string_view("Error:"), std::string_view("Exception:")}) {
    for (std::size_t pos = line.find(suffix); pos != std::string_view::npos; pos = line.find(suffix, pos + 1)) {
      // Something must follow: "except RuntimeError:" in a traceback's source line is no message.
      std::size_t after = pos + suffix.size();
      while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
      if (after >= line.size()) continue;
      // The class name: "RuntimeError", "torch.OutOfMemoryError", "Error".
      std::size_t start = pos;
      while (start > 0 && (is_identifier_char(line[start - 1]) || line[start - 1] == '.')) --start;
      if (start >= 7 && line.substr(start - 7, 7) == "except ") continue;
      return true;
    }
  }
  return false;
}

std::unique_ptr<WordFallback> WordFallback::create(const KnowledgeBase& kb, std::string_view model_bytes,
                                                   bool bytes_outlive_fallback) {
  auto model = read_word_model(model_bytes, bytes_outlive_fallback);
  if (!model || model->classes.empty()) return nullptr;
  auto fallback = std::make_unique<WordFallback>(kb, std::move(*model));
  const bool any = std::any_of(fallback->entries_.begin(), fallback->entries_.end(), [](const Entry* e) { return e != nullptr; });
  return any ? std::move(fallback) : nullptr;
}

WordFallback::WordFallback(const KnowledgeBase& kb, WordModel model) : model_(std::move(model)) {
  for (std::size_t c = 0; c < kCategoryCount; ++c) {
    entries_[c] = kb.find_id("words." + std::string(to_string(static_cast<Category>(c))));
  }
  std::copy_if(model_.error_words.begin(), model_.error_words.end(), std::back_inserter(cjk_error_words_),
               [](const std::string& w) { return !is_ascii(w); });
  std::copy_if(model_.negations.begin(), model_.negations.end(), std::back_inserter(cjk_negations_),
               [](const std::string& w) { return !is_ascii(w); });
}

bool WordFallback::has_error_word(std::string_view line) const {
  // Words are runs of [A-Za-z0-9_] (as \b sees them), compared without case. The two words
  // before each error word and the one after it are checked for a negation.
  auto equals = [](std::string_view word, const std::string& lower_case) {
    if (word.size() != lower_case.size()) return false;
    for (std::size_t i = 0; i < word.size(); ++i) {
      if (lower_letter(word[i]) != lower_case[i]) return false;
    }
    return true;
  };
  auto in = [&](const std::vector<std::string>& list, std::string_view word) {
    return std::any_of(list.begin(), list.end(), [&](const std::string& w) { return equals(word, w); });
  };
  // Chinese has no spaces between words: an error word written in it ("报错") is looked for
  // anywhere on the line, negated when a negation in it ends right before ("没有报错").
  for (const std::string& w : cjk_error_words_) {
    for (std::size_t at = line.find(w); at != std::string_view::npos; at = line.find(w, at + w.size())) {
      const std::string_view before = line.substr(0, at);
      const bool negated = std::any_of(cjk_negations_.begin(), cjk_negations_.end(),
                                       [&](const std::string& n) { return before.ends_with(n); });
      if (!negated) return true;
    }
  }
  std::string_view before2, before1;
  bool pending = false;  // the previous word was an error word whose next word decides
  std::size_t i = 0;
  while (i < line.size()) {
    if (!is_identifier_char(line[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < line.size() && is_identifier_char(line[j])) ++j;
    const std::string_view word = line.substr(i, j - i);
    i = j;
    if (pending) {
      if (!in(model_.negations, word)) return true;
      pending = false;
    }
    if (in(model_.error_words, word) && !in(model_.negations, before1) && !in(model_.negations, before2)) {
      pending = true;  // unless the next word negates it ("errors: 0")
    }
    before2 = before1;
    before1 = word;
  }
  return pending;
}

bool WordFallback::is_candidate(std::string_view line, LineLevel level) const {
  // A traceback's frames and underlines name files and code, not what went wrong: logged at
  // ERROR level line by line (vLLM's workers), their words read as "installation" (paths
  // of site-packages) whatever the failure was.
  if (is_traceback_scaffolding(line)) return false;
  if (level == LineLevel::error) return true;
  if (level != LineLevel::unknown) return false;  // the program logged it as info or a warning
  return is_exception_line(line) || (has_error_word(line) && !is_field_with_plain_value(line));
}

bool WordFallback::unclaimed(const std::vector<LineHit>& hits) {
  return std::all_of(hits.begin(), hits.end(), [](const LineHit& h) { return h.entry->role == Role::wrapper; });
}

WordPrediction WordFallback::predict(std::string_view line) const {
  return best_prediction(model_, line.substr(0, std::min(line.size(), kMaxTextBytes)));
}

std::optional<LineHit> WordFallback::classify(std::string_view line) const {
  const WordPrediction best = predict(line);
  if (best.category == Category::other || best.probability < model_.report_threshold) return std::nullopt;
  const Entry* entry = entries_[static_cast<std::size_t>(best.category)];
  if (entry == nullptr) return std::nullopt;
  LineHit hit;
  hit.entry = entry;
  hit.specificity = Specificity::words;
  hit.begin = 0;
  hit.end = line.size();
  hit.words = WordGuess{best.probability, model_.root_threshold};
  return hit;
}

}  // namespace npu_doctor
