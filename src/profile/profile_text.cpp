// `profile` on a terminal: findings first, then the rankings, the time split, the ranks.
#include <cstdio>

#include "profile.hpp"
#include "render/terminal_style.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {


std::string us(double v) {  // 1234.5 -> "1.23 ms"
  char buf[48];
  if (v >= 1e6) std::snprintf(buf, sizeof buf, "%.2f s", v / 1e6);
  else if (v >= 1e3) std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e3);
  else std::snprintf(buf, sizeof buf, "%.1f us", v);
  return buf;
}

std::string pct(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", share * 100);
  return buf;
}

std::string pad(std::string s, std::size_t w, bool right = false) {
  if (s.size() > w) s = s.substr(0, w > 1 ? w - 1 : w) + (w > 1 ? "~" : "");
  const std::string fill(w - s.size(), ' ');
  return right ? fill + s : s + fill;
}

using Style = render_detail::TerminalStyle;

void op_table(const std::vector<const OpStat*>& ops, Lang l, const Style& st, std::ostream& out) {
  out << "  " << pad(std::string(ui::word(ui::Key::profile_op_type, l)), 28) << pad(std::string(ui::word(ui::Key::profile_task_type, l)), 16)
      << pad(std::string(ui::word(ui::Key::profile_calls, l)), 9, true) << pad(std::string(ui::word(ui::Key::profile_total, l)), 12, true)
      << pad(std::string(ui::word(ui::Key::profile_average, l)), 12, true) << pad(std::string(ui::word(ui::Key::profile_share, l)), 8, true)
      << "\n";
  for (const OpStat* o : ops) {
    std::string line = "  " + pad(o->type, 28) + pad(o->task_type, 16) + pad(std::to_string(o->count), 9, true) +
                       pad(us(o->total_us), 12, true) + pad(us(o->avg_us()), 12, true) + pad(pct(o->share), 8, true);
    if (o->is_ai_cpu()) line += "  " + st.yellow("<- " + std::string(ui::word(ui::Key::profile_ai_cpu_flag, l)));
    out << line << "\n";
  }
}

}  // namespace

