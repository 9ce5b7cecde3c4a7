// The relations choose_root_cause cannot see from one finding's entry (root_cause.hpp):
// an out-of-memory line's numbers, the culprit rank's own failure, the root's own lines.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "memory/oom_classifier.hpp"
#include "root_cause.hpp"

namespace npu_doctor {
namespace {

constexpr int64_t kSameMomentMicros = 5'000'000;  // as a failure block in root_cause.cpp

bool contains(const std::vector<std::size_t>& v, std::size_t i) { return std::find(v.begin(), v.end(), i) != v.end(); }

void erase(std::vector<std::size_t>& v, std::size_t i) { v.erase(std::remove(v.begin(), v.end(), i), v.end()); }

void make_consequence(std::vector<Finding>& findings, RootCauseDecision& d, std::size_t i) {
  Finding& f = findings[i];
  f.symptom_of = finding_key(findings[d.finding]);
  if (f.effective_role == Role::cause) f.effective_role = Role::symptom;
  erase(d.independent, i);
  if (!contains(d.consequences, i)) d.consequences.push_back(i);
}

// `mem analyze`'s classifier on the allocator's numbers of an out-of-memory line (total,
// reserved, free, allocated, requested): memory held outside the allocator, or a cache
// gap that could have held the request. The verdict, a finding on that line, becomes the
// root cause; the out-of-memory finding is what it explains.
void classify_oom(std::vector<Finding>& findings, RootCauseDecision& d, const KnowledgeBase& kb) {
  if (d.basis == RootCauseDecision::Basis::explained_by_hint) return;
  std::vector<std::size_t> candidates{d.finding};
  for (std::size_t i : d.consequences) candidates.push_back(i);
  for (std::size_t i : candidates) {
    const Finding& f = findings[i];
    if (f.entry->category != Category::memory || effective_severity(f) < Severity::error) continue;
    for (const Evidence& e : f.evidence) {
      const mem::OomEvent event = mem::oom_event_from(f, e);
      const mem::OomVerdict v = mem::classify_oom(event, nullptr, mem::MemAnalyzeOptions{});
      if (!v.rule) continue;
      const Entry& entry = kb.entry(*v.rule);
      Evidence ev = e;
      ev.captures.emplace_back("classified_by", v.basis);
      ev.captures.emplace_back("oom_rule", f.entry->id);
      const std::size_t old_root = d.finding;
      findings.push_back(make_finding(entry, std::move(ev)));
      findings.back().effective_role = Role::cause;
      d.finding = findings.size() - 1;
      d.explained = i;
      d.basis = RootCauseDecision::Basis::oom_classified;
      d.block_size = 1;
      for (std::size_t c : d.consequences) findings[c].symptom_of = finding_key(findings[d.finding]);
      make_consequence(findings, d, old_root);
      if (i != old_root) make_consequence(findings, d, i);
      return;
    }
  }
}

// The culprit rank failed once: its other errors of that moment (the retCode line, the
// runtime's error code, the torch_npu wrapper) are that failure, not independent errors.
void attach_culprit_failure(std::vector<Finding>& findings, RootCauseDecision& d,
                            const InputStore& inputs, const std::optional<ClusterDecision>& cluster) {
  if (d.basis != RootCauseDecision::Basis::cluster_culprit || !cluster || !cluster->culprit) return;
  const int rank = cluster->culprit->rank;
  const Evidence& root = findings[d.finding].first();
  const bool root_dated = root.time && root.time->has_year;
  for (std::size_t i : std::vector<std::size_t>(d.independent)) {
    const bool same_failure = std::any_of(findings[i].evidence.begin(), findings[i].evidence.end(), [&](const Evidence& e) {
      if (e.input >= inputs.size() || inputs[e.input].rank != rank) return false;
      const bool dated = e.time && e.time->has_year;
      return !dated || !root_dated || std::llabs(e.time->micros - root.time->micros) <= kSameMomentMicros;
    });
    if (same_failure) make_consequence(findings, d, i);
  }
}

// An error read from one of the root cause's own evidence lines (a driver return code on
// the line whose message is the root cause) is part of the root cause, not its symptom.
void separate_same_line(std::vector<Finding>& findings, RootCauseDecision& d) {
  std::set<std::pair<std::size_t, uint64_t>> own;
  for (const Evidence& e : findings[d.finding].evidence) own.emplace(e.input, e.line);
  for (std::size_t i = 0; i < findings.size(); ++i) {
    if (i == d.finding || (!contains(d.consequences, i) && !contains(d.independent, i))) continue;
    const Evidence& first = findings[i].first();
    if (!own.count({first.input, first.line})) continue;
    erase(d.consequences, i);
    erase(d.independent, i);
    findings[i].symptom_of.clear();
    findings[i].effective_role = findings[i].entry->role;
    d.same_line.push_back(i);
  }
}

}  // namespace

void settle_relations(std::vector<Finding>& findings, RootCauseDecision& decision,
                      const InputStore& inputs, const std::optional<ClusterDecision>& cluster,
                      const KnowledgeBase& kb) {
  attach_culprit_failure(findings, decision, inputs, cluster);
  classify_oom(findings, decision, kb);
  separate_same_line(findings, decision);
}

}  // namespace npu_doctor
