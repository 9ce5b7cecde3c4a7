// The cluster timeline: one row per rank, each distinct finding a mark at the time the
// rank first logged it, the span of its logs behind, the culprit and silent ranks
// highlighted, symptoms grey. Above kMaxRankRows ranks, one row per node whose marks are
// its ranks' earliest, opening (<details>) to the rank rows: 4,096 ranks stay one screen.
// Plain HTML and CSS (marks are positioned in percent), no script.
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>

#include "render/html_escape.hpp"
#include "html_sections.hpp"
#include "diagnosis/report_text.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::html {
namespace {

using render_detail::html_escape;

// e: a decisive error; s: a symptom (greyed); w: a warning, a hint, an error on a
// low-level line. x marks the culprit's decisive error.
struct Mark {
  int64_t t = 0;
  std::size_t legend = 0;  // 1-based number of the finding in the legend
  char kind = 'w';
  bool decisive = false;
  std::string time_text;
};

struct Row {
  int rank = -1;
  std::string host;
  std::vector<Mark> marks;
  std::optional<int64_t> first, last;
  std::string first_text, last_text;
  std::size_t untimed = 0;
  bool culprit = false, silent = false, missing = false;
};

struct Range {
  int64_t t0 = 0, t1 = 0;
  std::string t0_text, t1_text;
  bool any = false;
  void add(int64_t t, const std::string& text) {
    if (!any || t < t0) t0 = t, t0_text = text;
    if (!any || t > t1) t1 = t, t1_text = text;
    any = true;
  }
};

std::string pct(int64_t t, const Range& range) {
  const double span = static_cast<double>(std::max<int64_t>(range.t1 - range.t0, 1));
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", static_cast<double>(t - range.t0) / span * 100.0);
  return buf;
}

// "+31:11.425" (or "+1:02:03.004"): a mark's time after the start of the axis, short
// because thousands of marks carry it.
std::string offset_text(int64_t us) {
  const auto ms = static_cast<long long>(us / 1000);
  char buf[40];
  if (ms >= 3'600'000) std::snprintf(buf, sizeof buf, "+%lld:%02lld:%02lld.%03lld", ms / 3'600'000, ms / 60'000 % 60, ms / 1000 % 60, ms % 1000);
  else std::snprintf(buf, sizeof buf, "+%lld:%02lld.%03lld", ms / 60'000, ms / 1000 % 60, ms % 1000);
  return buf;
}

std::string duration_text(int64_t us) {
  const int64_t s = us / 1'000'000;
  char buf[48];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lldh %02lldm", static_cast<long long>(s / 3600), static_cast<long long>(s % 3600 / 60));
  else if (s >= 60) std::snprintf(buf, sizeof buf, "%lldm %02llds", static_cast<long long>(s / 60), static_cast<long long>(s % 60));
  else std::snprintf(buf, sizeof buf, "%.3fs", static_cast<double>(us) / 1e6);
  return buf;
}

// The findings on the timeline, numbered for the legend, with the kind of their marks.
struct Legend {
  std::map<std::pair<const Entry*, std::string>, std::size_t> number;  // (entry, code) -> 1-based
  std::vector<std::pair<const Finding*, char>> items;
};

char kind_of(const Finding& f) {
  if (f.effective_role == Role::symptom) return 's';
  if (f.effective_role == Role::cause && effective_severity(f) >= Severity::error) return 'e';
  return 'w';
}

Legend make_legend(const DiagnosisReport& r) {
  Legend l;
  for (std::size_t i : render_detail::presentation_order(r)) {
    const Finding& f = r.findings[i];
    l.items.emplace_back(&f, kind_of(f));
    l.number[{f.entry, f.code}] = l.items.size();
  }
  return l;
}

std::vector<Row> rank_rows(const DiagnosisReport& r, const Legend& legend, Range& range) {
  const ClusterDecision& c = *r.cluster;
  // Stamps without a year ("0302 10:31:08" from glog) cannot be compared with dated ones:
  // when any stamp has a year, those without are left off the axis.
  bool dated = false;
  for (const auto& in : r.inputs) {
    dated = dated || (in.timeline.first_time && in.timeline.first_time->has_year);
  }
  const auto usable = [dated](const std::optional<Timestamp>& t) { return t && (t->has_year || !dated); };
  std::map<int, Row> rows;
  for (std::size_t index = 0; index < r.inputs.size(); ++index) {
    const InputReport& in = r.inputs[index];
    if (!in.rank || !render_detail::in_shown_incident(r, index)) continue;  // the incident shown only
    Row& row = rows[*in.rank];
    row.rank = *in.rank;
    if (row.host.empty()) row.host = in.host;
    const auto& tl = in.timeline;
    if (usable(tl.first_time) && (!row.first || tl.first_time->micros < *row.first)) row.first = tl.first_time->micros, row.first_text = tl.first_time->text;
    if (usable(tl.last_time) && (!row.last || tl.last_time->micros > *row.last)) row.last = tl.last_time->micros, row.last_text = tl.last_time->text;
    for (const auto& ev : tl.events) {
      if (!usable(ev.time)) {
        ++row.untimed;
        continue;
      }
      auto it = legend.number.find({ev.entry, ev.code});
      if (it == legend.number.end()) it = legend.number.find({ev.entry, std::string()});
      if (it == legend.number.end()) continue;  // not a finding of the report (merged away)
      char kind = legend.items[it->second - 1].second;
      if (kind == 'e' && ev.low_level) kind = 'w';
      auto same = std::find_if(row.marks.begin(), row.marks.end(), [&](const Mark& m) { return m.legend == it->second; });
      if (same != row.marks.end()) {
        if (ev.time->micros < same->t) same->t = ev.time->micros, same->time_text = ev.time->text;
        continue;
      }
      row.marks.push_back({ev.time->micros, it->second, kind, false, ev.time->text});
    }
  }
  for (int m : c.missing_ranks) {
    Row& row = rows[m];
    row.rank = m;
    row.missing = true;
  }
  const std::set<int> silent(c.silent_ranks.begin(), c.silent_ranks.end());
  for (auto& [rank, row] : rows) {
    row.silent = silent.count(rank) > 0;
    row.culprit = c.culprit && c.culprit->rank == rank;
    if (row.culprit && c.culprit->entry != nullptr) {
      for (auto& m : row.marks) {
        const auto& [f, kind] = legend.items[m.legend - 1];
        if (f->entry == c.culprit->entry) m.decisive = true;
      }
    }
    for (const auto& m : row.marks) range.add(m.t, m.time_text);
    if (row.first) range.add(*row.first, row.first_text);
    if (row.last) range.add(*row.last, row.last_text);
  }
  std::vector<Row> out;
  out.reserve(rows.size());
  for (auto& [rank, row] : rows) out.push_back(std::move(row));
  return out;
}

std::string row_class(const Row& row) {
  std::string cls = "r";
  if (row.culprit) cls += " c";
  else if (row.silent) cls += " q";
  if (row.missing) cls += " n";
  return cls;
}

void track(const Row& row, const Range& range, std::ostream& out) {
  out << "<span class=\"t\">";
  if (row.first && row.last) {
    out << "<i class=\"sp\" style=\"left:" << pct(*row.first, range) << "%;width:" << pct(range.t0 + (*row.last - *row.first), range)
        << "%\"></i>";
  }
  for (const auto& m : row.marks) {
    out << "<i class=\"m " << m.kind << (m.decisive ? " x" : "") << "\" style=\"left:" << pct(m.t, range) << "%\" title=\""
        << m.legend << " · " << offset_text(m.t - range.t0) << "\"></i>";
  }
  out << "</span>";
}

void rank_row(const Row& row, const Range& range, Lang lang, std::ostream& out) {
  out << "<div class=\"" << row_class(row) << "\" data-rank=\"" << row.rank << "\"><span class=\"l\">"
      << html_escape(ui::word(ui::Key::html_rank, lang)) << " " << row.rank;
  if (!row.host.empty()) out << " <small>" << html_escape(row.host) << "</small>";
  if (row.missing) out << " <small>" << html_escape(ui::word(ui::Key::html_no_logs, lang)) << "</small>";
  out << "</span>";
  track(row, range, out);
  out << "</div>\n";
}

// A node's row: its ranks' earliest mark per finding, its ranks' log span.
Row node_row(const std::vector<const Row*>& ranks) {
  Row node;
  for (const Row* r : ranks) {
    node.culprit = node.culprit || r->culprit;
    node.silent = node.silent || r->silent;
    if (r->first && (!node.first || *r->first < *node.first)) node.first = r->first;
    if (r->last && (!node.last || *r->last > *node.last)) node.last = r->last;
    for (const auto& m : r->marks) {
      auto same = std::find_if(node.marks.begin(), node.marks.end(), [&](const Mark& n) { return n.legend == m.legend; });
      if (same == node.marks.end()) node.marks.push_back(m);
      else if (m.t < same->t || (m.decisive && !same->decisive)) *same = m;
    }
  }
  return node;
}

void node_groups(const std::vector<Row>& rows, const Range& range, Lang lang, std::ostream& out) {
  // Ranks without a host name are grouped by eight (a node's usual NPU count).
  std::map<std::string, std::vector<const Row*>> groups;
  std::vector<std::string> order;
  for (const auto& row : rows) {
    std::string key = row.host;
    if (key.empty()) {
      const int first = row.rank / 8 * 8;
      key = ui::word(ui::Key::html_rank, lang);
      key += " " + std::to_string(first) + "–" + std::to_string(first + 7);
    }
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) order.push_back(key);
    it->second.push_back(&row);
  }
  for (const auto& key : order) {
    const auto& ranks = groups[key];
    const Row node = node_row(ranks);
    std::size_t silent = 0, missing = 0;
    for (const Row* r : ranks) silent += r->silent ? 1 : 0, missing += r->missing ? 1 : 0;
    out << "<details class=\"g\"" << (node.culprit ? " open" : "") << "><summary class=\"" << row_class(node)
        << "\" data-node=\"" << html_escape(key) << "\"><span class=\"l\">" << html_escape(key) << " <small>" << ranks.size()
        << " " << html_escape(ui::word(ui::Key::html_ranks, lang));
    if (silent) out << ", " << silent << " " << html_escape(ui::word(ui::Key::html_silent_ranks, lang));
    if (missing) out << ", " << missing << " " << html_escape(ui::word(ui::Key::html_no_logs, lang));
    out << "</small></span>";
    track(node, range, out);
    out << "</summary>\n";
    for (const Row* r : ranks) rank_row(*r, range, lang, out);
    out << "</details>\n";
  }
}

void legend_list(const Legend& legend, Lang lang, std::ostream& out) {
  out << "<p class=\"lg\"><span><i class=\"m e\"></i>" << html_escape(ui::word(ui::Key::html_error_mark, lang)) << "</span><span><i class=\"m s\"></i>"
      << html_escape(ui::word(ui::Key::html_symptom_mark, lang)) << "</span><span><i class=\"m w\"></i>" << html_escape(ui::word(ui::Key::html_other_mark, lang))
      << "</span><span><i class=\"sp\"></i>" << html_escape(ui::word(ui::Key::html_log_span, lang)) << "</span><span class=\"c\">"
      << html_escape(ui::word(ui::Key::html_culprit, lang)) << "</span><span class=\"q\">" << html_escape(ui::word(ui::Key::html_silent, lang))
      << "</span></p>\n<ol class=\"lgf\">";
  for (const auto& [f, kind] : legend.items) {
    out << "<li><i class=\"m " << kind << "\"></i>" << html_escape(render_detail::short_label(*f, lang)) << "</li>";
  }
  out << "</ol>\n";
}

}  // namespace

void timeline(const DiagnosisReport& r, Lang lang, std::ostream& out) {
  if (!r.cluster) return;
  const Legend legend = make_legend(r);
  Range range;
  const std::vector<Row> rows = rank_rows(r, legend, range);
  if (rows.empty()) return;
  std::size_t untimed = 0;
  for (const auto& row : rows) untimed += row.untimed;
  const bool per_node = rows.size() > kMaxRankRows;
  out << "<h2 id=\"timeline\">" << html_escape(ui::word(ui::Key::html_timeline, lang)) << "</h2>\n";
  if (per_node) out << "<p class=\"muted\">" << html_escape(ui::word(ui::Key::html_timeline_per_node, lang)) << "</p>\n";
  legend_list(legend, lang, out);
  out << "<div class=\"tl" << (per_node ? " nodes" : "") << "\" data-rows=\"" << rows.size() << "\">\n";
  if (range.any) {
    out << "<div class=\"r ax\"><span class=\"l\"></span><span class=\"t\"><b class=\"a0\">" << html_escape(range.t0_text)
        << "</b><b class=\"a1\">" << html_escape(range.t1_text) << " (+" << duration_text(range.t1 - range.t0) << ")</b></span></div>\n";
  }
  if (per_node) {
    node_groups(rows, range, lang, out);
  } else {
    for (const auto& row : rows) rank_row(row, range, lang, out);
  }
  out << "</div>\n";
  if (untimed > 0) out << "<p class=\"muted\">" << untimed << " " << html_escape(ui::word(ui::Key::html_untimed, lang)) << "</p>\n";
}

std::string_view timeline_style() {
  return R"css(
.tl{font-size:12px;border:1px solid #ccc;margin:.5em 0}
.tl .r{display:flex;align-items:center;min-height:18px;border-bottom:1px solid #eee}
.tl .l{flex:0 0 16em;overflow:hidden;white-space:nowrap;text-overflow:ellipsis;padding:0 .4em}
.tl .t{position:relative;flex:1;height:18px;margin-right:8px}
.tl .ax .t b{position:absolute;top:2px;font-weight:normal;color:#555}.tl .ax .a0{left:0}.tl .ax .a1{right:0}
.sp{position:absolute;top:8px;height:3px;background:#9fb7d9;display:inline-block}
.m{position:absolute;top:3px;width:8px;height:12px;margin-left:-4px;border-radius:2px;display:inline-block}
.m.e{background:#c0392b}.m.s{background:#b0b0b0}.m.w{background:#e0a526}.m.x{outline:2px solid #111;z-index:1}
.tl .r.c{background:#ff9f9f}.tl .r.q{background:#ffe27a}.tl .r.n .l{color:#888;font-style:italic}
.g summary{list-style:none;cursor:pointer}.g summary::-webkit-details-marker{display:none}
.g summary .l::before{content:"▸ "}.g[open] summary .l::before{content:"▾ "}.g .r[data-rank] .l{padding-left:1.6em}
.lg span{display:inline-block;margin-right:1.2em;font-size:.85em;position:relative;padding-left:14px}
.lg span.c,.lg span.q{padding:0 .4em}.lg .c{background:#ff9f9f}.lg .q{background:#ffe27a}
.lg .m,.lg .sp,.lgf .m{left:0}.lg .sp{width:10px}
.lgf{font-size:.85em;columns:2}.lgf li{position:relative;padding-left:14px}
)css";
}

}  // namespace npu_doctor::html
