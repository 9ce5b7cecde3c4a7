#include "root_cause.hpp"

#include <algorithm>
#include <cstdlib>
#include <iterator>

namespace npu_doctor {
namespace {

// How close two findings must be to belong to one failure block.
constexpr uint64_t kBlockLines = 50;
constexpr int64_t kBlockMicros = 5'000'000;

bool eligible(const Finding& f) { return effective_severity(f) >= Severity::error; }

int role_rank(Role r) {
  switch (r) {
    case Role::cause: return 3;
    case Role::symptom: return 2;
    case Role::wrapper: return 1;
    case Role::hint: return 0;
  }
  return 0;
}

bool full_time(const Evidence& e) { return e.time && e.time->has_year; }

bool same_block(const Finding& a, const Finding& b) {
  const Evidence& x = a.first();
  const Evidence& y = b.first();
  if (x.input == y.input) {
    const uint64_t d = x.line > y.line ? x.line - y.line : y.line - x.line;
    if (d <= kBlockLines) return true;
  }
  if (full_time(x) && full_time(y)) return std::llabs(x.time->micros - y.time->micros) <= kBlockMicros;
  return false;
}

bool explains(const Entry& cause, const Entry& other) {
  return std::find(cause.explains.begin(), cause.explains.end(), other.id) != cause.explains.end();
}

bool symptom_of_category(const Entry& e, Category c) {
  return std::find(e.symptom_of.begin(), e.symptom_of.end(), c) != e.symptom_of.end();
}

}  // namespace

bool occurs_before(const Finding& a, const Finding& b) {
  const Evidence& x = a.first();
  const Evidence& y = b.first();
  if (x.input == y.input) return x.line < y.line;
  if (full_time(x) && full_time(y) && x.time->micros != y.time->micros) return x.time->micros < y.time->micros;
  return x.input < y.input;
}

std::optional<RootCauseDecision> choose_root_cause(std::vector<Finding>& findings, std::optional<std::size_t> forced) {
  for (auto& f : findings) {
    f.effective_role = f.entry->role;
    f.symptom_of.clear();
  }
  // The word fallback's guesses take part only when no entry found anything specific: no
  // error at all, or only generic envelopes (a bare Python exception, "the engine failed to
  // start": not a cause, and no category) whose message the words read. A guess below its
  // threshold is a warning, so not eligible at all.
  std::vector<std::size_t> errors;
  std::vector<std::size_t> guesses;
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (!eligible(findings[i]) || findings[i].entry->role == Role::hint) continue;
    (findings[i].words ? guesses : errors).push_back(i);
  }
  const bool only_envelopes = std::all_of(errors.begin(), errors.end(), [&](std::size_t i) {
    return findings[i].entry->role != Role::cause && findings[i].entry->category == Category::other;
  });
  const bool from_words = only_envelopes && !guesses.empty() && !forced;
  if (from_words) errors = guesses;
  if (errors.empty()) return std::nullopt;

  // Rule 3: demote findings that are symptoms of a category some cause has.
  std::vector<Role> roles(findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) roles[i] = findings[i].entry->role;
  for (std::size_t i : errors) {
    if (roles[i] != Role::cause) continue;
    const Entry& e = *findings[i].entry;
    const bool demoted = std::any_of(errors.begin(), errors.end(), [&](std::size_t j) {
      if (j == i || findings[j].entry->role != Role::cause) return false;
      const Entry& other = *findings[j].entry;
      return symptom_of_category(e, other.category) && !symptom_of_category(other, e.category);
    }) || std::any_of(errors.begin(), errors.end(), [&](std::size_t j) {
      return j != i && explains(*findings[j].entry, e);
    });
    if (demoted) roles[i] = Role::symptom;
  }

  int best_role = 0;
  for (std::size_t i : errors) best_role = std::max(best_role, role_rank(roles[i]));
  std::vector<std::size_t> cands;
  for (std::size_t i : errors) {
    if (role_rank(roles[i]) == best_role) cands.push_back(i);
  }
  // Exact codes decide over message matches, but generic codes (category "other" and a
  // negative priority in the knowledge base: ERR01001 "OPS invalid parameter", E-codes known
  // only by their module) must not hide a message that names a category: then the findings
  // that name one decide. A specific code whose category is "other" keeps deciding.
  std::vector<std::size_t> decisive;
  for (std::size_t i : cands) {
    if (findings[i].specificity >= Specificity::exact_code) decisive.push_back(i);
  }
  const auto names_category = [&](std::size_t i) { return findings[i].entry->category != Category::other; };
  const auto generic = [&](std::size_t i) { return !names_category(i) && findings[i].entry->priority < 0; };
  if (!decisive.empty() && std::all_of(decisive.begin(), decisive.end(), generic)) {
    std::vector<std::size_t> named;
    std::copy_if(cands.begin(), cands.end(), std::back_inserter(named), names_category);
    if (!named.empty()) decisive = std::move(named);
  }
  if (decisive.empty()) decisive = cands;

