// The JSON contracts of `hccl` (docs/json-hccl-v1.md).
#include <map>

#include "hccl_render.hpp"
#include "npu_doctor/version.hpp"
#include "render/finding_json.hpp"

namespace npu_doctor::hccl {
namespace {

using json = nlohmann::ordered_json;

json problems_json(const std::vector<InputProblem>& ps) {
  json a = json::array();
  for (const auto& p : ps) a.push_back({{"path", p.path}, {"error", p.error}});
  return a;
}

json opt(const std::optional<std::string>& v) { return v ? json(*v) : json(nullptr); }

json line_json(const HccnLine& l) {
  if (l.line == 0) return nullptr;
  return {{"source", l.source}, {"line", l.line}, {"text", l.text}};
}

void finish(json& doc, const std::vector<Finding>& findings, Lang lang, std::ostream& out) {
  doc["findings"] = findings_json(findings, lang);
  doc["summary"] = summary_json(findings);
  out << doc.dump(2) << "\n";
}

}  // namespace

json report_head(std::string_view schema, const std::string& kb_version, Lang lang) {
  json doc;
  doc["schema"] = schema;
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", kb_version}};
  doc["lang"] = to_string(lang);
  return doc;
}

json findings_json(const std::vector<Finding>& findings, Lang lang) {
  json a = json::array();
  for (const auto& f : findings) a.push_back(render_detail::finding_json(f, lang));
  return a;
}

json summary_json(const std::vector<Finding>& findings) {
  std::size_t errors = 0, warnings = 0;
  std::map<std::string, std::size_t> cats;
  for (const auto& f : findings) {
    const Severity s = effective_severity(f);
    if (s >= Severity::error) ++errors;
    else if (s == Severity::warning) ++warnings;
    ++cats[std::string(to_string(f.entry->category))];
  }
  json c = json::object();
  for (const auto& [k, v] : cats) c[k] = v;
  return {{"findings", findings.size()}, {"errors", errors}, {"warnings", warnings}, {"by_category", c}};
}

void render_env_json(const EnvReport& r, const RenderOptions& o, std::ostream& out) {
  json doc = report_head("npu-doctor/hccl-env/v1", r.kb_version, o.lang);
  json files = json::array();
  for (const auto& f : r.files) {
    files.push_back({{"path", f.path},
                     {"format", to_string(f.format)},
                     {"host", f.host.empty() ? json(nullptr) : json(f.host)},
                     {"variables", f.variables},
                     {"rank", f.rank.empty() ? json(nullptr) : json(f.rank)}});
  }
  doc["files"] = files;
  doc["unreadable"] = problems_json(r.unreadable);
  json vars = json::array();
  for (const auto& v : r.variables) {
    json groups = json::array();
    for (const auto& g : v.groups) {
      json paths = json::array();
      for (std::size_t i : g.files) paths.push_back(r.files[i].path);
      groups.push_back({{"value", g.value.empty() && !g.set ? json(nullptr) : json(g.value)},
                        {"set", g.set},
                        {"count", g.files.size()},
                        {"files", paths}});
    }
    vars.push_back({{"name", v.name},
                    {"scope", to_string(v.scope)},
                    {"default", v.default_value.empty() ? json(nullptr) : json(v.default_value)},
                    {"agree", v.agree()},
                    {"values", groups}});
  }
  doc["variables"] = vars;
  json ranks = json::array();
  for (const auto& c : r.ranks) {
    ranks.push_back({{"variable", c.variable},
                     {"size_variable", c.size_variable},
                     {"size", c.size ? json(*c.size) : json(nullptr)},
                     {"files_with", c.files_with},
                     {"files_without", c.files_without},
                     {"duplicates", c.duplicates},
                     {"missing", format_ranges(c.missing)},
                     {"out_of_range", c.out_of_range}});
  }
  doc["ranks"] = ranks;
  finish(doc, r.findings, o.lang, out);
}

void render_ranktable_json(const RankTableReport& r, const RenderOptions& o, std::ostream& out) {
  json doc = report_head("npu-doctor/hccl-ranktable/v1", r.kb_version, o.lang);
  doc["path"] = r.path;
  doc["parsed"] = r.parsed;
  doc["version"] = r.version.empty() ? json(nullptr) : json(r.version);
  doc["status"] = r.status.empty() ? json(nullptr) : json(r.status);
  doc["server_count"] = r.server_count ? json(*r.server_count) : json(nullptr);
  doc["ranks"] = r.ranks;
  doc["super_pods"] = r.super_pods;
  json servers = json::array();
  for (const auto& s : r.servers) {
    json devs = json::array();
    for (const auto& d : s.devices) {
      json dj = {{"device_id", d.device_id}, {"device_ip", d.device_ip}, {"rank_id", d.rank_id}};
      if (!d.super_device_id.empty()) dj["super_device_id"] = d.super_device_id;
      devs.push_back(dj);
    }
    servers.push_back({{"server_id", s.server_id}, {"host_ip", s.host_ip}, {"devices", devs}});
  }
  doc["servers"] = servers;
  finish(doc, r.findings, o.lang, out);
}

void render_hccn_json(const HccnReport& r, const RenderOptions& o, std::ostream& out) {
  json doc = report_head("npu-doctor/hccl-hccn/v1", r.kb_version, o.lang);
  doc["live"] = r.live;
  json nodes = json::array();
  for (const auto& n : r.nodes) {
    json devs = json::array();
    for (const auto& d : n.devices) {
      json events = json::array();
      for (const auto& e : d.link_events) events.push_back({{"time", e.time}, {"up", e.up}});
      devs.push_back({{"id", d.id},
                      {"id_from_order", d.id_from_order},
                      {"link", opt(d.link)},
                      {"health", opt(d.health)},
                      {"health_class", d.health ? json(classify_health(*d.health)) : json(nullptr)},
                      {"ip", opt(d.ip)},
                      {"netmask", opt(d.netmask)},
                      {"ip_not_set", d.ip_not_set},
                      {"tls_switch", d.tls_switch ? json(*d.tls_switch) : json(nullptr)},
                      {"link_up_count", d.link_up_count ? json(*d.link_up_count) : json(nullptr)},
                      {"link_events", events},
                      {"errors", d.errors.size()},
                      {"evidence", {{"link", line_json(d.link_at)}, {"health", line_json(d.health_at)},
                                    {"ip", line_json(d.ip_at)}, {"tls", line_json(d.tls_at)}}}});
    }
    nodes.push_back({{"name", n.name}, {"devices", devs}});
  }
  doc["nodes"] = nodes;
  doc["unreadable"] = problems_json(r.unreadable);
  finish(doc, r.findings, o.lang, out);
}

void render_hccl_test_json(const HcclTestReport& r, const RenderOptions& o, std::ostream& out) {
  json doc = report_head("npu-doctor/hccl-test-output/v1", r.kb_version, o.lang);
  doc["options"] = {{"expect_bandwidth_gbps", r.options.expect_bandwidth ? json(*r.options.expect_bandwidth) : json(nullptr)},
                    {"min_ratio", r.options.min_ratio}};
  json outputs = json::array();
  for (const auto& t : r.outputs) {
    json rows = json::array();
    for (const auto& row : t.rows) {
      rows.push_back({{"data_size", row.data_size},
                      {"avg_time_us", row.avg_time_us},
                      {"alg_bandwidth_gbps", row.alg_bandwidth},
                      {"check", row.check},
                      {"line", row.line}});
    }
    json failures = json::array();
    for (const auto& f : t.rank_failures) failures.push_back({{"rank", f.rank}, {"data_size", f.data_size}, {"line", f.line}});
    const auto peak = t.peak_bandwidth();
    outputs.push_back({{"path", t.path},
                       {"test", t.test.empty() ? json(nullptr) : json(t.test)},
                       {"min_bytes", t.min_bytes ? json(*t.min_bytes) : json(nullptr)},
                       {"max_bytes", t.max_bytes ? json(*t.max_bytes) : json(nullptr)},
                       {"iters", t.iters ? json(*t.iters) : json(nullptr)},
                       {"warmup_iters", t.warmup_iters ? json(*t.warmup_iters) : json(nullptr)},
                       {"recognised", t.looks_like_hccl_test()},
                       {"peak_bandwidth_gbps", peak ? json(*peak) : json(nullptr)},
                       {"rows", rows},
                       {"rows_total", t.rows_total},
                       {"rank_failures", failures}});
  }
  doc["outputs"] = outputs;
  json exp = json::array();
  for (const auto& e : r.expectations) {
    exp.push_back({{"test", e.test.empty() ? json(nullptr) : json(e.test)},
                   {"expected_gbps", e.expected ? json(*e.expected) : json(nullptr)},
                   {"source", e.source.empty() ? json(nullptr) : json(e.source)}});
  }
  doc["expectations"] = exp;
  doc["unreadable"] = problems_json(r.unreadable);
  finish(doc, r.findings, o.lang, out);
}

}  // namespace npu_doctor::hccl
