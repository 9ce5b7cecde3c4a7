// Many node summaries -> one cluster report. Findings merge exactly as a multi-file scan
// merges them (by entry and code, evidence in input order), so `npu-doctor merge` of
// per-node summaries and one `diagnose` over all the logs name the same root cause.
#include <algorithm>
#include <limits>
#include <set>

#include "core/finding_collector.hpp"
#include "node_summary.hpp"
#include "npu_doctor/kb_ids.hpp"

namespace npu_doctor {
namespace {

std::string node_name(const NodeSummary& n) {
  return n.host.empty() ? "node " + std::to_string(n.node) : n.host;
}

// Facts that must agree across nodes: versions. Counts and paths legitimately differ.
bool compared_fact(const std::string& key) {
  return key.ends_with("_version") || key == "npu_name";
}

std::vector<Finding> version_mismatches(const std::vector<NodeSummary>& nodes, const KnowledgeBase& kb) {
  std::vector<Finding> out;
  const Entry& entry = kb.entry(kb_id::cluster::node_version_mismatch);
  std::set<std::string> keys;
  for (const auto& n : nodes) {
    for (const auto& [k, v] : n.facts) {
      if (compared_fact(k)) keys.insert(k);
    }
  }
  for (const auto& key : keys) {
    std::map<std::string, std::vector<std::string>> hosts_by_value;
    for (const auto& n : nodes) {
      const auto it = n.facts.find(key);
      if (it != n.facts.end() && !it->second.empty()) hosts_by_value[it->second].push_back(node_name(n));
    }
    if (hosts_by_value.size() < 2) continue;
    Evidence ev;
    ev.path = "(environment check of every node)";
    ev.text = key + ":";
    std::string values;
    for (const auto& [value, hosts] : hosts_by_value) {
      ev.text += " " + value + " on";
      for (std::size_t i = 0; i < hosts.size() && i < 8; ++i) ev.text += (i ? ", " : " ") + hosts[i];
      if (hosts.size() > 8) ev.text += " and " + std::to_string(hosts.size() - 8) + " more";
      ev.text += ";";
      values += (values.empty() ? "" : ", ") + value;
    }
    ev.text.pop_back();
    ev.captures = {{"fact", key}, {"values", values}};
    out.push_back(make_finding(entry, std::move(ev), key));
  }
  return out;
}

Finding unscanned_node(const Entry& entry, const NodeSummary& n) {
  Evidence ev;
  ev.path = node_name(n);
  ev.text = node_name(n) + " (node " + std::to_string(n.node) + "): " +
            std::string(n.status == NodeSummary::Status::timeout ? "timed out" : "failed") +
            (n.note.empty() ? "" : ": " + n.note);
  ev.captures = {{"host", n.host}, {"status", std::string(to_string(n.status))}};
  return make_finding(entry, std::move(ev), n.host.empty() ? std::to_string(n.node) : n.host);
}

}  // namespace

DiagnosisReport merge_node_summaries(std::vector<NodeSummary> nodes, const KnowledgeBase& kb,
                                     const MergeOptions& options) {
  std::stable_sort(nodes.begin(), nodes.end(), [](const NodeSummary& a, const NodeSummary& b) { return a.node < b.node; });
  DiagnosisReport report;
  report.kb_version = kb.version();
  report.kb_entries = kb.entry_count();

  FindingCollector all(std::max<std::size_t>(1, options.max_evidence));
  std::vector<Finding> environment;  // not tied to a log input: appended after the log findings
  const Entry& unscanned = kb.entry(kb_id::cluster::node_unscanned);
  std::size_t inputs = 0;
  for (const auto& n : nodes) inputs += n.inputs.size();
  for (auto& n : nodes) {
    if (!n.kb_version.empty() && n.kb_version != report.kb_version) {
      report.warnings.push_back(node_name(n) + " used knowledge base " + n.kb_version + ", this one is " +
                                report.kb_version + ": findings of entries unknown here are left out");
    }
    const std::size_t offset = report.inputs.size();
    const InternedString host(n.host);
    auto with_host = [&](InputReport& in) {
      if (!in.host.empty()) return false;
      in.host = host;
      return true;
    };
    if (report.inputs.empty()) {
      // The first node's inputs are taken whole (one node: the only copy of 100,000 inputs).
      report.inputs = std::move(n.inputs);
      report.inputs.update_each(with_host);
      report.inputs.reserve(inputs);
    } else {
      for (InputReport in : n.inputs) {
        with_host(in);
        report.inputs.push_back(in);
      }
    }
    InputStore().swap(n.inputs);  // copied or moved: free them now
    for (auto& f : n.findings) {
      for (auto& e : f.evidence) e.input += offset;
    }
    all.merge(std::move(n.findings));
    for (auto& f : n.check_findings) {
      for (auto& e : f.evidence) e.path = node_name(n) + ":" + e.path;
      environment.push_back(std::move(f));
    }
    if (n.status != NodeSummary::Status::ok) environment.push_back(unscanned_node(unscanned, n));
  }
  for (auto& f : version_mismatches(nodes, kb)) environment.push_back(std::move(f));
  // Environment findings point at no input: give them the index past the last one.
  for (auto& f : environment) {
    for (auto& e : f.evidence) e.input = report.inputs.size();
  }
  all.merge(std::move(environment));
  report.findings = all.take();
  conclude_diagnosis(report, kb, options.cluster, options.expected.get());
  return report;
}

}  // namespace npu_doctor
