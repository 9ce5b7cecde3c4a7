// The terminal report: the shown incident in full (root cause first: why, evidence with
// the lines before it, cause, numbered remedies; then what follows from it, the
// independent errors, the other findings), then a table of the other incidents. Lines fit
// the width (RenderOptions::width); paths are shown by what distinguishes them.

#include "incident_text.hpp"
#include "render.hpp"
#include "report_text.hpp"
#include "root_cause_reason.hpp"
#include "render/terminal_style.hpp"
#include "render/text_layout.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor {
namespace {

using render_detail::display_width;
using render_detail::fit_width;
using render_detail::PathNames;
using render_detail::Relation;
using render_detail::short_label;
using render_detail::wrap_text;
using ui::Key;

using Style = render_detail::TerminalStyle;

constexpr std::size_t kLabel = 12;  // where the text after "  why", "  evidence" ... starts

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

// "  why       " : a label padded to the text column.
std::string label(std::string_view word) {
  std::string s = "  " + std::string(word);
  const std::size_t w = display_width(s);
  return s + std::string(w < kLabel ? kLabel - w : 1, ' ');
}

struct Ctx {
  const DiagnosisReport& report;
  const RenderOptions& o;
  const Style& st;
  const PathNames& names;
  std::ostream& out;

  std::size_t width() const { return o.width; }
  // A labelled paragraph wrapped at the text column.
  void paragraph(std::string_view word, std::string_view text) const {
    out << label(word) << wrap_text(text, width(), kLabel, kLabel) << "\n";
  }
};

// One incident's findings and verdicts (the report's own for the shown one).
struct View {
  const std::vector<Finding>& findings;
  const std::optional<RootCauseDecision>& root;
  const std::optional<ClusterDecision>& cluster;
};

void print_evidence(const Ctx& c, const Evidence& e) {
  // Right-align the line numbers so the text columns line up.
  uint64_t last = e.line;
  if (!e.after.empty()) last = e.after.back().line;
  const std::size_t digits = std::to_string(last).size();
  auto num = [&](uint64_t n) {
    std::string s = std::to_string(n);
    return std::string(digits - std::min(digits, s.size()), ' ') + s;
  };
  auto fit = [&](const std::string& s) { return fit_width(s, c.width()); };
  for (const auto& b : e.before) c.out << c.st.dim(fit(std::string(kLabel, ' ') + num(b.line) + "  " + b.text)) << "\n";
  c.out << c.st.bold(fit(std::string(kLabel - 2, ' ') + "> " + num(e.line) + "  " + e.text)) << "\n";
  for (const auto& a : e.after) c.out << c.st.dim(fit(std::string(kLabel, ' ') + num(a.line) + "  " + a.text)) << "\n";
  if (!e.captures.empty()) {
    std::string caps;
    for (const auto& [k, v] : e.captures) caps += (caps.empty() ? "" : ", ") + k + "=" + v;
    c.out << std::string(kLabel, ' ') << c.st.cyan(wrap_text(caps, c.width(), kLabel, kLabel)) << "\n";
  }
}

// "rank 25 waited for rank 24: read rank 24's logs first", when a line names the peer.
std::optional<std::string> peer_sentence(const Ctx& c, const View& v, const Finding& f) {
  const auto w = render_detail::peer_wait(v.findings, c.report.inputs, f);
  if (!w) return std::nullopt;
  const std::string who = w->rank ? "rank " + std::to_string(*w->rank) : std::string(ui::word(Key::report_this_rank, c.o.lang));
  return ui::text(Key::report_waited_read_first, c.o.lang, fmt::arg("who", who), fmt::arg("peer", w->peer));
}

void print_root(const Ctx& c, const View& v) {
  const Finding& f = v.findings[v.root->finding];
  const Entry& e = *f.entry;
  const Lang lang = c.o.lang;
  c.out << c.st.red(std::string(ui::word(Key::report_root_cause, lang)) + ": " + finding_title(f, lang)) << "  "
        << c.st.cyan("[" + std::string(to_string(e.category)) + (f.code.empty() ? "" : " · " + f.code) + "]") << "\n";
  c.paragraph(ui::word(Key::report_why, lang), render_detail::reason_text(v.findings, v.root, v.cluster, lang, &c.names));
  const Evidence& ev = f.first();
  std::string where = c.names.location(ev);
  if (ev.time) where += "  (" + ev.time->text + ")";
  if (f.count > 1) where += "  ×" + std::to_string(f.count);
  c.paragraph(ui::word(Key::report_evidence, lang), where);
  print_evidence(c, ev);
  if (!v.root->same_line.empty()) {
    std::string labels;
    for (std::size_t i : v.root->same_line) labels += (labels.empty() ? "" : "; ") + short_label(v.findings[i], lang);
    c.paragraph(ui::word(Key::report_same_line, lang), labels);
  }
  if (const auto peer = peer_sentence(c, v, f)) c.paragraph(ui::word(Key::report_peer, lang), *peer);
  if (v.root->explained) {
    const Finding& x = v.findings[*v.root->explained];
    if (x.first().input != ev.input || x.first().line != ev.line) {
      c.paragraph(ui::word(Key::report_evidence, lang), c.names.location(x.first()) + "  (" + short_label(x, lang) + ")");
      print_evidence(c, x.first());
    }
  }
  c.paragraph(ui::word(Key::report_cause, lang), finding_cause(f, lang));
  c.out << "  " << ui::word(Key::report_remedies, lang) << "\n";
  const std::vector<std::string> remedies = finding_remedies(f, lang);
  for (std::size_t i = 0; i < remedies.size(); ++i) {
    const std::string num = "    " + std::to_string(i + 1) + ". ";
    c.out << num << wrap_text(remedies[i], c.width(), num.size(), num.size()) << "\n";
  }
}

std::string role_mark(const Finding& f, Lang lang) {
  if (f.expected) return std::string(ui::word(Key::report_role_expected, lang));
  switch (f.effective_role) {
    case Role::symptom: return std::string(ui::word(Key::report_role_symptom, lang));
    case Role::wrapper: return std::string(ui::word(Key::report_role_wrapper, lang));
    case Role::hint: return std::string(ui::word(Key::report_role_hint, lang));
    case Role::cause: break;
  }
  return std::string(to_string(effective_severity(f)));
}

// The findings of one relation, grouped by category.
void print_section(const Ctx& c, const View& v, Relation which, Key heading) {
  const Lang lang = c.o.lang;
  bool header = false;
  std::optional<Category> current;
  for (std::size_t i : render_detail::presentation_order(v.findings, v.root)) {
    if (v.root && i == v.root->finding) continue;
    if (render_detail::relation_of(v.root, i) != which) continue;
    const Finding& f = v.findings[i];
    if (!header) {
      c.out << "\n" << c.st.bold(std::string(ui::word(heading, lang))) << "\n";
      header = true;
    }
    if (current != f.entry->category) {
      current = f.entry->category;
      c.out << "  " << c.st.cyan(std::string(to_string(*current))) << "\n";
    }
    const std::string mark = role_mark(f, lang);
    const std::size_t mw = display_width(mark);
    std::string text = short_label(f, lang) + "  " + c.names.location(f.first());
    if (f.count > 1) text += "  ×" + std::to_string(f.count);
    if (f.expected) text += "  (" + render_detail::expected_note(f, lang) + ")";
    if (which != Relation::context) {
      if (const auto w = render_detail::peer_wait(v.findings, c.report.inputs, f)) {
        text += "  (" + ui::text(Key::report_waited_for, lang, fmt::arg("peer", w->peer)) + ")";
      }
    }
    const std::string line = "    " + mark + std::string(mw < 9 ? 9 - mw : 1, ' ');
    const std::string body = line + wrap_text(text, c.width(), display_width(line), 13);
    c.out << (f.effective_role != Role::cause && which != Relation::independent ? c.st.dim(body) : body) << "\n";
  }
}

void print_cluster(const Ctx& c, const View& v) {
  if (!v.cluster) return;
  const auto& cl = *v.cluster;
  const Lang lang = c.o.lang;
  std::string head = ui::text(Key::report_cluster_head, lang, fmt::arg("ranks", cl.ranks)) + " · ";
  if (cl.culprit) {
    head += ui::text(Key::report_cluster_culprit, lang, fmt::arg("rank", cl.culprit->rank));
    if (!cl.culprit->host.empty()) head += " (" + cl.culprit->host + ")";
  } else {
    head += ui::word(Key::report_cluster_no_culprit, lang);
  }
  head += " · " + ui::text(Key::report_cluster_confidence, lang, fmt::arg("confidence", cl.confidence));
  c.out << "\n" << c.st.bold(head) << "\n";
  // The why above already says it when the culprit decided the root cause.
  if (!v.root || v.root->basis != RootCauseDecision::Basis::cluster_culprit) {
    c.out << "  " << wrap_text(cluster_reason(cl, c.o.lang), c.width(), 2, 2) << "\n";
  }
  if (cl.culprit && !cl.culprit->path.empty()) {
    c.out << c.st.dim(fit_width("  " + c.names.shorten(cl.culprit->path) + ":" + std::to_string(cl.culprit->line) + "  " +
                                    cl.culprit->text,
                                c.width()))
          << "\n";
  }
}

// Scanned inputs that were empty files: how many, and the first one's path.
struct EmptyInputs {
  std::size_t count = 0;
  std::string first;
};

EmptyInputs empty_inputs(const DiagnosisReport& r) {
  EmptyInputs out;
  for (const auto& in : r.inputs) {
    if (in.status != InputStatus::ok || in.bytes != 0 || in.kind == "path") continue;
    if (out.count++ == 0) out.first = in.path;
  }
  return out;
}

void print_input_problems(const Ctx& c) {
  bool header = false;
  for (const auto& in : c.report.inputs) {
    const bool empty = in.status == InputStatus::ok && in.bytes == 0 && in.kind != "path";
    if (in.status == InputStatus::ok && !empty) continue;
    if (!header) {
      c.out << "\n" << c.st.bold(std::string(ui::word(Key::report_inputs_with_problems, c.o.lang))) << "\n";
      header = true;
    }
    const std::string status = empty ? std::string(ui::word(Key::report_empty, c.o.lang)) : std::string(to_string(in.status));
    const std::string note = empty ? std::string(ui::word(Key::report_file_is_empty, c.o.lang)) : in.note;
    const std::string head = "  " + status + "  ";
    c.out << "  " << c.st.yellow(status) << "  "
          << wrap_text(c.names.shorten(in.path) + ": " + note, c.width(), display_width(head), display_width(head) + 2)
          << "\n";
  }
}

void print_body(const Ctx& c, const View& v) {
  const Lang lang = c.o.lang;
  if (v.root) {
    print_root(c, v);
  } else if (v.findings.empty()) {
    const auto empty = empty_inputs(c.report);
    std::size_t scanned = 0;
    for (const auto& in : c.report.inputs) scanned += in.status == InputStatus::ok || in.status == InputStatus::partial;
    if (empty.count > 0 && empty.count == scanned) {
      c.out << (scanned == 1 ? ui::text(Key::report_input_is_empty, lang, fmt::arg("path", c.names.shorten(empty.first)))
                             : ui::text(Key::report_inputs_are_empty, lang, fmt::arg("n", scanned)))
            << "\n";
    } else {
      c.out << ui::word(Key::report_nothing_found, lang) << "\n";
    }
  } else {
    c.out << ui::word(Key::report_no_root_cause, lang) << "\n";
  }
  print_cluster(c, v);
  print_section(c, v, Relation::symptom, Key::report_section_follows);
  print_section(c, v, Relation::independent, Key::report_section_independent);
  print_section(c, v, Relation::context, Key::report_other_findings);
}

}  // namespace

