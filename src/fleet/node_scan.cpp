#include "fleet/node_scan.hpp"

#include <unistd.h>

#include <chrono>

namespace npu_doctor {

std::string expand_node_placeholders(std::string_view pattern, const std::string& host, int node) {
  std::string out;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const std::string_view rest = pattern.substr(i);
    if (rest.starts_with("{hostname}")) {
      out += host;
      i += 9;
    } else if (rest.starts_with("{rank}")) {
      out += std::to_string(node);
      i += 5;
    } else if (rest.starts_with("{{") || rest.starts_with("}}")) {
      out += pattern[i];
      i += 1;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

std::string local_hostname() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0 || name[0] == '\0') return "localhost";
  return name;
}

NodeSummary scan_node(const Diagnoser& diagnoser, const DiagnoseOptions& options, const std::string& host, int node,
                      const std::string& kb_version) {
  const auto start = std::chrono::steady_clock::now();
  NodeSummary s;
  s.host = host;
  s.node = node;
  s.kb_version = kb_version;
  if (!options.paths.empty()) {
    DiagnosisReport report = diagnoser.run(options);
    if (!report.any_input_scanned()) {
      s.status = NodeSummary::Status::failed;
      s.note = "no input could be scanned";
      for (const auto& in : report.inputs) s.note += "; " + in.path + ": " + in.note;
    }
    s.inputs = std::move(report.inputs);
    // Log findings only (the word fallback's guesses are read from lines too): this node's
    // own cross-rank verdict (a silent rank among its few ranks) is node 0's to make.
    for (auto& f : report.findings) {
      if (f.entry->matches_logs || f.words) s.findings.push_back(std::move(f));
    }
  }
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

}  // namespace npu_doctor
