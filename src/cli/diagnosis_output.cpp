#include "diagnosis_output.hpp"

#include <iostream>

#include "common.hpp"
#include "exit_codes.hpp"
#include "diagnosis/render.hpp"
#include "incident_page/html_attachment_loader.hpp"
#include "diagnosis/diagnosis_prometheus.hpp"

namespace npu_doctor::cli {
namespace {
// Both entry points below; `kb` is needed only to analyse --attach inputs.
int write_report(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                 const std::string& output, const KnowledgeBase* kb, const HtmlReportArgs& html,
                 const DiagnosisView& view);
}  // namespace

int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output) {
  return write_report(g, report, format, output, nullptr, HtmlReportArgs{}, DiagnosisView{});
}

void add_html_report_options(CLI::App* cmd, HtmlReportArgs& args) {
  cmd->add_option("--html", args.path, help_text(ui::Key::help_shared_html))
      ->type_name("FILE");
  cmd->add_option("--attach", args.attach, help_text(ui::Key::help_shared_attach))
      ->type_name("KIND=PATH");
}

int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output, const KnowledgeBase& kb, const HtmlReportArgs& html,
                    const DiagnosisView& view) {
  return write_report(g, report, format, output, &kb, html, view);
}

namespace {
int write_report(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                 const std::string& output, const KnowledgeBase* kb, const HtmlReportArgs& html,
                 const DiagnosisView& view) {
  for (const auto& w : report.warnings) std::cerr << "npu-doctor: " << w << "\n";
  if (!report.any_input_scanned() && report.findings.empty()) {
    // Nothing was read: say that, once per input, and write no report that would look
    // like an empty diagnosis.
    std::cerr << "npu-doctor: " << msg(ui::Key::error_no_input_scanned);
    for (const auto& in : report.inputs) std::cerr << msg(ui::Key::error_input_why, fmt::arg("path", in.path), fmt::arg("why", note_text(in.note)));
    std::cerr << "\n";
    return kUsage;
  }
  for (const auto& in : report.inputs) {
    if (in.status == InputStatus::error || in.status == InputStatus::partial) {
      std::cerr << "npu-doctor: " << in.path << ": " << note_text(in.note) << "\n";
    }
  }
  RenderOptions ro = render_options(g, output == "-" && format == "text");
  ro.width = output == "-" && format == "text" ? terminal_width() : 80;
  ro.all_incidents = view.all_incidents;
  const bool page = format == "html" || !html.path.empty();
  if (!html.attach.empty() && !page) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_attach_needs_html) << "\n";
    return kUsage;
  }
  HtmlAttachments attachments;
  attachments.node_facts = html.node_facts;
  if (kb != nullptr && !html.attach.empty() &&
      !load_html_attachments(html.attach, *kb, cache_dir(), ro.lang, attachments, std::cerr)) {
    return kUsage;
  }
  bool ok = write_output(
      output,
      [&](std::ostream& out) {
        if (format == "summary") render_incident_summary(report, ro, out);
        else if (format == "json") render_diagnosis_json(report, ro, out);
        else if (format == "markdown") render_diagnosis_markdown(report, ro, out);
        else if (format == "prometheus") prometheus::render_diagnosis(report, {g.command, prometheus::now_seconds()}, out);
        else if (format == "html") render_incident_html(report, attachments, RenderOptions{ro.lang, false}, out);
        else render_diagnosis_text(report, ro, out);
      },
      std::cerr);
  if (!html.path.empty()) {
    ok = write_output(
             html.path,
             [&](std::ostream& out) { render_incident_html(report, attachments, RenderOptions{ro.lang, false}, out); },
             std::cerr) &&
         ok;
  }
  if (!ok) return kUsage;
  return report.root ? kFindings : kOk;
}

}  // namespace

}  // namespace npu_doctor::cli
