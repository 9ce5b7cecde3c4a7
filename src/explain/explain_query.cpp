// `npu-doctor explain`: what a query names. A code or id as it is; anything else (a code
// pasted with its punctuation, a whole log line) is read the way the scanner reads a
// line, by the knowledge base's own matcher, so both always agree.
#include <algorithm>
#include <cctype>
#include <set>

#include "core/kb_matcher.hpp"
#include "explain.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A bare code or id: nothing for the line matcher to add.
bool plain_word(std::string_view q) {
  return std::all_of(q.begin(), q.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '.' || c == '-' || c == '#';
  });
}

// Ids, codes and names near `q` (edit distance, or containing it); for a code-like query
// with nothing near, the nearest codes whatever their distance.
std::vector<std::string> suggestions_for(const KnowledgeBase& kb, const std::string& q) {
  std::vector<std::pair<std::size_t, std::string>> near, codes;
  const std::string lq = lower(q);
  auto consider = [&](const std::string& candidate, bool is_code) {
    const std::string c = lower(candidate);
    const std::size_t d = edit_distance(lq, c);
    if (d <= std::max<std::size_t>(1, lq.size() / 3)) near.emplace_back(d, candidate);
    else if (lq.size() >= 3 && c.find(lq) != std::string::npos) near.emplace_back(10 + c.size() - lq.size(), candidate);
    if (is_code) codes.emplace_back(d, candidate);
  };
  for (const auto& e : kb.entries()) {
    consider(e.id, false);
    for (const auto& c : e.codes) consider(c, true);
    if (!e.name.empty()) consider(e.name, false);
  }
  const bool code_like = !q.empty() && std::all_of(q.begin(), q.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0;
  }) && std::any_of(q.begin(), q.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (near.empty() && code_like) near = codes;
  std::sort(near.begin(), near.end());
  std::vector<std::string> out;
  for (const auto& [d, s] : near) {
    if (!out.empty() && d > near.front().first + 1 && near.front().first >= 2) break;  // only the nearest ones
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
    if (out.size() == 8) break;
  }
  return out;
}

// "EI0002:", "(507035)", "'ERR00100'," -> the word inside the punctuation around it.
std::string_view strip_punctuation(std::string_view q) {
  auto edge = [](char c) { return std::ispunct(static_cast<unsigned char>(c)) != 0 && c != '_' && c != '#'; };
  while (!q.empty() && edge(q.front())) q.remove_prefix(1);
  while (!q.empty() && edge(q.back())) q.remove_suffix(1);
  return q;
}

}  // namespace

ExplainResult explain_query(const KnowledgeBase& kb, const std::string& query, const ExplainOptions& options) {
  ExplainResult r;
  r.query = query;
  std::string q(trim(query));
  if (q.empty()) return r;
  std::set<const Entry*> seen;
  std::vector<CodeResolution> families;
  auto add = [&](const Entry* e, Specificity s) {
    if (seen.count(e)) return;
    if (s == Specificity::code_family) {
      if (std::none_of(families.begin(), families.end(), [&](const CodeResolution& f) { return f.entry == e; })) {
        families.push_back({e, s});
      }
      return;
    }
    seen.insert(e);
    r.matches.push_back({e, s});
  };
  auto add_code = [&](std::string_view code) {
    for (const auto& m : kb.lookup_code(code)) add(m.entry, m.specificity);
  };
  auto lookup = [&](const std::string& word) {
    if (const Entry* e = kb.find_id(word)) add(e, Specificity::message);
    for (const auto& m : kb.lookup_code(word)) {
      if (m.specificity == Specificity::exact_code) add(m.entry, m.specificity);
    }
    const std::string lw = lower(word);
    for (const auto& e : kb.entries()) {
      if (!e.name.empty() && lower(e.name) == lw) add(&e, Specificity::exact_code);
    }
  };
  lookup(q);
  // A code pasted with the punctuation around it: the code.
  if (r.matches.empty()) {
    const std::string_view word = strip_punctuation(q);
    if (!word.empty() && word.size() < q.size() && plain_word(word)) {
      families.clear();
      q = std::string(word);
      r.read_as.push_back(q);
      lookup(q);
    }
  }
  add_code(q);

  // Not a bare code or id ("EI0002:", a plog line): read it as the scanner reads a line.
  if (r.matches.empty() && !plain_word(q) && options.read_lines) {
    std::vector<KbProblem> problems;
    if (const auto matcher = KbMatcher::build(kb, problems, options.cache_dir)) {
      for (const LineHit& hit : matcher->match_line(q)) {
        const std::string read = hit.code.empty() ? hit.entry->id : hit.code;
        if (std::find(r.read_as.begin(), r.read_as.end(), read) == r.read_as.end()) r.read_as.push_back(read);
        add(hit.entry, hit.specificity);
        if (!hit.code.empty()) add_code(hit.code);
      }
    }
  }
  // A family contradicts nothing only when there is no entry of the code's own: then it is
  // the answer; otherwise it is named as the family the code belongs to.
  if (r.matches.empty()) r.matches = families;
  else r.families = families;
  if (std::none_of(r.matches.begin(), r.matches.end(),
                   [](const CodeResolution& m) { return m.specificity != Specificity::code_family; })) {
    r.suggestions = suggestions_for(kb, q);
  }
  // What is printed, with its texts (a knowledge base loaded for explain keeps them in the snapshot).
  for (auto* list : {&r.matches, &r.families}) {
    for (auto& m : *list) m.entry = &kb.with_texts(*m.entry);
  }
  return r;
}

}  // namespace npu_doctor
