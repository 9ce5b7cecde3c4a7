// `atc` on a terminal: outcome, phase and case; the operators; the next steps (the case's
// remedies, the rewritten command, the fusion switch file); then the log findings.
#include "atc.hpp"
#include "render/terminal_style.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {


using Style = render_detail::TerminalStyle;

std::string where(const SourceLine& s) { return s.line > 0 ? s.path + ":" + std::to_string(s.line) : s.path; }

}  // namespace

void render_atc_text(const AtcReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang l = o.lang;
  const Style st{o.color};
  out << st.bold(std::string(ui::word(ui::Key::atc_title, l))) << "\n";
  const ui::Key outcome = r.outcome == "failed" ? ui::Key::atc_failed : r.outcome == "succeeded" ? ui::Key::atc_succeeded : ui::Key::atc_unknown;
  out << "  " << ui::word(ui::Key::atc_outcome, l) << ": "
      << (r.outcome == "failed" ? st.red(std::string(ui::word(outcome, l))) : std::string(ui::word(outcome, l))) << "\n";
  if (r.phase != AtcPhase::unknown) out << "  " << ui::word(ui::Key::atc_phase, l) << ": " << to_string(r.phase) << "\n";
  if (r.category) out << "  " << ui::word(ui::Key::atc_case, l) << ": " << to_string(*r.category) << "\n";
  if (r.check_report) {
    const auto& c = *r.check_report;
    out << "  " << ui::word(ui::Key::atc_check_report, l) << ": " << c.path << " (" << c.result << ", " << c.fail << "/" << c.total
        << ")\n";
  }
  if (!r.operators.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::atc_operators, l))) << "\n";
    for (const auto& op : r.operators) {
      out << "  " << (op.type.empty() ? "?" : op.type);
      if (!op.name.empty()) out << "  " << ui::word(ui::Key::atc_op_name, l) << "=" << op.name;
      if (!op.opset.empty()) out << "  " << ui::word(ui::Key::atc_opset, l) << "=" << op.opset << " (" << op.domain << ")";
      out << "  [" << to_string(op.phase) << "]  " << st.cyan(where(op.source)) << "\n";
    }
  }
  if (!r.fusion_passes.empty()) {
    out << "  " << ui::word(ui::Key::atc_fusion_passes, l) << ":";
    for (const auto& p : r.fusion_passes) out << " " << p;
    out << "\n";
  }
  if (r.command) {
    out << "\n  " << ui::word(ui::Key::atc_command, l) << " (" << where(r.command->source) << "):\n    " << r.command->text << "\n";
  }
  for (const auto& f : r.findings) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::atc_next_steps, l))) << ": " << finding_title(f, l) << "  ("
        << f.entry->id << ")\n";
    out << "  " << finding_cause(f, l) << "\n";
    int n = 0;
    for (const auto& rem : finding_remedies(f, l)) out << "  " << ++n << ". " << rem << "\n";
  }
  if (r.fusion_switch_file) {
    out << "\n  " << ui::word(ui::Key::atc_fusion_cfg, l) << " " << r.fusion_switch_file->first << ":\n";
    std::string_view c = r.fusion_switch_file->second;
    while (!c.empty()) {
      const auto nl = c.find('\n');
      out << "    " << c.substr(0, nl) << "\n";
      if (nl == std::string_view::npos) break;
      c.remove_prefix(nl + 1);
    }
  }
  if (r.rewritten_command) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::atc_rewritten_command, l))) << "\n    " << *r.rewritten_command << "\n";
  }
  if (!r.diagnosis.findings.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::atc_findings, l))) << "\n";
    const Finding* root = r.diagnosis.root_finding();
    for (const auto& f : r.diagnosis.findings) {
      out << "  " << (&f == root ? "* " : "  ") << "[" << to_string(effective_severity(f)) << "] "
          << (f.code.empty() ? "" : f.code + " ") << f.entry->title.get(l) << "  (" << f.entry->id << ", "
          << f.count << "x)  " << st.cyan(f.first().path + ":" + std::to_string(f.first().line)) << "\n";
    }
  }
  for (const auto& p : r.problems) out << "\n  ! " << p << "\n";
}

}  // namespace npu_doctor
