// `atc` on a terminal: outcome, phase and case; the operators; the next steps (the case's
// remedies, the rewritten command, the fusion switch file); then the log findings.
#include "analysis_words.hpp"
#include "npu_doctor/atc.hpp"
#include "terminal_style.hpp"

namespace npu_doctor {
namespace {

using words::W;

using Style = render_detail::TerminalStyle;

std::string where(const SourceLine& s) { return s.line > 0 ? s.path + ":" + std::to_string(s.line) : s.path; }

}  // namespace

void render_atc_text(const AtcReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang l = o.lang;
  const Style st{o.color};
  out << st.bold(std::string(words::get(W::atc_title, l))) << "\n";
  const W outcome = r.outcome == "failed" ? W::failed : r.outcome == "succeeded" ? W::succeeded : W::unknown;
  out << "  " << words::get(W::outcome, l) << ": "
      << (r.outcome == "failed" ? st.red(std::string(words::get(outcome, l))) : std::string(words::get(outcome, l))) << "\n";
  if (r.phase != AtcPhase::unknown) out << "  " << words::get(W::phase, l) << ": " << to_string(r.phase) << "\n";
  if (r.category) out << "  " << words::get(W::case_, l) << ": " << to_string(*r.category) << "\n";
  if (r.check_report) {
    const auto& c = *r.check_report;
    out << "  " << words::get(W::check_report, l) << ": " << c.path << " (" << c.result << ", " << c.fail << "/" << c.total
        << ")\n";
  }
  if (!r.operators.empty()) {
    out << "\n" << st.bold(std::string(words::get(W::operators, l))) << "\n";
    for (const auto& op : r.operators) {
      out << "  " << (op.type.empty() ? "?" : op.type);
      if (!op.name.empty()) out << "  " << words::get(W::op_name, l) << "=" << op.name;
      if (!op.opset.empty()) out << "  " << words::get(W::opset, l) << "=" << op.opset << " (" << op.domain << ")";
      out << "  [" << to_string(op.phase) << "]  " << st.cyan(where(op.source)) << "\n";
    }
  }
  if (!r.fusion_passes.empty()) {
    out << "  " << words::get(W::fusion_passes, l) << ":";
    for (const auto& p : r.fusion_passes) out << " " << p;
    out << "\n";
  }
  if (r.command) {
    out << "\n  " << words::get(W::command, l) << " (" << where(r.command->source) << "):\n    " << r.command->text << "\n";
  }
  for (const auto& f : r.findings) {
    out << "\n" << st.bold(std::string(words::get(W::next_steps, l))) << ": " << f.entry->title.get(l) << "  ("
        << f.entry->id << ")\n";
    out << "  " << f.entry->cause_text().get(l) << "\n";
    int n = 0;
    for (const auto& rem : f.entry->remedy_texts()) out << "  " << ++n << ". " << rem.get(l) << "\n";
  }
  if (r.fusion_switch_file) {
    out << "\n  " << words::get(W::fusion_cfg, l) << " " << r.fusion_switch_file->first << ":\n";
    std::string_view c = r.fusion_switch_file->second;
    while (!c.empty()) {
      const auto nl = c.find('\n');
      out << "    " << c.substr(0, nl) << "\n";
      if (nl == std::string_view::npos) break;
      c.remove_prefix(nl + 1);
    }
  }
  if (r.rewritten_command) {
    out << "\n" << st.bold(std::string(words::get(W::rewritten_command, l))) << "\n    " << *r.rewritten_command << "\n";
  }
  if (!r.diagnosis.findings.empty()) {
    out << "\n" << st.bold(std::string(words::get(W::findings, l))) << "\n";
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
