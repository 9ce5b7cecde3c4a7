#include "report_text.hpp"

#include <algorithm>

#include "npu_doctor/text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::render_detail {

std::vector<std::size_t> presentation_order(const std::vector<Finding>& findings,
                                            const std::optional<RootCauseDecision>& root_decision) {
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < findings.size(); ++i) order.push_back(i);
  const std::size_t root = root_decision ? root_decision->finding : findings.size();
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if ((a == root) != (b == root)) return a == root;
    return category_priority(findings[a].entry->category) < category_priority(findings[b].entry->category);
  });
  return order;
}

std::vector<std::size_t> presentation_order(const DiagnosisReport& r) { return presentation_order(r.findings, r.root); }

bool in_shown_incident(const DiagnosisReport& r, std::size_t index) {
  if (r.incidents.empty() || r.shown >= r.incidents.size()) return true;
  return r.incidents[r.shown].incident.inputs.contains(static_cast<uint32_t>(index));
}

std::string_view basis_name(RootCauseDecision::Basis b) {
  switch (b) {
    case RootCauseDecision::Basis::sole_error: return "sole_error";
    case RootCauseDecision::Basis::earliest_decisive: return "earliest_decisive";
    case RootCauseDecision::Basis::most_specific: return "most_specific";
    case RootCauseDecision::Basis::explained_by_hint: return "explained_by_hint";
    case RootCauseDecision::Basis::cluster_culprit: return "cluster_culprit";
    case RootCauseDecision::Basis::oom_classified: return "oom_classified";
    case RootCauseDecision::Basis::words: return "words";
  }
  return "sole_error";
}

Relation relation_of(const std::optional<RootCauseDecision>& root, std::size_t index) {
  if (!root) return Relation::context;
  auto in = [&](const std::vector<std::size_t>& v) { return std::find(v.begin(), v.end(), index) != v.end(); };
  if (index == root->finding || in(root->same_line)) return Relation::root_cause;
  if (in(root->consequences) || (root->explained && *root->explained == index)) return Relation::symptom;
  if (in(root->independent)) return Relation::independent;
  return Relation::context;
}

std::string_view to_string(Relation r) {
  switch (r) {
    case Relation::root_cause: return "root_cause";
    case Relation::symptom: return "symptom";
    case Relation::independent: return "independent";
    case Relation::context: return "context";
  }
  return "context";
}

std::optional<PeerWait> peer_wait(const std::vector<Finding>& findings, const InputStore& inputs,
                                  const Finding& f) {
  auto peer_on = [](const Evidence& e) -> std::optional<int> {
    for (const auto& [k, v] : e.captures) {
      if (k == "peer_rank") return parse_number<int>(v);
    }
    return std::nullopt;
  };
  for (const Evidence& mine : f.evidence) {
    std::optional<int> peer = peer_on(mine);
    for (const Finding& other : findings) {
      if (peer) break;
      for (const Evidence& e : other.evidence) {
        if (e.input == mine.input && e.line == mine.line && (peer = peer_on(e))) break;
      }
    }
    if (!peer) continue;
    PeerWait w;
    w.peer = *peer;
    w.rank = mine.rank;
    if (!w.rank && mine.input < inputs.size()) w.rank = inputs[mine.input].rank;
    return w;
  }
  return std::nullopt;
}

PathNames::PathNames(const InputStore& inputs) {
  // The longest prefix that every path shares, then cut back to its last '/' or ':'.
  std::optional<std::string> shared;
  for (const auto& in : inputs) {
    if (in.kind == "path" || in.kind == "stdin") continue;
    if (!shared) {
      shared = in.path;
      continue;
    }
    std::size_t n = 0;
    while (n < shared->size() && n < in.path.size() && (*shared)[n] == in.path[n]) ++n;
    shared->resize(n);
  }
  if (!shared) return;
  const auto cut = shared->find_last_of("/:");
  if (cut == std::string::npos) return;
  common_ = shared->substr(0, cut + 1);
}

std::string PathNames::shorten(const std::string& path) const {
  if (!common_.empty() && path.size() > common_.size() && path.compare(0, common_.size(), common_) == 0) {
    return path.substr(common_.size());
  }
  return path;
}

std::string expected_note(const Finding& f, Lang lang) {
  return f.expected ? ui::text(ui::Key::report_expected_because, lang, fmt::arg("reason", f.expected->reason)) : std::string();
}

}  // namespace npu_doctor::render_detail
