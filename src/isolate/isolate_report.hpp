#pragma once
// What an isolation run found, as knowledge-base findings, and its renderers: text and
// the JSON contract npu-doctor/isolate/v1 (docs/json-isolate-v1.md).
#include <ostream>
#include <string>
#include <vector>

#include "isolate/isolation.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::isolate {

struct IsolateReport {
  std::string kb_version;
  std::vector<std::string> command;
  std::string device_source;            // "--devices" or "npu-smi info"
  std::vector<std::string> device_names;  // per device: "NPU 4 chip 0" (from npu-smi), or empty
  Strategy strategy = Strategy::grow;
  long long timeout_ms = 0;
  std::string log_dir;
  IsolateResult result;
  std::vector<Finding> findings;
};

// Fills report.findings from report.result.
void add_findings(IsolateReport& report, const KnowledgeBase& kb);

void render_isolate_text(const IsolateReport& r, const RenderOptions& o, std::ostream& out);
void render_isolate_json(const IsolateReport& r, const RenderOptions& o, std::ostream& out);

}  // namespace npu_doctor::isolate
