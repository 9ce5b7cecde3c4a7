#include "diagnosis_output.hpp"

#include <iostream>

#include "exit_codes.hpp"
#include "npu_doctor/render.hpp"

namespace npu_doctor::cli {

int write_diagnosis(const GlobalOptions& g, const DiagnosisReport& report, const std::string& format,
                    const std::string& output) {
  for (const auto& w : report.warnings) std::cerr << "npu-doctor: " << w << "\n";
  for (const auto& in : report.inputs) {
    if (in.status == InputStatus::error || in.status == InputStatus::partial) {
      std::cerr << "npu-doctor: " << in.path << ": " << in.note << "\n";
    }
  }
  const RenderOptions ro = render_options(g, output == "-" && format == "text");
  const bool ok = write_output(
      output,
      [&](std::ostream& out) {
        if (format == "json") render_diagnosis_json(report, ro, out);
        else if (format == "markdown") render_diagnosis_markdown(report, ro, out);
        else if (format == "html") render_diagnosis_html(report, ro, out);
        else render_diagnosis_text(report, ro, out);
      },
      std::cerr);
  if (!ok) return kUsage;
  if (!report.any_input_scanned() && report.findings.empty()) {
    std::cerr << "npu-doctor: no input could be scanned";
    for (const auto& in : report.inputs) std::cerr << "; " << in.path << ": " << in.note;
    std::cerr << "\n";
    return kUsage;
  }
  return report.root ? kFindings : kOk;
}

}  // namespace npu_doctor::cli
