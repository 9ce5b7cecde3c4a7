#include "findings_text.hpp"

#include <algorithm>
#include <cstdio>

#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::hccl {

std::string TextStyle::wrap(std::string_view code, std::string_view s) const {
  if (!on) return std::string(s);
  return "\x1b[" + std::string(code) + "m" + std::string(s) + "\x1b[0m";
}

std::string TextStyle::severity(Severity v, std::string_view s) const {
  switch (v) {
    case Severity::critical:
    case Severity::error: return red(s);
    case Severity::warning: return yellow(s);
    case Severity::info: return dim(s);
  }
  return std::string(s);
}

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string fixed(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", precision, v);
  return buf;
}

std::string evidence_location(const Evidence& e) {
  if (e.path.empty()) return {};
  return e.line > 0 ? e.path + ":" + std::to_string(e.line) : e.path;
}

void print_findings_text(const std::vector<Finding>& findings, const RenderOptions& o, std::ostream& out) {
  const TextStyle st{o.color};
  const Lang lang = o.lang;
  std::size_t errors = 0, warnings = 0;
  for (const auto& f : findings) {
    const Entry& e = *f.entry;
    const Severity sev = effective_severity(f);
    if (sev >= Severity::error) ++errors;
    else if (sev == Severity::warning) ++warnings;
    out << "\n" << st.severity(sev, std::string(to_string(sev))) << "  " << st.bold(e.title.get(lang)) << "  "
        << st.cyan("[" + std::string(to_string(e.category)) + "]") << "  " << st.dim(e.id);
    if (f.count > 1) out << st.dim("  ×" + std::to_string(f.count));
    out << "\n";
    std::vector<std::string> fixes;
    for (const auto& ev : f.evidence) {
      const std::string where = evidence_location(ev);
      out << "    " << (where.empty() ? "" : st.dim(where) + "  ") << ev.text << "\n";
      std::string values;
      for (const auto& [k, v] : ev.captures) {
        if (k == "fix") {
          if (std::find(fixes.begin(), fixes.end(), v) == fixes.end()) fixes.push_back(v);
          continue;
        }
        values += (values.empty() ? "" : ", ") + k + "=" + v;
      }
      if (!values.empty()) out << "      " << st.cyan(values) << "\n";
    }
    if (f.count > f.evidence.size()) {
      out << "    " << st.dim("... +" + std::to_string(f.count - f.evidence.size())) << "\n";
    }
    out << "  " << ui::word(ui::Key::report_cause, lang) << ": " << e.cause_text().get(lang) << "\n";
    out << "  " << ui::word(ui::Key::report_remedies, lang) << ":\n";
    for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) out << "    " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
    for (const auto& fix : fixes) out << "  " << st.bold(std::string(ui::word(ui::Key::hccl_fix, lang)) + ": " + fix) << "\n";
  }
  out << "\n";
  if (errors == 0 && warnings == 0) {
    out << st.green(std::string(ui::word(ui::Key::hccl_no_problems, lang))) << "\n";
  } else {
    const std::string line = std::string(ui::word(ui::Key::hccl_problems, lang)) + ": " + std::to_string(errors) + " " +
                             std::string(ui::word(ui::Key::hccl_errors, lang)) + ", " + std::to_string(warnings) + " " +
                             std::string(ui::word(ui::Key::hccl_warnings, lang));
    out << (errors > 0 ? st.red(line) : st.yellow(line)) << "\n";
  }
}

}  // namespace npu_doctor::hccl
