// The terminal reports of `hccl env|ranktable|hccn|test-output`.
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <sstream>

#include "findings_text.hpp"
#include "hccl_render.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::hccl {
namespace {

constexpr std::size_t kMaxRows = 40;  // longer lists are cut in text (JSON has everything)

std::string names(const EnvReport& r, const std::vector<std::size_t>& idx) {
  std::string out;
  for (std::size_t i = 0; i < idx.size() && i < 3; ++i) out += (i ? ", " : "") + r.files[idx[i]].path;
  if (idx.size() > 3) out += ", ... (" + std::to_string(idx.size()) + ")";
  return out;
}

bool is_up(std::string_view link) { return link == "UP" || link == "Up" || link == "up"; }

void unreadable_text(const std::vector<InputProblem>& ps, const TextStyle& st, Lang lang, std::ostream& out) {
  for (const auto& p : ps) {
    out << "  " << st.red(p.path + ": " + std::string(ui::word(ui::Key::hccl_unreadable, lang))) << ": " << p.error << "\n";
  }
}

}  // namespace

void render_env_text(const EnvReport& r, const RenderOptions& o, std::ostream& out) {
  const TextStyle st{o.color};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor hccl env: " + std::to_string(r.files.size()) + " " +
                std::string(ui::word(ui::Key::hccl_file_count, lang)) + ", " + r.kb_version)
      << "\n\n"
      << st.bold(std::string(ui::word(ui::Key::hccl_files, lang))) << "\n";
  for (std::size_t i = 0; i < r.files.size() && i < kMaxRows; ++i) {
    const auto& f = r.files[i];
    out << "  " << pad(f.path, 28) << " " << pad(std::string(to_string(f.format)), 8) << " "
        << (f.host.empty() ? "" : "host=" + f.host + " ") << f.variables << " vars"
        << (f.rank.empty() ? "" : ", RANK=" + f.rank) << "\n";
  }
  if (r.files.size() > kMaxRows) out << "  " << st.dim("... +" + std::to_string(r.files.size() - kMaxRows)) << "\n";
  unreadable_text(r.unreadable, st, lang, out);

  if (!r.variables.empty()) out << "\n" << st.bold(std::string(ui::word(ui::Key::hccl_variables, lang))) << "\n";
  for (const auto& v : r.variables) {
    std::string values;
    for (const auto& g : v.groups) {
      std::string value = g.value.empty() ? "(" + std::string(ui::word(ui::Key::hccl_unset, lang)) + ")" : g.value;
      if (!g.set) value += " (" + std::string(ui::word(ui::Key::hccl_default, lang)) + ")";
      if (!values.empty()) values += " | ";
      values += v.groups.size() == 1 ? value : value + " ← " + names(r, g.files);
    }
    const std::string state = v.agree() ? st.green(std::string(ui::word(ui::Key::hccl_agree, lang)))
                              : v.scope == VarScope::job ? st.red(std::string(ui::word(ui::Key::hccl_differ, lang)))
                                                         : st.dim(std::string(to_string(v.scope)));
    out << "  " << pad(v.name, 30) << " " << state << "  " << values << "\n";
  }
  for (const auto& c : r.ranks) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::hccl_ranks, lang))) << "  " << c.variable;
    if (c.size) out << " / " << c.size_variable << "=" << *c.size;
    out << ": " << c.files_with << " " << ui::word(ui::Key::hccl_file_count, lang);
    if (!c.duplicates.empty()) out << ", " << ui::word(ui::Key::hccl_duplicates, lang) << " " << format_ranges(c.duplicates);
    if (!c.missing.empty()) out << ", " << ui::word(ui::Key::hccl_missing, lang) << " " << format_ranges(c.missing);
    out << "\n";
  }
  print_findings_text(r.findings, o, out);
}

void render_ranktable_text(const RankTableReport& r, const RenderOptions& o, std::ostream& out) {
  const TextStyle st{o.color};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor hccl ranktable: " + r.path + ", " + r.kb_version) << "\n";
  if (r.parsed) {
    out << "  " << ui::word(ui::Key::hccl_version, lang) << " " << (r.version.empty() ? "?" : r.version) << " · "
        << ui::word(ui::Key::hccl_status, lang) << " " << (r.status.empty() ? "?" : r.status) << " · " << r.servers.size() << " "
        << ui::word(ui::Key::hccl_servers, lang) << " · " << r.ranks << " ranks";
    if (r.super_pods > 0) out << " · " << r.super_pods << " super pods";
    out << "\n";
  }
  // Compiler-style lines first: file:line:column: json path: what is wrong.
  for (const auto& f : r.findings) {
    for (const auto& e : f.evidence) {
      std::string col, path, detail;
      for (const auto& [k, v] : e.captures) {
        if (k == "column") col = v;
        else if (k == "json_path") path = v;
        else if (k == "detail") detail = v;
      }
      out << "  " << st.bold(e.path + ":" + std::to_string(e.line) + ":" + col + ":") << " "
          << st.severity(effective_severity(f), std::string(to_string(effective_severity(f)))) << ": "
          << (path.empty() ? "" : path + ": ") << detail << "\n";
    }
  }
  print_findings_text(r.findings, o, out);
}

