// `profile --html FILE`: one self-contained page, bar charts as inline SVG, no scripts,
// no fonts or styles fetched from anywhere, so it opens offline and in mail attachments.
// Its sections are also the profile part of the incident report (html_attachments.cpp).
#include <algorithm>
#include <cstdio>

#include "render/html_escape.hpp"
#include "profile_html.hpp"
#include "render/svg_bar_chart.hpp"
#include "profile.hpp"
#include "npu_doctor/version.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

using render_detail::html_escape;
using render_detail::svg_bar_chart;

std::string num(double v, int digits = 1) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string ms(double us) { return num(us / 1000.0, 3) + " ms"; }

void ops_section(const ProfileReport& r, const std::vector<const OpStat*>& ops, bool by_avg, Lang l, std::ostream& out) {
  std::vector<std::pair<std::string, double>> rows;
  std::vector<std::string> values;
  std::vector<bool> hot;
  for (const OpStat* o : ops) {
    rows.emplace_back(o->type + " (" + o->task_type + ")", by_avg ? o->avg_us() : o->total_us);
    values.push_back(by_avg ? ms(o->avg_us()) : ms(o->total_us) + "  " + num(o->share * 100) + "%");
    hot.push_back(o->is_ai_cpu());
  }
  out << "<h2>" << html_escape(ui::word(by_avg ? ui::Key::profile_top_by_avg : ui::Key::profile_top_by_total, l)) << "</h2>\n";
  svg_bar_chart(rows, values, hot, out);
  out << "<table><tr><th>" << html_escape(ui::word(ui::Key::profile_op_type, l)) << "</th><th>"
      << html_escape(ui::word(ui::Key::profile_task_type, l)) << "</th><th>" << html_escape(ui::word(ui::Key::profile_calls, l)) << "</th><th>"
      << html_escape(ui::word(ui::Key::profile_total, l)) << "</th><th>" << html_escape(ui::word(ui::Key::profile_average, l)) << "</th><th>"
      << html_escape(ui::word(ui::Key::profile_share, l)) << "</th></tr>\n";
  for (const OpStat* o : ops) {
    out << "<tr" << (o->is_ai_cpu() ? " class=\"hot\"" : "") << "><td>" << html_escape(o->type) << "</td><td>"
        << html_escape(o->task_type) << "</td><td>" << o->count << "</td><td>" << ms(o->total_us) << "</td><td>"
        << ms(o->avg_us()) << "</td><td>" << num(o->share * 100) << "%</td></tr>\n";
  }
  out << "</table>\n";
  (void)r;
}

}  // namespace

void render_profile_html(const ProfileReport& r, const RenderOptions& o, std::ostream& out) {
  const Lang l = o.lang;
  out << "<!DOCTYPE html>\n<html lang=\"" << (l == Lang::zh ? "zh" : "en") << "\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>npu-doctor profile</title>\n<style>\n"
      << "body{font-family:sans-serif;margin:2em;color:#222}h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
      << "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}\n"
      << render_detail::svg_bar_chart_style() << profile_sections_style() << "</style>\n</head>\n<body>\n";
  out << "<h1>npu-doctor profile</h1>\n";
  render_profile_sections(r, l, out);
  out << "</body>\n</html>\n";
}

std::string_view profile_sections_style() {
  return ".finding{border-left:4px solid #d9822b;padding:.3em .8em;margin:.6em 0;background:#fafafa}.ev{font-family:monospace}\n";
}

void render_profile_sections(const ProfileReport& r, Lang l, std::ostream& out) {
  out << "<p>npu-doctor " << html_escape(kVersion) << " &middot; "
      << html_escape(ui::word(ui::Key::profile_source, l)) << ": " << html_escape(r.ops_source.empty() ? "-" : r.ops_source) << "</p>\n";
  out << "<h2>" << html_escape(ui::word(ui::Key::profile_findings, l)) << "</h2>\n";
  if (r.findings.empty()) out << "<p>" << html_escape(ui::word(ui::Key::profile_no_findings, l)) << "</p>\n";
  for (const auto& f : r.findings) {
    out << "<div class=\"finding\"><p><b>" << html_escape(f.entry->title.get(l)) << "</b> <small>(" << html_escape(f.entry->id)
        << ")</small></p>\n";
    if (!f.evidence.empty()) out << "<p class=\"ev\">" << html_escape(f.first().text) << "</p>\n";
    out << "<p>" << html_escape(f.entry->cause_text().get(l)) << "</p>\n<ol>\n";
    for (const auto& rem : f.entry->remedy_texts()) out << "<li>" << html_escape(rem.get(l)) << "</li>\n";
    out << "</ol></div>\n";
  }
  if (!r.any_data()) out << "<p>" << html_escape(ui::word(ui::Key::profile_no_data, l)) << "</p>\n";
  if (!r.ops.empty()) {
    ops_section(r, r.top_by_total(), false, l, out);
    ops_section(r, r.top_by_average(), true, l, out);
  }
  if (r.time_split) {
    const TimeSplit& t = *r.time_split;
    out << "<h2>" << html_escape(ui::word(ui::Key::profile_time_split, l)) << " <small>(" << html_escape(t.source) << ")</small></h2>\n";
    const double tot = t.total_us > 0 ? t.total_us : 1;
    svg_bar_chart({{std::string(ui::word(ui::Key::profile_compute, l)), t.compute_us},
               {std::string(ui::word(ui::Key::profile_communication, l)), t.communication_us},
               {std::string(ui::word(ui::Key::profile_free_time, l)), t.free_us}},
              {ms(t.compute_us) + "  " + num(t.compute_us / tot * 100) + "%",
               ms(t.communication_us) + "  " + num(t.communication_us / tot * 100) + "%",
               ms(t.free_us) + "  " + num(t.free_us / tot * 100) + "%"},
              {false, false, t.free_us / tot > kFreeShareThreshold}, out);
  }
  if (!r.ranks.empty()) {
    out << "<h2>" << html_escape(ui::word(ui::Key::profile_ranks, l)) << "</h2>\n";
    std::vector<std::pair<std::string, double>> rows;
    std::vector<std::string> values;
    std::vector<bool> hot;
    for (const auto& x : r.ranks) {
      rows.emplace_back(std::string(ui::word(ui::Key::profile_rank, l)) + " " + x.rank, x.wait());
      values.push_back(num(x.wait() * 100) + "%");
      hot.push_back(x.wait() > kWaitRatioThreshold);
    }
    svg_bar_chart(rows, values, hot, out);
    if (r.communication) {
      const auto& v = *r.communication;
      out << "<p>";
      if (!v.slow_rank.empty()) out << html_escape(ui::word(ui::Key::profile_verdict_slow_rank, l)) << " <b>" << html_escape(v.slow_rank) << "</b>";
      else if (v.slow_link) out << html_escape(ui::word(ui::Key::profile_verdict_slow_link, l));
      else out << html_escape(ui::word(ui::Key::profile_verdict_ok, l));
      out << "</p>\n";
    }
  }
  if (!r.column_problems.empty()) {
    out << "<h2>" << html_escape(ui::word(ui::Key::profile_column_problems, l)) << "</h2>\n<ul>\n";
    for (const auto& p : r.column_problems) {
      out << "<li>" << html_escape(p.path) << ": " << html_escape(p.column) << " " << html_escape(p.problem);
      if (p.rows > 0) out << " (" << p.rows << ")";
      out << "</li>\n";
    }
    out << "</ul>\n";
  }
}

}  // namespace npu_doctor
