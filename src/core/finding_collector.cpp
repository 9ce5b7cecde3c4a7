#include "finding_collector.hpp"

#include <algorithm>
#include <cstdio>

namespace npu_doctor {

std::string finding_key(const Finding& f) {
  if (f.entry->codes.empty() && !f.code.empty()) return f.entry->id + "#" + f.code;
  return f.entry->id;
}

Finding make_finding(const Entry& entry, Evidence evidence, std::string code) {
  Finding f;
  f.entry = &entry;
  f.code = code.empty() && !entry.codes.empty() ? entry.codes.front() : std::move(code);
  f.specificity = Specificity::message;
  f.count = 1;
  f.only_on_low_level_lines = false;
  f.evidence.push_back(std::move(evidence));
  return f;
}

std::string with_captures(std::string text, const Finding& f) {
  if (f.evidence.empty() || f.first().captures.empty() || text.find('{') == std::string::npos) return text;
  for (const auto& [name, value] : f.first().captures) {
    if (value.empty()) continue;
    const std::string placeholder = "{" + name + "}";
    for (auto at = text.find(placeholder); at != std::string::npos; at = text.find(placeholder, at + value.size())) {
      text.replace(at, placeholder.size(), value);
    }
  }
  return text;
}

std::string finding_cause(const Finding& f, Lang lang) { return with_captures(f.entry->cause_text().get(lang), f); }

std::vector<std::string> finding_remedies(const Finding& f, Lang lang) {
  std::vector<std::string> out;
  for (const auto& r : f.entry->remedy_texts()) out.push_back(with_captures(r.get(lang), f));
  return out;
}

std::string finding_title(const Finding& f, Lang lang) {
  std::string t = with_captures(f.entry->title.get(lang), f);
  if (f.words) {
    char p[16];
    std::snprintf(p, sizeof p, "%.2f", f.words->probability);
    t += std::string(" (p = ") + p + ")";
  }
  return t;
}

Severity effective_severity(const Finding& f) {
  const Severity s = f.entry->severity;
  if (f.expected) return std::min(s, Severity::info);
  if (f.words && !f.words->confident() && s >= Severity::warning) return Severity::warning;
  if (s >= Severity::error && f.only_on_low_level_lines && !f.entry->any_level) return Severity::warning;
  return s;
}

std::optional<FindingCollector::Slot> FindingCollector::record(const LineHit& hit, LineLevel level) {
  Finding probe;
  probe.entry = hit.entry;
  probe.code = hit.code;
  const std::string key = finding_key(probe);
  auto [it, inserted] = index_.emplace(key, findings_.size());
  if (inserted) {
    probe.specificity = hit.specificity;
    probe.words = hit.words;
    findings_.push_back(std::move(probe));
  }
  Finding& f = findings_[it->second];
  ++f.count;
  if (level == LineLevel::unknown || level == LineLevel::error) f.only_on_low_level_lines = false;
  if (f.evidence.size() >= max_evidence_) return std::nullopt;
  f.evidence.emplace_back();
  return Slot{it->second, f.evidence.size() - 1};
}

void FindingCollector::offset_inputs(std::size_t offset) {
  for (auto& f : findings_) {
    for (auto& e : f.evidence) e.input += offset;
  }
}

void FindingCollector::merge(FindingCollector&& later) {
  merge(std::move(later.findings_));
  later.findings_.clear();
  later.index_.clear();
}

void FindingCollector::merge(std::vector<Finding>&& later) {
  for (auto& f : later) {
    auto [it, inserted] = index_.emplace(finding_key(f), findings_.size());
    if (inserted) {
      findings_.push_back(std::move(f));
      continue;
    }
    Finding& mine = findings_[it->second];
    mine.count += f.count;
    mine.only_on_low_level_lines = mine.only_on_low_level_lines && f.only_on_low_level_lines;
    for (auto& e : f.evidence) {
      if (mine.evidence.size() >= max_evidence_) break;
      mine.evidence.push_back(std::move(e));
    }
  }
  later.clear();
}

}  // namespace npu_doctor