void render_hccn_text(const HccnReport& r, const RenderOptions& o, std::ostream& out) {
  const TextStyle st{o.color};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor hccl hccn: " + std::to_string(r.nodes.size()) + " " + std::string(ui::word(ui::Key::hccl_node, lang)) +
                (r.live ? " (hccn_tool)" : "") + ", " + r.kb_version)
      << "\n";
  for (const auto& n : r.nodes) {
    out << "\n" << st.bold(n.name) << "\n  " << pad(std::string(ui::word(ui::Key::hccl_device, lang)), 8)
        << pad(std::string(ui::word(ui::Key::hccl_link, lang)), 8) << pad(std::string(ui::word(ui::Key::hccl_health, lang)), 18)
        << pad(std::string(ui::word(ui::Key::hccl_ip, lang)), 18) << pad(std::string(ui::word(ui::Key::hccl_tls, lang)), 5)
        << ui::word(ui::Key::hccl_link_downs, lang) << "\n";
    for (const auto& d : n.devices) {
      std::size_t downs = 0;
      for (const auto& e : d.link_events) downs += e.up ? 0 : 1;
      const std::string link = d.link.value_or("-");
      const std::string health = d.health.value_or("-");
      const std::string ip = d.ip_not_set ? "(none)" : d.ip.value_or("-");
      out << "  " << pad(std::to_string(d.id) + (d.id_from_order ? "*" : ""), 8)
          << (link == "-" || is_up(link) ? pad(link, 8) : st.red(pad(link, 8)))
          << (d.health && classify_health(health) == "fault" ? st.red(pad(health, 18)) : pad(health, 18))
          << pad(ip, 18) << pad(d.tls_switch ? std::to_string(*d.tls_switch) : "-", 5)
          << (d.link_events.empty() ? "-" : std::to_string(downs)) << "\n";
    }
    const bool any_ordered = std::any_of(n.devices.begin(), n.devices.end(), [](const HccnDevice& d) { return d.id_from_order; });
    if (any_ordered) {
      out << "  " << st.dim(ui::word(ui::Key::hccl_hccn_numbered_in_order, lang))
          << "\n";
    }
  }
  unreadable_text(r.unreadable, st, lang, out);
  print_findings_text(r.findings, o, out);
}

void render_hccl_test_text(const HcclTestReport& r, const RenderOptions& o, std::ostream& out) {
  const TextStyle st{o.color};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor hccl test-output: " + std::to_string(r.outputs.size()) + " " +
                std::string(ui::word(ui::Key::hccl_file_count, lang)) + ", " + r.kb_version)
      << "\n";
  for (const auto& t : r.outputs) {
    out << "\n" << st.bold(t.path) << (t.test.empty() ? "" : "  (" + t.test + ")") << "  " << t.rows_total << " "
        << ui::word(ui::Key::hccl_rows, lang);
    if (auto peak = t.peak_bandwidth()) out << ", " << ui::word(ui::Key::hccl_peak, lang) << " " << fixed(*peak, 3) << " GB/s";
    out << "\n";
    if (t.rows.empty()) continue;
    out << "  " << pad(std::string(ui::word(ui::Key::hccl_data_size, lang)), 14) << pad(std::string(ui::word(ui::Key::hccl_avg_time, lang)), 16)
        << pad(std::string(ui::word(ui::Key::hccl_bandwidth, lang)), 16) << ui::word(ui::Key::hccl_check, lang) << "\n";
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      if (t.rows.size() > kMaxRows && i == kMaxRows / 2) {
        out << "  " << st.dim("... " + std::to_string(t.rows.size() - kMaxRows) + " rows ...") << "\n";
        i = t.rows.size() - kMaxRows / 2;
      }
      const auto& row = t.rows[i];
      out << "  " << pad(std::to_string(row.data_size), 14) << pad(fixed(row.avg_time_us, 2), 16)
          << pad(fixed(row.alg_bandwidth, 5), 16) << (row.check == "failed" ? st.red(row.check) : row.check) << "\n";
    }
  }
  for (const auto& e : r.expectations) {
    if (!e.expected) continue;
    out << "  " << ui::word(ui::Key::hccl_expected, lang) << (e.test.empty() ? "" : " (" + e.test + ")") << ": "
        << fixed(*e.expected, 3) << " GB/s (" << (e.source == "given" ? "--expect-bandwidth" : "median") << ")\n";
  }
  unreadable_text(r.unreadable, st, lang, out);
  print_findings_text(r.findings, o, out);
}

}  // namespace npu_doctor::hccl
