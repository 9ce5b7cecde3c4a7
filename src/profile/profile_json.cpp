// The JSON contract "npu-doctor/profile/v1" (docs/json-profile-v1.md).
#include <nlohmann/json.hpp>

#include "render/finding_json.hpp"
#include "profile.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor {
namespace {

using json = nlohmann::ordered_json;

json op_json(const OpStat& o) {
  return {{"type", o.type},         {"task_type", o.task_type}, {"count", o.count},
          {"total_us", o.total_us}, {"avg_us", o.avg_us()},     {"min_us", o.min_us},
          {"max_us", o.max_us},     {"share", o.share},         {"ai_cpu", o.is_ai_cpu()}};
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

void render_profile_json(const ProfileReport& r, const RenderOptions& o, std::ostream& out) {
  json doc;
  doc["schema"] = "npu-doctor/profile/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version}};
  doc["lang"] = to_string(o.lang);
  json inputs = json::array();
  for (const auto& in : r.inputs) {
    json j = {{"path", in.report.path}, {"kind", in.kind}, {"status", to_string(in.report.status)},
              {"rows", in.rows}, {"bytes", in.report.bytes}};
    if (!in.report.note.empty()) j["note"] = in.report.note;
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  json skipped = json::array();
  for (const auto& s : r.skipped) skipped.push_back({{"path", s.path}, {"status", to_string(s.status)}, {"note", s.note}});
  doc["skipped"] = skipped;
  json cols = json::array();
  for (const auto& p : r.column_problems) {
    json j = {{"path", p.path}, {"column", p.column}, {"problem", p.problem}, {"rows", p.rows}};
    if (p.first_line > 0) j["first_line"] = p.first_line;
    if (!p.example.empty()) j["example"] = p.example;
    cols.push_back(j);
  }
  doc["column_problems"] = cols;
  doc["ops_source"] = r.ops_source.empty() ? json(nullptr) : json(r.ops_source);
  doc["totals"] = {{"task_us", r.total_task_us},
                   {"compute_us", r.compute_us},
                   {"communication_us", r.communication_us},
                   {"ai_cpu_us", r.ai_cpu_us},
                   {"op_types", r.ops.size()}};
  json top = json::array();
  for (const OpStat* s : r.top_by_total()) top.push_back(op_json(*s));
  doc["top_ops"] = top;
  json top_avg = json::array();
  for (const OpStat* s : r.top_by_average()) top_avg.push_back(op_json(*s));
  doc["top_ops_by_avg"] = top_avg;
  if (r.time_split) {
    const TimeSplit& t = *r.time_split;
    const double tot = t.total_us > 0 ? t.total_us : 1;
    doc["time_split"] = {{"source", t.source},
                         {"compute_us", t.compute_us},
                         {"communication_us", t.communication_us},
                         {"overlapped_us", t.overlapped_us},
                         {"free_us", t.free_us},
                         {"total_us", t.total_us},
                         {"compute_share", t.compute_us / tot},
                         {"communication_share", t.communication_us / tot},
                         {"free_share", t.free_us / tot},
                         {"free_known", t.free_known}};
  } else {
    doc["time_split"] = nullptr;
  }
  json ranks = json::array();
  for (const auto& x : r.ranks) {
    ranks.push_back({{"rank", x.rank},
                     {"computing_us", x.computing_us},
                     {"communication_us", x.communication_us},
                     {"free_us", x.free_us},
                     {"step_us", x.step_us},
                     {"exposed_share", x.exposed_share},
                     {"wait_ratio", opt(x.wait_ratio)},
                     {"sync_ratio", opt(x.sync_ratio)}});
  }
  doc["ranks"] = ranks;
  if (r.communication) {
    const auto& v = *r.communication;
    doc["communication"] = {{"basis", v.basis},
                            {"max_wait_rank", v.max_rank},
                            {"max_wait", v.max_wait},
                            {"min_wait_rank", v.min_rank},
                            {"min_wait", v.min_wait},
                            {"threshold", kWaitRatioThreshold},
                            {"bottleneck", v.bottleneck},
                            {"slow_rank", v.slow_rank.empty() ? json(nullptr) : json(v.slow_rank)},
                            {"slow_link", v.slow_link}};
  } else {
    doc["communication"] = nullptr;
  }
  json apis = json::array();
  for (const auto& [name, t] : r.compile.compile_apis) apis.push_back({{"name", name}, {"us", t}});
  doc["compile"] = {{"dynamic_tasks", r.compile.dynamic_tasks},
                    {"static_tasks", r.compile.static_tasks},
                    {"compile_calls", r.compile.compile_calls},
                    {"compile_us", r.compile.compile_us},
                    {"compile_share", opt(r.compile.compile_share)},
                    {"compile_apis", apis}};
  json findings = json::array();
  for (const auto& f : r.findings) findings.push_back(render_detail::finding_json(f, o.lang));
  doc["findings"] = findings;
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
