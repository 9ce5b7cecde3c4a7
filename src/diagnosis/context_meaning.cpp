// Meaning from context (kb-schema.md, `context:`): a finding whose first occurrence has a
// neighbouring line that one of its entry's context rules names is read as the entry the
// rule means. Done before the root cause is chosen, so the cause reasoning, the category
// and the texts are the contextual meaning's.
#include "context_meaning.hpp"

#include <algorithm>
#include <map>

#include "core/regex.hpp"

namespace npu_doctor {
namespace {

bool near(const Regex& re, const Evidence& ev) {
  if (re.search(ev.text)) return true;
  auto any = [&](const std::vector<ContextLine>& lines) {
    return std::any_of(lines.begin(), lines.end(), [&](const ContextLine& c) { return re.search(c.text).has_value(); });
  };
  return any(ev.before) || any(ev.after);
}

}  // namespace

void apply_context_meanings(std::vector<Finding>& findings, const KnowledgeBase& kb, std::size_t max_evidence) {
  bool changed = false;
  for (auto& f : findings) {
    if (f.entry == nullptr || f.entry->context.empty() || f.evidence.empty()) continue;
    for (const auto& rule : f.entry->context) {
      std::string error;
      const auto re = Regex::compile(rule.near.regex, rule.near.ignore_case, error);
      if (!re || !near(*re, f.first())) continue;
      if (const Entry* meaning = kb.find_id(rule.means); meaning != nullptr && meaning != f.entry) {
        f.read_from = f.entry;
        f.entry = meaning;
        f.specificity = std::max(f.specificity, Specificity::exact_code);  // the context makes it specific
        changed = true;
      }
      break;
    }
  }
  if (!changed) return;
  // Two findings can now be one (the meaning was also found by itself): merge them.
  std::map<std::string, std::size_t> first_of;
  std::vector<Finding> merged;
  for (auto& f : findings) {
    auto [it, inserted] = first_of.emplace(finding_key(f), merged.size());
    if (inserted) {
      merged.push_back(std::move(f));
      continue;
    }
    Finding& into = merged[it->second];
    into.count += f.count;
    into.only_on_low_level_lines = into.only_on_low_level_lines && f.only_on_low_level_lines;
    if (into.read_from == nullptr) into.read_from = f.read_from;
    for (auto& e : f.evidence) into.evidence.push_back(std::move(e));
    std::stable_sort(into.evidence.begin(), into.evidence.end(), [](const Evidence& a, const Evidence& b) {
      return std::pair(a.input, a.line) < std::pair(b.input, b.line);
    });
    if (into.evidence.size() > max_evidence) into.evidence.resize(max_evidence);
  }
  findings = std::move(merged);
}

}  // namespace npu_doctor
