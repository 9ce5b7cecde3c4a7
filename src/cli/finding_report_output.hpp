#pragma once
// The end shared by `net test` and `isolate`: write the report (text or JSON, atomic -o
// FILE), print internal errors, and turn the findings into the documented exit status.
#include <iostream>
#include <ostream>
#include <string>

#include "core/finding_set.hpp"
#include "common.hpp"
#include "exit_codes.hpp"

namespace npu_doctor::cli {

// Report is any report with `findings` (net::NetReport, isolate::IsolateReport). Returns
// kUsage when the output cannot be written, else kFindings or kOk.
template <class Report>
int write_finding_report(const GlobalOptions& g, const std::string& output, const std::string& format,
                         const Report& report,
                         void (*render_json)(const Report&, const RenderOptions&, std::ostream&),
                         void (*render_text)(const Report&, const RenderOptions&, std::ostream&)) {
  const RenderOptions ro = render_options(g, output == "-" && format == "text");
  const bool ok = write_output(
      output,
      [&](std::ostream& out) {
        if (format == "json") render_json(report, ro, out);
        else render_text(report, ro, out);
      },
      std::cerr);
  if (!ok) return kUsage;
  return exit_status_for(report.findings) == 0 ? kOk : kFindings;
}

}  // namespace npu_doctor::cli