  // Rule 4: the earliest decisive finding opens the failure block.
  const std::size_t earliest = *std::min_element(decisive.begin(), decisive.end(), [&](std::size_t a, std::size_t b) {
    return occurs_before(findings[a], findings[b]);
  });
  std::vector<std::size_t> block;
  for (std::size_t i : decisive) {
    if (i == earliest || same_block(findings[earliest], findings[i])) block.push_back(i);
  }
  // Rule 5: a named category over "other", then the most specific in the block; among
  // equals the first link of the cascade, and the seed's category order only for errors
  // reported at the same moment.
  const std::size_t chosen = *std::min_element(block.begin(), block.end(), [&](std::size_t a, std::size_t b) {
    const Finding& x = findings[a];
    const Finding& y = findings[b];
    // A named layer says more than "other": a bare Python exception must not outrank the
    // HCCL or ACL code it wraps when both are only wrappers.
    const bool x_other = x.entry->category == Category::other;
    const bool y_other = y.entry->category == Category::other;
    if (x_other != y_other) return y_other;
    if (x.specificity != y.specificity) return x.specificity > y.specificity;
    if (x.entry->priority != y.entry->priority) return x.entry->priority > y.entry->priority;
    if (occurs_before(x, y)) return true;
    if (occurs_before(y, x)) return false;
    return category_priority(x.entry->category) < category_priority(y.entry->category);
  });

  RootCauseDecision d;
  d.finding = chosen;
  d.block_size = block.size();
  d.basis = from_words           ? RootCauseDecision::Basis::words
            : errors.size() == 1 ? RootCauseDecision::Basis::sole_error
            : block.size() > 1   ? RootCauseDecision::Basis::most_specific
                                 : RootCauseDecision::Basis::earliest_decisive;
  if (forced && *forced < findings.size()) {
    // The cross-rank analysis knows better than time order across unsynchronised hosts.
    d.finding = *forced;
    d.basis = RootCauseDecision::Basis::cluster_culprit;
    block = {*forced};
    d.block_size = 1;
  }

  // Rule 2: a hint that explains the chosen error becomes the root cause.
  for (std::size_t i = 0; i < findings.size() && !forced; ++i) {
    if (findings[i].entry->role == Role::hint && explains(*findings[i].entry, *findings[chosen].entry)) {
      d.explained = chosen;
      d.finding = i;
      d.basis = RootCauseDecision::Basis::explained_by_hint;
      break;
    }
  }

  const Finding& root = findings[d.finding];
  for (std::size_t i = 0; i < findings.size(); ++i) {
    findings[i].effective_role = roles[i];
    if (i == d.finding) {
      findings[i].effective_role = Role::cause;
      continue;
    }
    Finding& f = findings[i];
    // Other errors of the root's failure block are part of the same failure.
    const bool in_block = std::find(block.begin(), block.end(), i) != block.end() ||
                          (d.explained && same_block(findings[*d.explained], f));
    const bool follows = (d.explained && i == *d.explained) || explains(*root.entry, *f.entry) ||
                         symptom_of_category(*f.entry, root.entry->category) ||
                         roles[i] == Role::symptom || roles[i] == Role::wrapper || in_block;
    // Beside a recognised root cause, a guess from words is part of its failure when it is
    // in the same block, and otherwise only shown: never an independent error.
    const bool side_guess = f.words && !from_words;
    if (eligible(f) && (side_guess ? same_block(root, f) : follows)) {
      f.symptom_of = finding_key(root);
      if (f.effective_role == Role::cause) f.effective_role = Role::symptom;
      d.consequences.push_back(i);
    } else if (eligible(f) && f.entry->role != Role::hint && !side_guess) {
      d.independent.push_back(i);
    }
  }
  return d;
}

}  // namespace npu_doctor
