// The `check` report as Markdown, for bug reports and tickets: a table of the steps,
// then each step's facts, evidence and findings.
#include <string>

#include "check_render.hpp"
#include "check_ui_text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::checks {
namespace {

// Text inside a table cell or inline code: no pipes or backticks breaking the layout.
std::string cell(std::string s) {
  for (auto& c : s) {
    if (c == '|' || c == '\n') c = ' ';
  }
  return s;
}

std::string code(const std::string& s) {
  std::string t = s;
  for (auto& c : t) {
    if (c == '`') c = '\'';
  }
  return "`" + t + "`";
}

std::string where(const Evidence& e) {
  if (evidence_source(e) == "env") return code(e.text);
  std::string w = e.path;
  if (e.line > 0) w += ":" + std::to_string(e.line);
  return code(w) + (e.text.empty() ? "" : " " + code(e.text));
}

}  // namespace

void render_check_markdown(const CheckReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang lang = o.lang;
  out << "# npu-doctor check: " << ui::status_label(r.status()) << "\n\n";
  out << "Root `" << r.root << "`, knowledge base `" << r.kb_version << "`.\n\n";
  out << "| # | step | status | findings |\n|---|---|---|---|\n";
  for (const auto& s : r.steps) {
    out << "| " << ui::step_number(s.id) << " | " << ui::step_title(s.id, lang) << " (`" << to_string(s.id) << "`) | **"
        << ui::status_label(s.status()) << "** | " << s.findings.size() << " |\n";
  }
  for (const auto& s : r.steps) {
    out << "\n## " << ui::step_number(s.id) << ". " << ui::step_title(s.id, lang) << ": " << ui::status_label(s.status()) << "\n\n";
    for (const auto& [k, v] : s.facts) out << "- " << k << ": " << code(v) << "\n";
    if (!s.evidence.empty()) {
      out << "\n" << ui::word(ui::Key::report_evidence, lang) << ":\n\n";
      for (const auto& e : s.evidence) out << "- " << where(e) << "\n";
    }
    for (const auto& f : s.findings) {
      const Entry& e = *f.entry;
      out << "\n### " << to_string(effective_severity(f)) << ": " << cell(e.title.get(lang)) << "\n\n";
      out << "`" << e.id << "` · " << to_string(e.category) << "\n\n";
      for (const auto& ev : f.evidence) {
        out << "- " << where(ev);
        for (const auto& [k, v] : ev.captures) out << " · " << k << "=" << code(v);
        out << "\n";
      }
      out << "\n" << ui::word(ui::Key::report_cause, lang) << ": " << e.cause_text().get(lang) << "\n\n";
      for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) out << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
    }
  }
}

}  // namespace npu_doctor::checks
