#include "analyzers/hccl/finding_set.hpp"

#include <algorithm>

#include "npu_doctor/text.hpp"

namespace npu_doctor::hccl {

void FindingSet::add(std::string_view id, Evidence evidence) {
  for (auto& f : findings_) {
    if (f.entry->id == id) {
      ++f.count;
      if (f.evidence.size() < max_evidence_) f.evidence.push_back(std::move(evidence));
      return;
    }
  }
  const Entry* entry = kb_.find_id(id);
  if (entry == nullptr) {
    const std::string msg = "knowledge-base entry '" + std::string(id) + "' is missing";
    if (std::find(internal_errors_.begin(), internal_errors_.end(), msg) == internal_errors_.end()) {
      internal_errors_.push_back(msg);
    }
    return;
  }
  findings_.push_back(make_finding(*entry, std::move(evidence)));
}

std::vector<Finding> FindingSet::take_worst_first() {
  std::vector<Finding> out = take();
  std::stable_sort(out.begin(), out.end(),
                   [](const Finding& a, const Finding& b) { return effective_severity(a) > effective_severity(b); });
  return out;
}

bool FindingSet::has(std::string_view id) const {
  return std::any_of(findings_.begin(), findings_.end(), [&](const Finding& f) { return f.entry->id == id; });
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

}  // namespace npu_doctor::hccl
