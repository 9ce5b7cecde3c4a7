#pragma once
// What diagnose, cluster and merge do once they have a report: say which inputs failed,
// write the report in the chosen format, and pick the exit code.
#include <string>

#include "common.hpp"
#include "diagnosis/diagnosis.hpp"
#include "incident_page/html_report.hpp"

namespace npu_doctor::cli {

// The --format values every diagnosis report can be written in.
inline const std::vector<std::string> kDiagnosisFormats = {"text", "json", "markdown", "html", "prometheus"};

// Prints input problems and warnings to stderr, writes the report to `output` ("-" =
// stdout), and returns the exit code: 2 when it cannot be written or nothing was
// scanned, 1 with a root cause, else 0.
int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output);

// The incident report (docs/html-report.md): --html FILE, written besides --format, and
// --attach KIND=PATH (mem, profile, check) for it and for -f html.
struct HtmlReportArgs {
  std::string path;
  std::vector<std::string> attach;
  std::vector<NodeFacts> node_facts;  // cluster --check / merge: what each node read
};
void add_html_report_options(CLI::App* cmd, HtmlReportArgs& args);

// How diagnose shows incidents: every one in full (--incident all), or the one-line
// summary per incident (-q, format "summary").
struct DiagnosisView {
  bool all_incidents = false;
  bool summary = false;
};

// As above, and also the HTML page when asked for: attachments are analysed first (a
// wrong --attach is a usage error, exit 2, before anything is written).
int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output, const KnowledgeBase& kb, const HtmlReportArgs& html,
                    const DiagnosisView& view = {});

}  // namespace npu_doctor::cli
