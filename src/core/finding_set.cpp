#include "core/finding_set.hpp"

#include <algorithm>

#include "npu_doctor/text.hpp"

namespace npu_doctor {

void FindingSet::add(EntryId id, Evidence evidence) {
  for (auto& f : findings_) {
    if (id == f.entry->id) {
      ++f.count;
      if (f.evidence.size() < max_evidence_) f.evidence.push_back(std::move(evidence));
      return;
    }
  }
  findings_.push_back(make_finding(kb_.entry(id), std::move(evidence)));
}

std::vector<Finding> FindingSet::take_worst_first() {
  std::vector<Finding> out = take();
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return effective_severity(a) > effective_severity(b); });
  return out;
}

bool FindingSet::has(EntryId id) const {
  return std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) { return id == f.entry->id; });
}

Evidence evidence_at(std::string path, std::size_t line, std::string text,
                     std::vector<std::pair<std::string, std::string>> captures) {
  Evidence e;
  e.path = std::move(path);
  e.line = line;
  e.text = sanitize_line(utf8_prefix(text, 2048));
  e.captures = std::move(captures);
  return e;
}

std::optional<Severity> worst_severity(const std::vector<Finding>& findings) {
  std::optional<Severity> worst;
  for (const auto& f : findings) {
    const Severity s = effective_severity(f);
    if (!worst || s > *worst) worst = s;
  }
  return worst;
}

int exit_status_for(const std::vector<Finding>& findings) {
  const auto worst = worst_severity(findings);
  return worst && *worst >= Severity::warning ? 1 : 0;
}

}  // namespace npu_doctor
