// Evidence in the incident report: each occurrence with the lines around it, collapsible;
// the other findings, and the inputs that could not be read completely.
#include "render/html_escape.hpp"
#include "html_sections.hpp"
#include "diagnosis/report_text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::html {
namespace {

using render_detail::html_escape;
using render_detail::location;
using render_detail::short_label;
using ui::Key;

// Thousands of ranks can each have an unreadable input; the page lists the first ones.
constexpr std::size_t kMaxInputProblems = 200;

}  // namespace

void evidence_block(const Evidence& e, std::ostream& out) {
  out << "<pre>";
  for (const auto& c : e.before) out << c.line << "  " << html_escape(c.text) << "\n";
  out << "<span class=\"hit\">" << e.line << "  " << html_escape(e.text) << "</span>";
  for (const auto& c : e.after) out << c.line << "  " << html_escape(c.text) << "\n";
  out << "</pre>\n";
}

// The first occurrence open, the others folded: each summary says where and when.
void evidence_list(const Finding& f, std::ostream& out) {
  for (std::size_t i = 0; i < f.evidence.size(); ++i) {
    const Evidence& e = f.evidence[i];
    out << "<details class=\"ev\"" << (i == 0 ? " open" : "") << "><summary><code>" << html_escape(location(e))
        << "</code>";
    if (e.time) out << " <span class=\"muted\">" << html_escape(e.time->text) << "</span>";
    if (e.rank) out << " <span class=\"tag\">rank " << *e.rank << "</span>";
    out << "</summary>\n";
    evidence_block(e, out);
    out << "</details>\n";
  }
}

void remedies(const Finding& f, Lang lang, std::ostream& out) {
  const std::vector<std::string> texts = finding_remedies(f, lang);
  if (texts.empty()) return;
  out << "<ol>";
  for (const auto& r : texts) out << "<li>" << html_escape(r) << "</li>";
  out << "</ol>\n";
}

void other_findings(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  bool header = false;
  for (std::size_t i : render_detail::presentation_order(r)) {
    if (r.root && i == r.root->finding) continue;
    const Finding& f = r.findings[i];
    if (!header) {
      out << "<h2 id=\"findings\">" << html_escape(ui::word(Key::report_other_findings, lang)) << "</h2>\n";
      header = true;
    }
    const std::string severity(to_string(effective_severity(f)));
    out << "<details><summary class=\"role-" << to_string(f.effective_role) << "\" data-rule=\"" << html_escape(f.entry->id)
        << "\"><span class=\"" << severity << "\">" << severity << "</span> <span class=\"tag\">"
        << to_string(f.entry->category) << "</span> " << html_escape(short_label(f, lang)) << " <span class=\"muted\">"
        << to_string(f.effective_role) << " · <code>" << html_escape(location(f.first())) << "</code> ×" << f.count
        << "</span></summary>\n";
    if (!f.symptom_of.empty()) {
      out << "<p class=\"muted\">" << html_escape(ui::word(Key::report_follows_from, lang)) << " " << html_escape(f.symptom_of)
          << "</p>\n";
    }
    if (f.expected) {
      out << "<p class=\"muted\">" << html_escape(render_detail::expected_note(f, lang)) << " ("
          << html_escape(f.expected->source) << ")</p>\n";
    }
    out << "<p>" << html_escape(finding_cause(f, lang)) << "</p>\n";
    remedies(f, lang, out);
    evidence_list(f, out);
    out << "</details>\n";
  }
}

void input_problems(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  std::size_t shown = 0, hidden = 0;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok) continue;
    if (shown == kMaxInputProblems) {
      ++hidden;
      continue;
    }
    if (shown++ == 0) out << "<h2 id=\"inputs\">" << html_escape(ui::word(Key::report_inputs_with_problems, lang)) << "</h2>\n<ul>\n";
    out << "<li><code>" << html_escape(in.path) << "</code>: " << to_string(in.status) << ", " << html_escape(in.note)
        << "</li>\n";
  }
  if (hidden > 0) out << "<li class=\"muted\">… " << hidden << " " << html_escape(ui::word(ui::Key::html_and_more, lang)) << "</li>\n";
  if (shown > 0) out << "</ul>\n";
}

}  // namespace npu_doctor::html
