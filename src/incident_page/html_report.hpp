#pragma once
// The incident report: one self-contained HTML page for diagnose, cluster and merge
// (`-f html` and `--html FILE`, docs/html-report.md). The diagnosis comes first (root
// cause, why, remedies), then the cluster timeline, the environment check, the evidence,
// and what other analyses were attached (memory chart, profile charts).
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "memory/mem_report.hpp"
#include "diagnosis/diagnosis.hpp"
#include "profile/profile.hpp"
#include "diagnosis/render.hpp"

namespace npu_doctor {

// One step of an attached `npu-doctor check -f json` report (npu-doctor/check/v1).
struct CheckStepView {
  struct Item {
    std::string rule, severity, title, evidence;
    std::vector<std::string> remedies;
  };
  std::string id, title, status;
  std::vector<std::pair<std::string, std::string>> facts;
  std::vector<Item> findings;
};

struct CheckView {
  std::string path;    // the attached file
  std::string status;  // pass | warn | fail | skip
  std::string root;    // the file-system root it inspected
  std::vector<CheckStepView> steps;
};

// What one node's `cluster --check` established (driver_version ...).
struct NodeFacts {
  std::string host;
  std::map<std::string, std::string> facts;
};

struct HtmlAttachments {
  std::optional<mem::MemReport> mem;  // --attach mem=...
  std::optional<ProfileReport> profile;  // --attach profile=...
  std::optional<CheckView> check;     // --attach check=...
  std::vector<NodeFacts> node_facts;  // from cluster --check / merge
};

void render_incident_html(const DiagnosisReport& report, const HtmlAttachments& attachments, const RenderOptions& options,
                          std::ostream& out);

}  // namespace npu_doctor
