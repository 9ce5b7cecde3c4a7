// One self-contained HTML page (no scripts, no external files) with the content of the
// text report: the root cause with its evidence window and remedies, the cross-rank
// verdict, the other findings (each expandable), and the inputs with problems. For
// `diagnose`, `cluster` and `merge` with `-f html`.
#include "html_escape.hpp"
#include "npu_doctor/render.hpp"
#include "report_text.hpp"
#include "ui_text.hpp"

namespace npu_doctor {
namespace {

using render_detail::html_escape;
using render_detail::location;
using render_detail::short_label;
using ui::Text;

// Plain CSS without child combinators, so every '>' in the page closes a tag.
constexpr std::string_view kStyle = R"(
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:70em;color:#222;line-height:1.45}
h1{font-size:1.4em} h2{font-size:1.15em;margin-top:1.6em}
.card{border:1px solid #ccc;border-left:6px solid #c0392b;border-radius:4px;padding:0.8em 1.2em;background:#fdf6f5}
.muted{color:#666} .tag{display:inline-block;padding:0 0.5em;border-radius:3px;background:#eee;font-size:0.85em}
.critical,.error{color:#c0392b;font-weight:600} .warning{color:#b9770e} .info{color:#666}
pre{background:#f4f4f4;padding:0.6em;overflow-x:auto;font-size:0.85em}
pre .hit{background:#fde2e0;font-weight:600;display:block}
table{border-collapse:collapse;width:100%} td,th{border-bottom:1px solid #ddd;padding:0.3em 0.5em;text-align:left;vertical-align:top}
details summary{cursor:pointer}
)";

void evidence_block(const Evidence& e, std::ostream& out) {
  out << "<pre>";
  for (const auto& c : e.before) out << c.line << "  " << html_escape(c.text) << "\n";
  out << "<span class=\"hit\">" << e.line << "  " << html_escape(e.text) << "</span>";
  for (const auto& c : e.after) out << c.line << "  " << html_escape(c.text) << "\n";
  out << "</pre>\n";
}

void remedies(const Entry& e, Lang lang, std::ostream& out) {
  if (e.remedies.empty()) return;
  out << "<ol>";
  for (const auto& r : e.remedies) out << "<li>" << html_escape(r.get(lang)) << "</li>";
  out << "</ol>\n";
}

std::string ranks_text(const std::vector<int>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size() && i < 64; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 64) s += ", … (" + std::to_string(ranks.size()) + ")";
  return s;
}

void root_cause(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  const Finding* f = r.root_finding();
  if (f == nullptr) {
    out << "<p>" << html_escape(r.findings.empty() ? ui::get(Text::nothing_found, lang) : ui::get(Text::no_root_cause, lang))
        << "</p>\n";
    return;
  }
  const Entry& e = *f->entry;
  out << "<div class=\"card\"><h2>" << html_escape(ui::get(Text::root_cause, lang)) << ": " << html_escape(e.title.get(lang))
      << "</h2>\n<p><span class=\"tag\">" << to_string(e.category) << "</span> ";
  if (!f->code.empty()) out << "<span class=\"tag\">" << html_escape(f->code) << "</span> ";
  out << "<span class=\"muted\">rule " << html_escape(e.id) << "</span></p>\n";
  out << "<p><b>" << html_escape(ui::get(Text::why, lang)) << "</b>: " << html_escape(root_cause_reason(r, lang)) << "</p>\n";
  out << "<p><b>" << html_escape(ui::get(Text::evidence, lang)) << "</b>: <code>" << html_escape(location(f->first()))
      << "</code>" << (f->count > 1 ? " ×" + std::to_string(f->count) : "") << "</p>\n";
  evidence_block(f->first(), out);
  out << "<p><b>" << html_escape(ui::get(Text::cause, lang)) << "</b>: " << html_escape(e.cause.get(lang)) << "</p>\n";
  out << "<p><b>" << html_escape(ui::get(Text::remedies, lang)) << "</b></p>\n";
  remedies(e, lang, out);
  out << "</div>\n";
}

void cluster(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  if (!r.cluster) return;
  const auto& c = *r.cluster;
  out << "<h2>Cluster: " << c.ranks << " ranks</h2>\n<table>\n";
  if (c.culprit) {
    out << "<tr><th>culprit</th><td>rank " << c.culprit->rank
        << (c.culprit->host.empty() ? "" : " (" + html_escape(c.culprit->host) + ")") << "</td></tr>\n";
  }
  out << "<tr><th>basis</th><td>" << to_string(c.basis) << "</td></tr>\n<tr><th>confidence</th><td>"
      << html_escape(c.confidence) << "</td></tr>\n<tr><th>why</th><td>" << html_escape(cluster_reason(c, lang))
      << "</td></tr>\n";
  if (!c.symptom_ranks.empty()) out << "<tr><th>symptom ranks</th><td>" << ranks_text(c.symptom_ranks) << "</td></tr>\n";
  if (!c.silent_ranks.empty()) out << "<tr><th>silent ranks</th><td>" << ranks_text(c.silent_ranks) << "</td></tr>\n";
  if (!c.missing_ranks.empty()) out << "<tr><th>missing ranks</th><td>" << ranks_text(c.missing_ranks) << "</td></tr>\n";
  out << "</table>\n";
}

void other_findings(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  bool header = false;
  for (std::size_t i : render_detail::presentation_order(r)) {
    if (r.root && i == r.root->finding) continue;
    const Finding& f = r.findings[i];
    if (!header) {
      out << "<h2>" << html_escape(ui::get(Text::other_findings, lang)) << "</h2>\n";
      header = true;
    }
    const std::string severity(to_string(effective_severity(f)));
    out << "<details><summary><span class=\"" << severity << "\">" << severity << "</span> <span class=\"tag\">"
        << to_string(f.entry->category) << "</span> " << html_escape(short_label(f, lang)) << " <span class=\"muted\">"
        << to_string(f.effective_role) << " · <code>" << html_escape(location(f.first())) << "</code> ×" << f.count
        << "</span></summary>\n";
    if (!f.symptom_of.empty()) {
      out << "<p class=\"muted\">" << html_escape(ui::get(Text::follows_from, lang)) << " " << html_escape(f.symptom_of) << "</p>\n";
    }
    out << "<p>" << html_escape(f.entry->cause.get(lang)) << "</p>\n";
    evidence_block(f.first(), out);
    remedies(*f.entry, lang, out);
    out << "</details>\n";
  }
}

void input_problems(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  bool header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok) continue;
    if (!header) {
      out << "<h2>" << html_escape(ui::get(Text::inputs_with_problems, lang)) << "</h2>\n<ul>\n";
      header = true;
    }
    out << "<li><code>" << html_escape(in.path) << "</code>: " << to_string(in.status) << ", " << html_escape(in.note)
        << "</li>\n";
  }
  if (header) out << "</ul>\n";
}

}  // namespace

void render_diagnosis_html(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  uint64_t bytes = 0;
  for (const auto& in : r.inputs) bytes += in.bytes;
  out << "<!DOCTYPE html>\n<html lang=\"" << to_string(lang) << "\"><head><meta charset=\"utf-8\">"
      << "<meta name=\"viewport\" content=\"width=device-width\"><title>npu-doctor diagnosis</title><style>" << kStyle
      << "</style></head><body>\n<h1>npu-doctor diagnosis</h1>\n<p class=\"muted\">" << r.inputs.size() << " "
      << html_escape(ui::get(Text::inputs_word, lang)) << ", " << bytes << " bytes, " << r.findings.size() << " "
      << html_escape(ui::get(Text::findings_word, lang)) << " · knowledge base " << html_escape(r.kb_version) << "</p>\n";
  root_cause(r, lang, out);
  cluster(r, lang, out);
  other_findings(r, lang, out);
  input_problems(r, lang, out);
  out << "</body></html>\n";
}

}  // namespace npu_doctor
