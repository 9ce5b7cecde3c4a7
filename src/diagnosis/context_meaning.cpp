// Meaning from context (kb-schema.md, `context:`, `recovers:` and `passes_run:`): a finding
// whose first occurrence has a neighbouring line that one of its entry's context rules names
// is read as the entry the rule means; a failure that a later line of its input shows was
// overcome, or was a passing test run's own, is read as that line's entry. Done before the
// root cause is chosen, so the cause reasoning, the category and the texts are the contextual
// meaning's.
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

// The last line of `f`'s kept evidence in `input` (0: none there).
std::size_t last_line_in(const Finding& f, std::size_t input) {
  std::size_t last = 0;
  for (const auto& ev : f.evidence) {
    if (ev.input == input) last = std::max(last, ev.line);
  }
  return last;
}

// The finding whose entry `recovers` f's entry and which occurs in f's input after every
// occurrence of f kept there: the run overcame the failure (a fallback took over).
const Finding* recovery_of(const Finding& f, const std::vector<Finding>& findings) {
  const std::size_t input = f.first().input;
  const std::size_t failed_last = last_line_in(f, input);
  for (const auto& r : findings) {
    if (&r == &f || r.entry == nullptr || r.entry->recovers.empty()) continue;
    if (std::find(r.entry->recovers.begin(), r.entry->recovers.end(), f.entry->id) == r.entry->recovers.end()) continue;
    const bool later = std::any_of(r.evidence.begin(), r.evidence.end(),
                                   [&](const Evidence& ev) { return ev.input == input && ev.line > failed_last; });
    if (later) return &r;
  }
  return nullptr;
}

// A test runner's passing summary (`passes_run`) and the line it is on.
struct PassingSummary {
  const Entry* entry = nullptr;
  std::size_t line = 0;
};

// Per input, its last passing summary, when no failure at error level follows it there,
// every such failure's occurrences are known (gtest lists its failed tests after the
// "[  PASSED  ] N tests." count; a crash after the tests is a failure of the run), and no
// runner's line says a test failed anywhere in it (`fails_run`: an excerpt of per-test
// "[       OK ]" lines may hold a "[  FAILED  ]" one before the last of them). Empty
// when no run passed. Computed once: every failure of an input is judged against it.
std::map<std::size_t, PassingSummary> passing_summaries(const std::vector<Finding>& findings) {
  std::map<std::size_t, PassingSummary> by_input;
  for (const auto& r : findings) {
    if (r.entry == nullptr || !r.entry->passes_run) continue;
    for (const auto& ev : r.evidence) {
      PassingSummary& s = by_input[ev.input];
      if (ev.line > s.line) s = {r.entry, ev.line};
    }
  }
  for (const auto& g : findings) {
    if (by_input.empty()) break;
    if (g.entry == nullptr || g.entry->passes_run || effective_severity(g) < Severity::error) continue;
    for (const auto& ev : g.evidence) {
      const auto it = by_input.find(ev.input);
      // Occurrences not kept could lie after the summary.
      if (it == by_input.end()) continue;
      if (g.entry->fails_run || g.count != g.evidence.size() || ev.line > it->second.line) by_input.erase(it);
    }
  }
  return by_input;
}

// The summary's entry when `f` is a passing test run's own, expected failure (a negative test
// printing the error it provokes, under gtest's "[       OK ]"): every occurrence of it is
// known and lies in one input before that input's passing summary. Else nullptr.
const Entry* passing_run_of(const Finding& f, const std::map<std::size_t, PassingSummary>& summaries) {
  if (f.entry->passes_run || f.count != f.evidence.size() || effective_severity(f) < Severity::error) return nullptr;
  const auto it = summaries.find(f.first().input);
  if (it == summaries.end()) return nullptr;
  const auto before_summary = [&](const Evidence& ev) { return ev.input == it->first && ev.line < it->second.line; };
  return std::all_of(f.evidence.begin(), f.evidence.end(), before_summary) ? it->second.entry : nullptr;
}

// A wrapper (Python's generic exception line, "call ... failed") on the very lines where a
// specific finding was just read as benign (a failure a fallback overcame, an engine that
// exited after its own shutdown), or heading the traceback such a line ends ("AsyncLLM
// output_handler failed." above vLLM's EngineDeadError at shutdown), says nothing more than
// that finding: it is read the same way. Only when every occurrence of the wrapper was kept
// as evidence, so all are known.
bool read_wrappers_as_their_line(std::vector<Finding>& findings) {
  std::map<std::pair<std::size_t, std::size_t>, const Entry*> benign_lines;
  for (const auto& f : findings) {
    if (f.read_from == nullptr || f.entry->severity >= Severity::error) continue;
    for (const auto& ev : f.evidence) {
      benign_lines[{ev.input, ev.line}] = f.entry;
      if (ev.traceback_header_line != 0) benign_lines[{ev.input, ev.traceback_header_line}] = f.entry;
    }
  }
  if (benign_lines.empty()) return false;
  bool changed = false;
  for (auto& f : findings) {
    if (f.entry == nullptr || f.entry->role != Role::wrapper || f.read_from != nullptr || f.evidence.empty() ||
        f.count != f.evidence.size()) {
      continue;
    }
    const Entry* meaning = nullptr;
    for (const auto& ev : f.evidence) {
      const auto it = benign_lines.find({ev.input, ev.line});
      meaning = it == benign_lines.end() ? nullptr : it->second;
      if (meaning == nullptr) break;
    }
    if (meaning == nullptr) continue;
    f.read_from = f.entry;
    f.entry = meaning;
    changed = true;
  }
  return changed;
}

}  // namespace

void apply_context_meanings(std::vector<Finding>& findings, const KnowledgeBase& kb, std::size_t max_evidence) {
  bool changed = false;
  // A failure a later line shows was overcome, or a passing test run shows was a test's own,
  // is read as that line's entry (a hint: never a root cause), so a run that fell back and
  // went on, or whose tests passed, keeps no false root cause. Decided for every finding
  // before any is re-read, so a re-read failure never stands as a recovery.
  std::vector<const Entry*> recovered_as(findings.size(), nullptr);
  const auto summaries = passing_summaries(findings);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (f.entry == nullptr || f.evidence.empty()) continue;
    if (const Finding* r = recovery_of(f, findings)) recovered_as[i] = r->entry;
    else if (const Entry* summary = passing_run_of(f, summaries)) recovered_as[i] = summary;
  }
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (recovered_as[i] == nullptr) continue;
    findings[i].read_from = findings[i].entry;
    findings[i].entry = recovered_as[i];
    findings[i].words.reset();  // a word guess read as the hint is the hint, not a guess
    changed = true;
  }
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
  changed = read_wrappers_as_their_line(findings) || changed;
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

void trim_context(std::vector<Finding>& findings, std::size_t before, std::size_t after) {
  for (auto& f : findings) {
    for (auto& ev : f.evidence) {
      if (ev.before.size() > before) ev.before.erase(ev.before.begin(), ev.before.end() - static_cast<std::ptrdiff_t>(before));
      if (ev.after.size() > after) ev.after.erase(ev.after.begin() + static_cast<std::ptrdiff_t>(after), ev.after.end());
    }
  }
}

}  // namespace npu_doctor
