// The incident report page (docs/html-report.md): self-contained (inline CSS; a script
// only to draw an attached memory chart; nothing fetched), every text escaped. The
// verdict first, then the cluster and its timeline, the environment check, the other
// findings with their evidence, the attached memory and profile analyses, and the inputs
// with problems. `-f html` writes it for diagnose, cluster and merge, and so does --html.
#include "render/html_escape.hpp"
#include "html_report.hpp"
#include "html_sections.hpp"
#include "diagnosis/render.hpp"
#include "npu_doctor/version.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

using render_detail::html_escape;
using ui::Key;

// Plain CSS without child combinators, so every '>' in the page closes a tag.
constexpr std::string_view kStyle = R"(
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:76em;color:#222;line-height:1.45;padding:0 1em}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:1.6em} h3{font-size:1em}
.card{border:1px solid #ccc;border-left:6px solid #c0392b;border-radius:4px;padding:0.8em 1.2em;background:#fdf6f5}
.muted{color:#666} .tag{display:inline-block;padding:0 0.5em;border-radius:3px;background:#eee;font-size:0.85em}
.critical,.error,.st-fail{color:#c0392b;font-weight:600} .warning,.st-warn{color:#b9770e} .info,.st-skip{color:#666} .st-pass{color:#1e8449}
pre{background:#f4f4f4;padding:0.6em;overflow-x:auto;font-size:0.85em;margin:0.3em 0}
pre .hit{background:#fde2e0;font-weight:600;display:block}
table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #ddd;padding:0.3em 0.5em;text-align:left;vertical-align:top}
table.kv th{width:12em} tr.differs td{background:#fff3cd}
details summary{cursor:pointer} details.ev{margin-left:1em}
summary.role-symptom{color:#777}
.attached h2{font-size:1.05em}
)";

}  // namespace

void render_incident_html(const DiagnosisReport& r, const HtmlAttachments& a, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  uint64_t bytes = 0;
  for (const auto& in : r.inputs) bytes += in.bytes;
  out << "<!DOCTYPE html>\n<html lang=\"" << to_string(lang) << "\"><head><meta charset=\"utf-8\">"
      << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
         "script-src 'unsafe-inline'\">"
      << "<meta name=\"viewport\" content=\"width=device-width\"><meta name=\"generator\" content=\"npu-doctor "
      << html_escape(kVersion) << "\"><title>npu-doctor diagnosis</title><style>" << kStyle << html::timeline_style()
      << html::attachments_style(a) << "</style></head><body" << (a.mem ? " data-rendered=\"no\"" : "") << ">\n"
      << "<h1>npu-doctor diagnosis</h1>\n<p class=\"muted\">" << r.inputs.size() << " "
      << html_escape(ui::word(Key::report_unit_inputs, lang)) << ", " << bytes << " bytes, " << r.findings.size() << " "
      << html_escape(ui::word(Key::report_unit_findings, lang)) << " · " << html_escape(ui::word(ui::Key::html_knowledge_base, lang)) << " "
      << html_escape(r.kb_version) << "</p>\n";
  html::root_cause_card(r, lang, out);
  html::cluster_summary(r, lang, out);
  html::timeline(r, lang, out);
  html::check_section(a, lang, out);
  html::other_findings(r, lang, out);
  html::mem_section(a, lang, out);
  html::profile_section(a, lang, out);
  html::input_problems(r, lang, out);
  html::attachments_script(a, lang, out);
  out << "</body></html>\n";
}

void render_diagnosis_html(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  render_incident_html(r, HtmlAttachments{}, o, out);
}

}  // namespace npu_doctor
