#pragma once
// report.md of a bundle: the bug-report checklist filled in from what was collected,
// from a template that is data (data/bundle-report.en.md, .zh.md), ready to paste
// into an issue. Every value in it is already redacted.
#include <string>
#include <utility>
#include <vector>

#include "bundle/log_selection.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::bundle {

struct ReportFacts {
  std::string created;
  std::string tool_version;
  std::string hardware;                                      // npu-smi info
  std::vector<std::pair<std::string, std::string>> versions;  // check facts
  std::string check_status;
  std::vector<std::pair<std::string, std::string>> check_steps;  // id -> status
  std::vector<std::string> check_findings;
  std::string root_cause;  // the diagnosis' root cause with its evidence window
  std::size_t findings = 0;
  std::size_t logs = 0;
  std::string environment;
  std::string topology;
  std::vector<SkippedItem> skipped;
};

std::string render_report_md(const ReportFacts& facts, Lang lang);

// {{name}} replaced by values[name]; unknown names are left as they are.
std::string fill_template(std::string_view text, const std::vector<std::pair<std::string, std::string>>& values);

}  // namespace npu_doctor::bundle
