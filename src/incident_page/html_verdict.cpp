// The verdict at the top of the incident report: the root cause with why it was chosen,
// its evidence and remedies, then the cross-rank decision.
#include "render/html_escape.hpp"
#include "html_sections.hpp"
#include "diagnosis/report_text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::html {
namespace {

using render_detail::html_escape;
using render_detail::location;
using ui::Key;

std::string ranks_text(const std::vector<int>& ranks) {
  std::string s;
  for (std::size_t i = 0; i < ranks.size() && i < 64; ++i) s += (i ? ", " : "") + std::to_string(ranks[i]);
  if (ranks.size() > 64) s += ", … (" + std::to_string(ranks.size()) + ")";
  return s;
}

}  // namespace

void root_cause_card(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  const Finding* f = r.root_finding();
  if (f == nullptr) {
    out << "<p id=\"verdict\">"
        << html_escape(r.findings.empty() ? ui::word(Key::report_nothing_found, lang) : ui::word(Key::report_no_root_cause, lang))
        << "</p>\n";
    return;
  }
  const Entry& e = *f->entry;
  out << "<div class=\"card\" id=\"verdict\" data-rule=\"" << html_escape(e.id) << "\"><h2>"
      << html_escape(ui::word(Key::report_root_cause, lang)) << ": <span id=\"root-cause\">" << html_escape(finding_title(*f, lang))
      << "</span></h2>\n<p><span class=\"tag\">" << to_string(e.category) << "</span> ";
  if (!f->code.empty()) out << "<span class=\"tag\">" << html_escape(f->code) << "</span> ";
  out << "<span class=\"muted\">rule " << html_escape(e.id) << "</span></p>\n";
  out << "<p><b>" << html_escape(ui::word(Key::report_why, lang)) << "</b>: " << html_escape(root_cause_reason(r, lang)) << "</p>\n";
  out << "<p><b>" << html_escape(ui::word(Key::report_cause, lang)) << "</b>: " << html_escape(finding_cause(*f, lang)) << "</p>\n";
  out << "<p><b>" << html_escape(ui::word(Key::report_remedies, lang)) << "</b></p>\n";
  remedies(*f, lang, out);
  out << "<p><b>" << html_escape(ui::word(Key::report_evidence, lang)) << "</b>: <code>" << html_escape(location(f->first()))
      << "</code>" << (f->count > 1 ? " ×" + std::to_string(f->count) : "") << "</p>\n";
  evidence_list(*f, out);
  out << "</div>\n";
}

void cluster_summary(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  if (!r.cluster) return;
  const auto& c = *r.cluster;
  out << "<h2 id=\"cluster\">" << html_escape(ui::word(ui::Key::html_cluster, lang)) << ": " << c.ranks << " "
      << html_escape(ui::word(ui::Key::html_ranks, lang)) << "</h2>\n<table class=\"kv\">\n";
  if (c.culprit) {
    out << "<tr><th>" << html_escape(ui::word(ui::Key::html_culprit, lang)) << "</th><td>"
        << html_escape(ui::word(ui::Key::html_rank, lang)) << " " << c.culprit->rank
        << (c.culprit->host.empty() ? "" : " (" + html_escape(c.culprit->host) + ")") << "</td></tr>\n";
  }
  out << "<tr><th>" << html_escape(ui::word(ui::Key::html_basis, lang)) << "</th><td>" << to_string(c.basis) << "</td></tr>\n<tr><th>"
      << html_escape(ui::word(ui::Key::html_confidence, lang)) << "</th><td>" << html_escape(c.confidence) << "</td></tr>\n<tr><th>"
      << html_escape(ui::word(ui::Key::html_why, lang)) << "</th><td>" << html_escape(cluster_reason(c, lang)) << "</td></tr>\n";
  const std::pair<ui::Key, const std::vector<int>*> lists[] = {
      {ui::Key::html_symptom_ranks, &c.symptom_ranks}, {ui::Key::html_silent_ranks, &c.silent_ranks}, {ui::Key::html_missing_ranks, &c.missing_ranks}};
  for (const auto& [w, ranks] : lists) {
    if (!ranks->empty()) out << "<tr><th>" << html_escape(ui::word(w, lang)) << "</th><td>" << ranks_text(*ranks) << "</td></tr>\n";
  }
  out << "</table>\n";
}

}  // namespace npu_doctor::html