void render_diagnosis_text(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  const Style st{o.color};
  const PathNames names(r.inputs);
  const Ctx c{r, o, st, names, out};
  uint64_t bytes = 0, lines = 0;
  for (const auto& in : r.inputs) {
    bytes += in.bytes;
    lines += in.lines;
  }
  const Lang lang = o.lang;
  const bool one = r.inputs.size() == 1 && lang == Lang::en;
  std::string head = "npu-doctor: " + std::to_string(r.inputs.size()) + " " +
                     std::string(one ? "input" : ui::word(Key::report_unit_inputs, lang));
  if (!names.common().empty() && r.inputs.size() > 1) head += " " + std::string(ui::word(Key::report_under, lang)) + " " + names.common();
  if (r.incidents.size() > 1) head += ", " + std::to_string(r.incidents.size()) + " " + std::string(ui::word(Key::report_unit_incidents, lang));
  head += ", " + human_bytes(bytes) + ", " + std::to_string(lines) + " " + std::string(ui::word(Key::report_unit_lines, lang));
  // Findings are counted per incident; one count only when there is one.
  if (r.incidents.size() <= 1) head += ", " + std::to_string(r.findings.size()) + " " + std::string(ui::word(Key::report_unit_findings, lang));
  head += " (" + r.kb_version + ", " + std::to_string(r.kb_entries) + " entries)";
  out << st.dim(wrap_text(head, o.width, 0, 2)) << "\n\n";

  if (r.incidents.size() > 1 && o.all_incidents) {
    for (std::size_t k = 0; k < r.incidents.size(); ++k) {
      const IncidentReport& ir = r.incidents[k];
      if (k > 0) out << "\n";
      out << st.bold(render_detail::incident_heading(r, k, lang)) << "\n";
      print_body(c, View{ir.findings, ir.root, ir.cluster});
    }
  } else {
    if (r.incidents.size() > 1) out << st.bold(render_detail::incident_heading(r, r.shown, lang)) << "\n";
    print_body(c, View{r.findings, r.root, r.cluster});
    if (r.incidents.size() > 1) render_detail::print_incident_table(r, o, out);
  }
  print_input_problems(c);
}

}  // namespace npu_doctor
