// Markdown for pasting into a bug report: the same content as the text report.
#include "npu_doctor/render.hpp"
#include "report_text.hpp"
#include "ui_text.hpp"

namespace npu_doctor {
namespace {

using render_detail::location;
using render_detail::short_label;
using ui::Text;

void code_block(const Evidence& e, std::ostream& out) {
  out << "```\n";
  for (const auto& c : e.before) out << c.line << "  " << c.text << "\n";
  out << e.line << "> " << e.text << "\n";
  for (const auto& c : e.after) out << c.line << "  " << c.text << "\n";
  out << "```\n";
}

}  // namespace

void render_diagnosis_markdown(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  out << "## npu-doctor diagnosis\n\n";
  if (const Finding* f = r.root_finding()) {
    const Entry& e = *f->entry;
    out << "### " << ui::get(Text::root_cause, lang) << ": " << finding_title(*f, lang) << "\n\n";
    out << "- **" << ui::get(Text::category, lang) << "**: `" << to_string(e.category) << "`";
    if (!f->code.empty()) out << " · **" << ui::get(Text::code, lang) << "**: `" << f->code << "`";
    out << " · rule `" << e.id << "`\n";
    out << "- **" << ui::get(Text::why, lang) << "**: " << root_cause_reason(r, lang) << "\n";
    out << "- **" << ui::get(Text::cause, lang) << "**: " << e.cause_text().get(lang) << "\n\n";
    out << "**" << ui::get(Text::evidence, lang) << "** (`" << location(f->first()) << "`):\n\n";
    code_block(f->first(), out);
    out << "\n**" << ui::get(Text::remedies, lang) << "**:\n\n";
    for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) out << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
  } else {
    out << (r.findings.empty() ? ui::get(Text::nothing_found, lang) : ui::get(Text::no_root_cause, lang)) << "\n";
  }
  if (r.cluster) {
    const auto& c = *r.cluster;
    out << "\n### Cluster (" << c.ranks << " ranks)\n\n";
    if (c.culprit) out << "- **culprit**: rank " << c.culprit->rank << (c.culprit->host.empty() ? "" : " (" + c.culprit->host + ")") << "\n";
    out << "- **confidence**: " << c.confidence << "\n- " << cluster_reason(c, lang) << "\n";
  }
  bool header = false;
  for (std::size_t i : render_detail::presentation_order(r)) {
    if (r.root && i == r.root->finding) continue;
    const Finding& f = r.findings[i];
    if (!header) {
      out << "\n### " << ui::get(Text::other_findings, lang) << "\n\n| category | role | finding | where | count |\n|---|---|---|---|---|\n";
      header = true;
    }
    std::string label = short_label(f, lang);
    for (auto& c : label) {
      if (c == '|') c = '/';
    }
    out << "| " << to_string(f.entry->category) << " | " << to_string(f.effective_role) << " | " << label << " | `"
        << location(f.first()) << "` | " << f.count << " |\n";
  }
  bool inputs_header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok) continue;
    if (!inputs_header) {
      out << "\n### " << ui::get(Text::inputs_with_problems, lang) << "\n\n";
      inputs_header = true;
    }
    out << "- `" << in.path << "`: " << to_string(in.status) << ", " << in.note << "\n";
  }
  out << "\n<sub>npu-doctor " << r.kb_version << "</sub>\n";
}

}  // namespace npu_doctor