void render_profile_text(const ProfileReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang l = o.lang;
  const Style st{o.color};
  out << st.bold(std::string(ui::word(ui::Key::profile_findings, l))) << "\n";
  if (r.findings.empty()) out << "  " << ui::word(ui::Key::profile_no_findings, l) << "\n";
  for (const auto& f : r.findings) {
    out << "  " << st.yellow("[" + std::string(to_string(effective_severity(f))) + "]") << " " << f.entry->title.get(l)
        << "  (" << f.entry->id << ")\n";
    if (!f.evidence.empty()) out << "      " << f.first().text << "\n";
    out << "      " << f.entry->cause_text().get(l) << "\n";
    int n = 0;
    for (const auto& rem : f.entry->remedy_texts()) out << "      " << ++n << ". " << rem.get(l) << "\n";
  }
  if (!r.any_data()) {
    out << "\n" << ui::word(ui::Key::profile_no_data, l) << "\n";
  }
  if (!r.ops.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_title, l))) << "  (" << ui::word(ui::Key::profile_source, l) << ": "
        << r.ops_source << ", " << us(r.total_task_us) << ")\n";
    out << " " << ui::word(ui::Key::profile_top_by_total, l) << "\n";
    op_table(r.top_by_total(), l, st, out);
    out << " " << ui::word(ui::Key::profile_top_by_avg, l) << "\n";
    op_table(r.top_by_average(), l, st, out);
  }
  if (r.time_split) {
    const TimeSplit& t = *r.time_split;
    const double tot = t.total_us > 0 ? t.total_us : 1;
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_time_split, l))) << "  (" << ui::word(ui::Key::profile_source, l) << ": "
        << t.source << ")\n";
    out << "  " << pad(std::string(ui::word(ui::Key::profile_compute, l)), 16) << pad(us(t.compute_us), 12, true)
        << pad(pct(t.compute_us / tot), 8, true) << "\n";
    out << "  " << pad(std::string(ui::word(ui::Key::profile_communication, l)), 16) << pad(us(t.communication_us), 12, true)
        << pad(pct(t.communication_us / tot), 8, true) << "\n";
    if (t.overlapped_us > 0) {
      out << "  " << pad(std::string(ui::word(ui::Key::profile_overlapped, l)), 16) << pad(us(t.overlapped_us), 12, true) << "\n";
    }
    out << "  " << pad(std::string(ui::word(ui::Key::profile_free_time, l)), 16) << pad(us(t.free_us), 12, true)
        << pad(pct(t.free_us / tot), 8, true) << (t.free_known ? "" : "  (" + std::string(ui::word(ui::Key::profile_approximate, l)) + ")")
        << "\n";
  }
  if (!r.ranks.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_ranks, l))) << "\n";
    out << "  " << pad(std::string(ui::word(ui::Key::profile_rank, l)), 8) << pad(std::string(ui::word(ui::Key::profile_compute, l)), 12, true)
        << pad(std::string(ui::word(ui::Key::profile_communication, l)), 14, true) << pad(std::string(ui::word(ui::Key::profile_free_time, l)), 12, true)
        << pad(std::string(ui::word(ui::Key::profile_exposed, l)), 14, true) << pad(std::string(ui::word(ui::Key::profile_wait, l)), 9, true)
        << "\n";
    for (const auto& x : r.ranks) {
      out << "  " << pad(x.rank, 8) << pad(us(x.computing_us), 12, true) << pad(us(x.communication_us), 14, true)
          << pad(us(x.free_us), 12, true) << pad(pct(x.exposed_share), 14, true)
          << pad(x.wait_ratio ? pct(*x.wait_ratio) : "-", 9, true) << "\n";
    }
    if (r.communication) {
      const auto& v = *r.communication;
      out << "  -> ";
      if (!v.slow_rank.empty()) out << st.yellow(std::string(ui::word(ui::Key::profile_verdict_slow_rank, l)) + " " + v.slow_rank);
      else if (v.slow_link) out << st.yellow(std::string(ui::word(ui::Key::profile_verdict_slow_link, l)));
      else out << ui::word(ui::Key::profile_verdict_ok, l);
      out << "\n";
    }
  }
  const CompileSigns& c = r.compile;
  if (c.dynamic_tasks + c.static_tasks > 0 || c.compile_calls > 0) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_compile_signs, l))) << "\n";
    if (c.dynamic_tasks + c.static_tasks > 0) {
      out << "  " << ui::word(ui::Key::profile_dynamic_tasks, l) << ": " << c.dynamic_tasks << ", " << ui::word(ui::Key::profile_static_tasks, l)
          << ": " << c.static_tasks << "\n";
    }
    if (c.compile_calls > 0) {
      out << "  " << ui::word(ui::Key::profile_compile_time, l) << ": " << us(c.compile_us) << " (" << c.compile_calls << " "
          << ui::word(ui::Key::profile_calls, l) << (c.compile_share ? ", " + pct(*c.compile_share) : std::string()) << ")\n";
    }
  }
  if (!r.column_problems.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_column_problems, l))) << "\n";
    for (const auto& p : r.column_problems) {
      out << "  " << p.path << ": ";
      if (p.problem == "missing") out << "column '" << p.column << "' missing";
      else if (p.problem == "short rows") out << p.rows << " short row(s), first at line " << p.first_line << " (" << p.example << ")";
      else out << "column '" << p.column << "': " << p.rows << " non-numeric cell(s), first at line " << p.first_line
               << " (\"" << p.example << "\")";
      out << "\n";
    }
  }
  bool header = false;
  for (const auto& in : r.inputs) {
    if (in.report.status == InputStatus::ok && in.report.note.empty()) continue;
    if (!header) out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_inputs, l))) << "\n";
    header = true;
    out << "  " << in.report.path << " [" << in.kind << ", " << to_string(in.report.status) << "] " << in.report.note << "\n";
  }
  if (!r.skipped.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::profile_skipped, l))) << "\n";
    for (const auto& s : r.skipped) out << "  " << s.path << ": " << s.note << "\n";
  }
}

}  // namespace npu_doctor
