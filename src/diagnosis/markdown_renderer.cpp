// Markdown for pasting into a bug report: the same content as the text report.
#include "incident_text.hpp"
#include "render.hpp"
#include "report_text.hpp"
#include "root_cause_reason.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

using render_detail::location;
using render_detail::short_label;
using ui::Key;

void code_block(const Evidence& e, std::ostream& out) {
  out << "```\n";
  for (const auto& c : e.before) out << c.line << "  " << c.text << "\n";
  out << e.line << "> " << e.text << "\n";
  for (const auto& c : e.after) out << c.line << "  " << c.text << "\n";
  out << "```\n";
}

std::string cell(std::string s) {
  for (auto& c : s) {
    if (c == '|') c = '/';
  }
  return s;
}

void incident_body(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                   const std::optional<ClusterDecision>& cluster, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  if (root) {
    const Finding& f = findings[root->finding];
    const Entry& e = *f.entry;
    out << "### " << ui::word(Key::report_root_cause, lang) << ": " << finding_title(f, lang) << "\n\n";
    out << "- **" << ui::word(Key::report_category, lang) << "**: `" << to_string(e.category) << "`";
    if (!f.code.empty()) out << " · **" << ui::word(Key::report_code, lang) << "**: `" << f.code << "`";
    out << " · rule `" << e.id << "`\n";
    out << "- **" << ui::word(Key::report_why, lang) << "**: "
        << render_detail::reason_text(findings, root, cluster, lang, nullptr) << "\n";
    out << "- **" << ui::word(Key::report_cause, lang) << "**: " << finding_cause(f, lang) << "\n\n";
    out << "**" << ui::word(Key::report_evidence, lang) << "** (`" << location(f.first()) << "`):\n\n";
    code_block(f.first(), out);
    out << "\n**" << ui::word(Key::report_remedies, lang) << "**:\n\n";
    const std::vector<std::string> remedies = finding_remedies(f, lang);
    for (std::size_t i = 0; i < remedies.size(); ++i) out << (i + 1) << ". " << remedies[i] << "\n";
  } else {
    out << (findings.empty() ? ui::word(Key::report_nothing_found, lang) : ui::word(Key::report_no_root_cause, lang)) << "\n";
  }
  if (cluster) {
    const auto& c = *cluster;
    out << "\n### Cluster (" << c.ranks << " ranks)\n\n";
    if (c.culprit) out << "- **culprit**: rank " << c.culprit->rank << (c.culprit->host.empty() ? "" : " (" + c.culprit->host + ")") << "\n";
    out << "- **confidence**: " << c.confidence << "\n- " << cluster_reason(c, lang) << "\n";
  }
  bool header = false;
  for (std::size_t i : render_detail::presentation_order(findings, root)) {
    if (root && i == root->finding) continue;
    const Finding& f = findings[i];
    if (!header) {
      out << "\n### " << ui::word(Key::report_other_findings, lang)
          << "\n\n| category | relation | role | finding | where | count |\n|---|---|---|---|---|---|\n";
      header = true;
    }
    std::string role(to_string(f.effective_role));
    std::string label = short_label(f, lang);
    if (f.expected) {  // the user declared it (docs/expected-errors.md)
      role = "expected";
      label += " (" + render_detail::expected_note(f, lang) + ")";
    }
    out << "| " << to_string(f.entry->category) << " | " << to_string(render_detail::relation_of(root, i)) << " | "
        << role << " | " << cell(label) << " | `" << location(f.first()) << "` | " << f.count << " |\n";
  }
}

}  // namespace

void render_diagnosis_markdown(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  out << "## npu-doctor diagnosis\n\n";
  if (r.incidents.size() > 1 && o.all_incidents) {
    for (std::size_t k = 0; k < r.incidents.size(); ++k) {
      const IncidentReport& ir = r.incidents[k];
      out << (k ? "\n" : "") << "## " << render_detail::incident_heading(r, k, lang) << "\n\n";
      incident_body(ir.findings, ir.root, ir.cluster, o, out);
    }
  } else {
    if (r.incidents.size() > 1) out << "**" << render_detail::incident_heading(r, r.shown, lang) << "**\n\n";
    incident_body(r.findings, r.root, r.cluster, o, out);
    if (r.incidents.size() > 1) {
      out << "\n### " << ui::word(Key::incident_others, lang) << "\n\n| # | " << ui::word(Key::incident_time, lang) << " | "
          << ui::word(Key::report_unit_inputs, lang) << " | " << ui::word(Key::incident_root_cause, lang) << " |\n|---|---|---|---|\n";
      for (std::size_t k = 0; k < r.incidents.size(); ++k) {
        if (k == r.shown) continue;
        const IncidentReport& ir = r.incidents[k];
        const Finding* f = ir.root_finding();
        out << "| " << ir.number << " | " << render_detail::incident_time_range(ir.incident, lang, false) << " | "
            << ir.incident.inputs.size() << " | "
            << cell(f ? std::string(to_string(f->entry->category)) + ": " + short_label(*f, lang)
                      : std::string(ui::word(Key::incident_no_error_finding, lang)))
            << " |\n";
      }
    }
  }
  bool inputs_header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok) continue;
    if (!inputs_header) {
      out << "\n### " << ui::word(Key::report_inputs_with_problems, lang) << "\n\n";
      inputs_header = true;
    }
    out << "- `" << in.path << "`: " << to_string(in.status) << ", " << in.note << "\n";
  }
  out << "\n<sub>npu-doctor " << r.kb_version << "</sub>\n";
}

}  // namespace npu_doctor
