// The terminal report: root cause first (why, evidence with the lines before it,
// cause, numbered remedies), then the other findings grouped by category.
#include <map>

#include "npu_doctor/render.hpp"
#include "report_text.hpp"
#include "ui_text.hpp"
#include "terminal_style.hpp"

namespace npu_doctor {
namespace {

using render_detail::location;
using render_detail::short_label;
using ui::Text;

using Style = render_detail::TerminalStyle;

std::string human_bytes(uint64_t b) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

void print_evidence(const Evidence& e, const Style& st, std::ostream& out) {
  // Right-align the line numbers so the text columns line up.
  uint64_t last = e.line;
  if (!e.after.empty()) last = e.after.back().line;
  const std::size_t width = std::to_string(last).size();
  auto num = [&](uint64_t n) {
    std::string s = std::to_string(n);
    return std::string(width - std::min(width, s.size()), ' ') + s;
  };
  for (const auto& c : e.before) out << "            " << st.dim(num(c.line) + "  " + c.text) << "\n";
  out << "          " << st.bold("> " + num(e.line) + "  " + e.text) << "\n";
  for (const auto& c : e.after) out << "            " << st.dim(num(c.line) + "  " + c.text) << "\n";
  if (!e.captures.empty()) {
    std::string caps;
    for (const auto& [k, v] : e.captures) caps += (caps.empty() ? "" : ", ") + k + "=" + v;
    out << "            " << st.cyan(caps) << "\n";
  }
}

void print_root(const DiagnosisReport& r, const RenderOptions& o, const Style& st, std::ostream& out) {
  const Finding& f = *r.root_finding();
  const Entry& e = *f.entry;
  const Lang lang = o.lang;
  out << st.red(std::string(ui::get(Text::root_cause, lang)) + ": " + finding_title(f, lang)) << "  "
      << st.cyan("[" + std::string(to_string(e.category)) + (f.code.empty() ? "" : " · " + f.code) + "]") << "\n";
  out << "  " << ui::get(Text::why, lang) << "      " << root_cause_reason(r, lang) << "\n";
  const Evidence& ev = f.first();
  out << "  " << ui::get(Text::evidence, lang) << "  " << location(ev);
  if (ev.time) out << "  (" << ev.time->text << ")";
  if (f.count > 1) out << "  ×" << f.count;
  out << "\n";
  print_evidence(ev, st, out);
  if (r.root->explained) {
    const Finding& x = r.findings[*r.root->explained];
    out << "  " << ui::get(Text::evidence, lang) << "  " << location(x.first()) << "  ("
        << short_label(x, lang) << ")\n";
    print_evidence(x.first(), st, out);
  }
  out << "  " << ui::get(Text::cause, lang) << "     " << e.cause_text().get(lang) << "\n";
  out << "  " << ui::get(Text::remedies, lang) << "\n";
  for (std::size_t i = 0; i < e.remedy_texts().size(); ++i) {
    out << "    " << (i + 1) << ". " << e.remedy_texts()[i].get(lang) << "\n";
  }
}

std::string role_mark(const Finding& f, Lang lang) {
  switch (f.effective_role) {
    case Role::symptom: return std::string(ui::get(Text::symptom, lang));
    case Role::wrapper: return std::string(ui::get(Text::wrapper, lang));
    case Role::hint: return std::string(ui::get(Text::hint, lang));
    case Role::cause: break;
  }
  return std::string(to_string(effective_severity(f)));
}

void print_others(const DiagnosisReport& r, const RenderOptions& o, const Style& st, std::ostream& out) {
  const auto order = render_detail::presentation_order(r);
  const Lang lang = o.lang;
  bool header = false;
  std::optional<Category> current;
  for (std::size_t i : order) {
    if (r.root && i == r.root->finding) continue;
    const Finding& f = r.findings[i];
    if (!header) {
      out << "\n" << st.bold(std::string(ui::get(Text::other_findings, lang))) << "\n";
      header = true;
    }
    if (current != f.entry->category) {
      current = f.entry->category;
      out << "  " << st.cyan(std::string(to_string(*current))) << "\n";
    }
    const std::string mark = role_mark(f, lang);
    const bool muted = f.effective_role != Role::cause;
    std::string line = "    " + mark + std::string(mark.size() < 9 ? 9 - mark.size() : 1, ' ') + short_label(f, lang) +
                       "  " + location(f.first());
    if (f.count > 1) line += "  ×" + std::to_string(f.count);
    out << (muted ? st.dim(line) : line) << "\n";
    if (!f.symptom_of.empty()) {
      out << st.dim("             " + std::string(ui::get(Text::follows_from, lang)) + " " + f.symptom_of) << "\n";
    }
  }
}

void print_cluster(const DiagnosisReport& r, const RenderOptions& o, const Style& st, std::ostream& out) {
  if (!r.cluster) return;
  const auto& c = *r.cluster;
  const bool zh = o.lang == Lang::zh;
  std::string head = (zh ? "集群  " : "CLUSTER  ") + std::to_string(c.ranks) + (zh ? " 个 rank" : " ranks");
  if (c.culprit) {
    head += zh ? " · 源头 rank " : " · culprit rank ";
    head += std::to_string(c.culprit->rank);
    if (!c.culprit->host.empty()) head += " (" + c.culprit->host + ")";
  } else {
    head += zh ? " · 未能确定源头 rank" : " · no culprit rank";
  }
  head += (zh ? " · 置信度 " : " · confidence ") + c.confidence;
  out << "\n" << st.bold(head) << "\n  " << cluster_reason(c, o.lang) << "\n";
  if (c.culprit && !c.culprit->path.empty()) {
    out << "  " << st.dim(c.culprit->path + ":" + std::to_string(c.culprit->line) + "  " + c.culprit->text) << "\n";
  }
}

void print_input_problems(const DiagnosisReport& r, const RenderOptions& o, const Style& st, std::ostream& out) {
  bool header = false;
  for (const auto& in : r.inputs) {
    if (in.status == InputStatus::ok) continue;
    if (!header) {
      out << "\n" << st.bold(std::string(ui::get(Text::inputs_with_problems, o.lang))) << "\n";
      header = true;
    }
    out << "  " << st.yellow(std::string(to_string(in.status))) << "  " << in.path << ": " << in.note << "\n";
  }
}

}  // namespace

void render_diagnosis_text(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const Style st{o.color};
  uint64_t bytes = 0, lines = 0;
  for (const auto& in : r.inputs) {
    bytes += in.bytes;
    lines += in.lines;
  }
  const Lang lang = o.lang;
  const bool one = r.inputs.size() == 1 && lang == Lang::en;
  out << st.dim("npu-doctor: " + std::to_string(r.inputs.size()) + " " +
                std::string(one ? "input" : ui::get(Text::inputs_word, lang)) +
                ", " + human_bytes(bytes) + ", " + std::to_string(lines) + " " +
                std::string(ui::get(Text::lines_word, lang)) + ", " + std::to_string(r.findings.size()) + " " +
                std::string(ui::get(Text::findings_word, lang)) + " (" + r.kb_version + ", " +
                std::to_string(r.kb_entries) + " kb entries)")
      << "\n\n";
  if (r.root) {
    print_root(r, o, st, out);
  } else if (r.findings.empty()) {
    out << ui::get(Text::nothing_found, lang) << "\n";
  } else {
    out << ui::get(Text::no_root_cause, lang) << "\n";
  }
  print_cluster(r, o, st, out);
  print_others(r, o, st, out);
  print_input_problems(r, o, st, out);
}

}  // namespace npu_doctor
