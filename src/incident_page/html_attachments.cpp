// What other analyses add to the incident report: the environment check's steps (an
// attached `check -f json` report) and the facts each node's `cluster --check` read, the
// memory chart (mem_chart.cpp, drawn by its script) and the profile charts (inline SVG).
#include <map>
#include <set>

#include "render/html_escape.hpp"
#include "html_sections.hpp"
#include "memory/mem_chart.hpp"
#include "profile/profile_html.hpp"
#include "render/svg_bar_chart.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::html {
namespace {

using render_detail::html_escape;

// Hosts listed per fact value before "… N more".
constexpr std::size_t kHostsShown = 16;

void check_steps(const CheckView& c, Lang lang, std::ostream& out) {
  out << "<p class=\"muted\"><code>" << html_escape(c.path) << "</code> · " << html_escape(ui::word(ui::Key::html_status, lang)) << " <span class=\"st-"
      << html_escape(c.status) << "\">" << html_escape(c.status) << "</span> · root <code>" << html_escape(c.root) << "</code></p>\n";
  out << "<table class=\"steps\"><tr><th>" << html_escape(ui::word(ui::Key::html_step, lang)) << "</th><th>" << html_escape(ui::word(ui::Key::html_status, lang))
      << "</th><th>" << html_escape(ui::word(ui::Key::html_facts, lang)) << "</th><th>" << html_escape(ui::word(ui::Key::html_check_findings, lang))
      << "</th></tr>\n";
  for (const auto& s : c.steps) {
    out << "<tr data-step=\"" << html_escape(s.id) << "\"><td>" << html_escape(s.title.empty() ? s.id : s.title) << "</td><td class=\"st-"
        << html_escape(s.status) << "\">" << html_escape(s.status) << "</td><td>";
    for (const auto& [k, v] : s.facts) out << "<code>" << html_escape(k) << "</code> " << html_escape(v) << "<br>";
    out << "</td><td>";
    for (const auto& f : s.findings) {
      out << "<details><summary><span class=\"" << html_escape(f.severity) << "\">" << html_escape(f.severity) << "</span> "
          << html_escape(f.title) << " <span class=\"muted\">" << html_escape(f.rule) << "</span></summary>";
      if (!f.evidence.empty()) out << "<pre>" << html_escape(f.evidence) << "</pre>";
      if (!f.remedies.empty()) {
        out << "<ol>";
        for (const auto& r : f.remedies) out << "<li>" << html_escape(r) << "</li>";
        out << "</ol>";
      }
      out << "</details>";
    }
    out << "</td></tr>\n";
  }
  out << "</table>\n";
}

// One row per fact: each value with the nodes that have it (a difference stands out).
void node_fact_table(const std::vector<NodeFacts>& nodes, Lang lang, std::ostream& out) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> by_fact;
  for (const auto& n : nodes) {
    for (const auto& [k, v] : n.facts) by_fact[k][v].push_back(n.host);
  }
  out << "<h3>" << html_escape(ui::word(ui::Key::html_node_facts, lang)) << "</h3>\n<table class=\"facts\"><tr><th>"
      << html_escape(ui::word(ui::Key::html_facts, lang)) << "</th><th>" << html_escape(ui::word(ui::Key::html_value, lang)) << "</th><th>"
      << html_escape(ui::word(ui::Key::html_nodes, lang)) << "</th></tr>\n";
  for (const auto& [fact, values] : by_fact) {
    const bool differs = values.size() > 1 || values.begin()->second.size() < nodes.size();
    bool first = true;
    for (const auto& [value, hosts] : values) {
      out << "<tr" << (differs ? " class=\"differs\"" : "") << "><td>" << (first ? "<code>" + html_escape(fact) + "</code>" : "")
          << "</td><td>" << html_escape(value) << "</td><td>" << hosts.size() << ": ";
      for (std::size_t i = 0; i < hosts.size() && i < kHostsShown; ++i) out << (i ? ", " : "") << html_escape(hosts[i]);
      if (hosts.size() > kHostsShown) out << ", … " << hosts.size() - kHostsShown << " " << html_escape(ui::word(ui::Key::html_and_more, lang));
      out << "</td></tr>\n";
      first = false;
    }
  }
  out << "</table>\n";
}

}  // namespace

void check_section(const HtmlAttachments& a, Lang lang, std::ostream& out) {
  if (!a.check && a.node_facts.empty()) return;
  out << "<h2 id=\"check\">" << html_escape(ui::word(ui::Key::html_environment_check, lang)) << "</h2>\n";
  if (a.check) check_steps(*a.check, lang, out);
  if (!a.node_facts.empty()) node_fact_table(a.node_facts, lang, out);
}

void mem_section(const HtmlAttachments& a, Lang lang, std::ostream& out) {
  if (!a.mem) return;
  out << "<section class=\"attached\" id=\"memory\"><h2>" << html_escape(ui::word(ui::Key::html_memory, lang)) << "</h2>\n";
  mem::mem_device_table(*a.mem, lang, out);
  mem::mem_charts(*a.mem, lang, out);
  if (!a.mem->findings.empty()) {
    out << "<ul>";
    for (const auto& f : a.mem->findings) {
      out << "<li><span class=\"" << to_string(effective_severity(f)) << "\">" << to_string(effective_severity(f)) << "</span> "
          << html_escape(f.entry->title.get(lang)) << " <span class=\"muted\">" << html_escape(f.entry->id) << "</span></li>";
    }
    out << "</ul>\n";
  }
  out << "</section>\n";
}

void profile_section(const HtmlAttachments& a, Lang lang, std::ostream& out) {
  if (!a.profile) return;
  out << "<section class=\"attached\" id=\"profile\"><h2>" << html_escape(ui::word(ui::Key::html_profile, lang)) << "</h2>\n";
  render_profile_sections(*a.profile, lang, out);
  out << "</section>\n";
}

std::string_view attachments_style(const HtmlAttachments& a) {
  static const std::string kBoth = std::string(mem::mem_chart_style()) + std::string(render_detail::svg_bar_chart_style()) +
                                   std::string(profile_sections_style());
  static const std::string kProfile = std::string(render_detail::svg_bar_chart_style()) + std::string(profile_sections_style());
  if (a.mem && a.profile) return kBoth;
  if (a.mem) return mem::mem_chart_style();
  if (a.profile) return kProfile;
  return {};
}

void attachments_script(const HtmlAttachments& a, Lang lang, std::ostream& out) {
  if (a.mem) mem::mem_chart_script(*a.mem, lang, out);
}

}  // namespace npu_doctor::html
