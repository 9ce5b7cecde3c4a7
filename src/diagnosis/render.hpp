#pragma once
// The diagnosis renderers: they read a finished report and write text, JSON or Markdown.
// They never look at inputs or the knowledge base files themselves.
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "diagnosis.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor {

void render_diagnosis_text(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
// `diagnose -q`: one line per incident, tab-separated, for scripts (docs/incidents.md).
void render_incident_summary(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_json(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
void render_diagnosis_markdown(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);
// A self-contained page (inline CSS, no scripts): docs/cli.md.
void render_diagnosis_html(const DiagnosisReport& report, const RenderOptions& options, std::ostream& out);

// Why the root cause was chosen, in plain words.
std::string root_cause_reason(const DiagnosisReport& report, Lang lang);
std::string root_cause_reason(const IncidentReport& incident, Lang lang);

}  // namespace npu_doctor
