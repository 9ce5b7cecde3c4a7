// The terminal report of `check`: one block per step (status, facts, the evidence it
// read, its findings with cause, remedies and the concrete fix), then a summary line.
#include <algorithm>
#include <string>

#include "check_render.hpp"
#include "check_ui_text.hpp"
#include "render/terminal_style.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::checks {
namespace {

struct Style : render_detail::TerminalStyle {
  std::string status(StepStatus s) const {
    const std::string label = "[" + std::string(ui::status_label(s)) + "]";
    switch (s) {
      case StepStatus::pass: return wrap("1;32", label);
      case StepStatus::warn: return wrap("1;33", label);
      case StepStatus::fail: return wrap("1;31", label);
      case StepStatus::skip: return wrap("2", label);
    }
    return label;
  }
  std::string severity(Severity v, std::string_view s) const {
    switch (v) {
      case Severity::critical:
      case Severity::error: return wrap("1;31", s);
      case Severity::warning: return wrap("33", s);
      case Severity::info: return wrap("2", s);
    }
    return std::string(s);
  }
};

// "/usr/local/Ascend/driver/version.info:3  Version=24.1.rc2"; variables show their text only.
std::string evidence_text(const Evidence& e) {
  if (evidence_source(e) == "env") return e.text;
  std::string where = e.path;
  if (e.line > 0) where += ":" + std::to_string(e.line);
  return e.text.empty() ? where : where + "  " + e.text;
}

void print_finding(const Finding& f, const RenderOptions& o, const Style& st, std::ostream& out) {
  const Entry& e = *f.entry;
  const Lang lang = o.lang;
  const Severity sev = effective_severity(f);
  out << "      " << st.severity(sev, std::string(to_string(sev))) << "  " << st.bold(e.title.get(lang)) << "  "
      << st.cyan("[" + std::string(to_string(e.category)) + "]") << "  " << st.dim(e.id) << "\n";
  std::vector<std::string> fixes;
  for (const auto& ev : f.evidence) {
    out << "          " << evidence_text(ev) << "\n";
    std::string caps;
    for (const auto& [k, v] : ev.captures) {
      if (k == "fix") {
        fixes.push_back(v);
        continue;
      }
      caps += (caps.empty() ? "" : ", ") + k + "=" + v;
    }
    if (!caps.empty()) out << "            " << st.cyan(caps) << "\n";
  }
  if (sev != Severity::info) {
    out << "        " << ui::word(ui::Key::report_cause, lang) << ": " << e.cause_text().get(lang) << "\n";
    out << "        " << ui::word(ui::Key::report_remedies, lang) << ":\n";
    for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) {
      out << "          " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
    }
  }
  for (const auto& fix : fixes) out << "        " << st.bold(std::string(ui::word(ui::Key::check_fix, lang)) + ": " + fix) << "\n";
}

}  // namespace

void render_check_text(const CheckReport& r, const RenderOptions& o, std::ostream& out) {
  const Style st{{o.color}};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor check: root " + r.root + ", timeout " + std::to_string(r.timeout_ms) + " ms, " +
                r.kb_version)
      << "\n";
  for (const auto& s : r.steps) {
    out << "\n" << st.status(s.status()) << " " << ui::step_number(s.id) << ". " << st.bold(ui::step_title(s.id, lang)) << "  "
        << st.dim("(" + std::string(to_string(s.id)) + ")") << "\n";
    if (!s.facts.empty()) {
      std::string facts;
      for (const auto& [k, v] : s.facts) facts += (facts.empty() ? "" : " · ") + k + ": " + v;
      out << "      " << facts << "\n";
    }
    // What a finding shows is not repeated among the step's evidence.
    for (const auto& e : s.evidence) {
      const bool shown_below = std::any_of(s.findings.begin(), s.findings.end(), [&](const Finding& f) {
        return std::any_of(f.evidence.begin(), f.evidence.end(), [&](const Evidence& x) {
          return x.path == e.path && x.line == e.line && x.text == e.text;
        });
      });
      if (!shown_below) out << "      " << st.dim(evidence_text(e)) << "\n";
    }
    for (const auto& f : s.findings) print_finding(f, o, st, out);
  }
  out << "\n";
  if (r.steps.empty()) {
    out << ui::word(ui::Key::check_no_steps, lang) << "\n";
  } else if (r.status() == StepStatus::pass) {
    out << st.status(StepStatus::pass) << " " << ui::word(ui::Key::check_all_passed, lang) << "\n";
  } else {
    out << st.status(r.status()) << " " << ui::word(ui::Key::check_summary, lang) << ": "
        << r.count(StepStatus::fail) << " " << ui::word(ui::Key::check_failed, lang) << ", "
        << r.count(StepStatus::warn) << " " << ui::word(ui::Key::check_warnings, lang) << ", "
        << r.count(StepStatus::pass) << " " << ui::word(ui::Key::check_passed, lang) << ", "
        << r.count(StepStatus::skip) << " " << ui::word(ui::Key::check_skipped, lang) << "\n";
  }
}

}  // namespace npu_doctor::checks
