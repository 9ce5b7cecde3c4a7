#include "net/net_render.hpp"

#include <cstdio>

#include "hccl/findings_text.hpp"
#include "hccl/hccl_render.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::net {
namespace {

using hccl::fixed;
using hccl::pad;
using ojson = nlohmann::ordered_json;  // not `json`: a unity build may share this file with one using nlohmann::json

std::string rate_cell(const Throughput& t, Lang lang) {
  if (t.measured) return format_rate(t.bits_per_second);
  return "-" + std::string(t.error.empty() ? "" : " (" + std::string(ui::word(ui::Key::net_not_measured, lang)) + ")");
}

void link_rows(const std::vector<LinkResult>& links, const hccl::TextStyle& st, Lang lang, std::ostream& out) {
  out << "  " << pad(std::string(ui::word(ui::Key::net_from, lang)), 22) << pad(std::string(ui::word(ui::Key::net_to, lang)), 22)
      << pad(std::string(ui::word(ui::Key::net_status, lang)), 15) << pad(std::string(ui::word(ui::Key::net_connect, lang)), 14)
      << pad(std::string(ui::word(ui::Key::net_rtt, lang)), 22) << pad(std::string(ui::word(ui::Key::net_up, lang)), 15)
      << ui::word(ui::Key::net_down, lang) << "\n";
  for (const auto& l : links) {
    const std::string status(to_string(l.status));
    out << "  " << pad(l.from.empty() ? std::string(ui::word(ui::Key::net_this_host, lang)) : l.from, 22) << pad(l.to, 22)
        << (l.status == LinkStatus::ok ? pad(status, 15) : st.red(pad(status, 15)))
        << pad(l.connect_ms >= 0 ? fixed(l.connect_ms, 2) : "-", 14)
        << pad(l.rtt && l.rtt->answered > 0 ? fixed(l.rtt->p50_ms, 3) + "/" + fixed(l.rtt->p99_ms, 3) : "-", 22)
        << pad(rate_cell(l.send, lang), 15) << rate_cell(l.receive, lang) << "\n";
    if (!l.error.empty()) out << "    " << st.dim(l.error) << "\n";
  }
}

ojson throughput(const Throughput& t) {
  return {{"measured", t.measured},
          {"bytes", t.bytes},
          {"seconds", t.seconds},
          {"bits_per_second", t.measured ? ojson(t.bits_per_second) : ojson(nullptr)},
          {"error", t.error.empty() ? ojson(nullptr) : ojson(t.error)}};
}

ojson link_json(const LinkResult& l) {
  ojson j = {{"from", l.from.empty() ? ojson(nullptr) : ojson(l.from)},
            {"to", l.to},
            {"address", l.address.empty() ? ojson(nullptr) : ojson(l.address)},
            {"peer_name", l.peer_name.empty() ? ojson(nullptr) : ojson(l.peer_name)},
            {"status", to_string(l.status)},
            {"error", l.error.empty() ? ojson(nullptr) : ojson(l.error)},
            {"connect_ms", l.connect_ms >= 0 ? ojson(l.connect_ms) : ojson(nullptr)}};
  if (l.rtt) {
    j["rtt"] = {{"sent", l.rtt->sent},     {"answered", l.rtt->answered}, {"min_ms", l.rtt->min_ms},
                {"p50_ms", l.rtt->p50_ms}, {"p90_ms", l.rtt->p90_ms},     {"p99_ms", l.rtt->p99_ms},
                {"max_ms", l.rtt->max_ms}, {"mean_ms", l.rtt->mean_ms}};
  } else {
    j["rtt"] = nullptr;
  }
  j["send"] = throughput(l.send);
  j["receive"] = throughput(l.receive);
  return j;
}

}  // namespace

void render_net_text(const NetReport& r, const RenderOptions& o, std::ostream& out) {
  const hccl::TextStyle st{o.color};
  const Lang lang = o.lang;
  out << st.dim("npu-doctor net test (" + r.mode + "): " + std::to_string(r.hosts.size()) + " hosts, " +
                std::to_string(r.link_options.pings) + " pings, " + std::to_string(r.link_options.duration.count()) +
                " ms per direction, " + r.kb_version)
      << "\n";
  if (!r.control.empty()) {
    out << "\n" << st.bold(std::string(ui::word(ui::Key::net_hosts, lang))) << "\n";
    link_rows(r.control, st, lang, out);
  }
  out << "\n" << st.bold(std::string(ui::word(ui::Key::net_links, lang))) << "\n";
  link_rows(r.links, st, lang, out);
  if (r.reference_bps) {
    out << "  " << ui::word(ui::Key::net_expected, lang) << ": " << format_rate(*r.reference_bps) << " ("
        << (r.reference_source == "given" ? "--expect-throughput" : "upper quartile of all links") << ")\n";
  }
  for (const auto& h : r.bad_hosts) out << "  " << st.red(std::string(ui::word(ui::Key::net_host_problem, lang)) + ": " + h) << "\n";
  hccl::print_findings_text(r.findings, o, out);
}

void render_net_json(const NetReport& r, const RenderOptions& o, std::ostream& out) {
  ojson doc = hccl::report_head("npu-doctor/net-test/v1", r.kb_version, o.lang);
  doc["mode"] = r.mode;
  doc["options"] = {{"pings", r.link_options.pings},
                    {"duration_ms", r.link_options.duration.count()},
                    {"connect_timeout_ms", r.link_options.connect_timeout.count()},
                    {"answer_timeout_ms", r.link_options.answer_timeout.count()},
                    {"expect_bits_per_second", r.analysis.expect_bps ? ojson(*r.analysis.expect_bps) : ojson(nullptr)},
                    {"max_rtt_ms", r.analysis.max_rtt_ms ? ojson(*r.analysis.max_rtt_ms) : ojson(nullptr)},
                    {"min_ratio", r.analysis.min_ratio}};
  ojson hosts = ojson::array();
  for (const auto& h : r.hosts) hosts.push_back(h.text());
  doc["hosts"] = hosts;
  ojson control = ojson::array();
  for (const auto& l : r.control) control.push_back(link_json(l));
  doc["control"] = control;
  ojson links = ojson::array();
  for (const auto& l : r.links) links.push_back(link_json(l));
  doc["links"] = links;
  doc["reference"] = {{"bits_per_second", r.reference_bps ? ojson(*r.reference_bps) : ojson(nullptr)},
                      {"source", r.reference_source.empty() ? ojson(nullptr) : ojson(r.reference_source)},
                      {"rtt_p50_ms", r.reference_rtt_ms ? ojson(*r.reference_rtt_ms) : ojson(nullptr)}};
  doc["bad_hosts"] = r.bad_hosts;
  doc["findings"] = hccl::findings_json(r.findings, o.lang);
  doc["summary"] = hccl::summary_json(r.findings);
  out << doc.dump(2) << "\n";
}

}  // namespace npu_doctor::net
