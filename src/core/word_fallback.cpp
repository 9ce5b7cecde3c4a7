#include "word_fallback.hpp"

#include <algorithm>

namespace npu_doctor {
namespace {

constexpr std::size_t kCategories = static_cast<std::size_t>(Category::other) + 1;

bool is_word_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

std::string regex_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!is_word_char(c)) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

bool is_exception_line(std::string_view line) {
  for (std::string_view suffix : {std::string_view("Error:"), std::string_view("Exception:")}) {
    for (std::size_t pos = line.find(suffix); pos != std::string_view::npos; pos = line.find(suffix, pos + 1)) {
      // Something must follow: "except RuntimeError:" in a traceback's source line is no message.
      std::size_t after = pos + suffix.size();
      while (after < line.size() && (line[after] == ' ' || line[after] == '\t')) ++after;
      if (after >= line.size()) continue;
      // The class name: "RuntimeError", "torch.OutOfMemoryError", "Error".
      std::size_t start = pos;
      while (start > 0 && (is_word_char(line[start - 1]) || line[start - 1] == '.')) --start;
      if (start >= 7 && line.substr(start - 7, 7) == "except ") continue;
      return true;
    }
  }
  return false;
}

std::unique_ptr<WordFallback> WordFallback::create(const KnowledgeBase& kb, std::string_view model_bytes) {
  auto model = read_word_model(model_bytes);
  if (!model || model->classes.empty()) return nullptr;
  auto fallback = std::make_unique<WordFallback>(kb, std::move(*model));
  const bool any = std::any_of(fallback->entries_.begin(), fallback->entries_.end(), [](const Entry* e) { return e != nullptr; });
  return any ? std::move(fallback) : nullptr;
}

WordFallback::WordFallback(const KnowledgeBase& kb, WordModel model) : model_(std::move(model)) {
  for (std::size_t c = 0; c < kCategories; ++c) {
    entries_[c] = kb.find_id("words." + std::string(to_string(static_cast<Category>(c))));
  }
}

std::vector<MatchPattern> WordFallback::gate_patterns() const {
  std::vector<MatchPattern> out;
  if (!model_.error_words.empty()) {
    std::string words;
    for (const auto& w : model_.error_words) words += (words.empty() ? "" : "|") + regex_escape(w);
    out.push_back({"\\b(?:" + words + ")\\b", true});
  }
  out.push_back({"(?:Error|Exception):", false});
  return out;
}

bool WordFallback::has_error_word(std::string_view line) const {
  std::vector<std::string> words;
  std::string word;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i < line.size() && is_word_char(line[i])) {
      word += lower(line[i]);
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  auto in = [](const std::vector<std::string>& list, const std::string& w) {
    return std::find(list.begin(), list.end(), w) != list.end();
  };
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (!in(model_.error_words, words[i])) continue;
    const bool negated = (i >= 1 && in(model_.negations, words[i - 1])) || (i >= 2 && in(model_.negations, words[i - 2])) ||
                         (i + 1 < words.size() && in(model_.negations, words[i + 1]));
    if (!negated) return true;
  }
  return false;
}

bool WordFallback::is_candidate(std::string_view line, LineLevel level) const {
  if (level == LineLevel::error) return true;
  if (level != LineLevel::unknown) return false;  // the program logged it as info or a warning
  return is_exception_line(line) || has_error_word(line);
}

bool WordFallback::unclaimed(const std::vector<LineHit>& hits) {
  return std::all_of(hits.begin(), hits.end(), [](const LineHit& h) { return h.entry->role == Role::wrapper; });
}

std::optional<LineHit> WordFallback::classify(std::string_view line) const {
  const WordPrediction best = best_prediction(model_, line.substr(0, std::min(line.size(), kMaxTextBytes)));
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
