// The JSON contract "npu-doctor/check/v1" (docs/json-check-v1.md). Findings use the same
// shape as diagnose's (render_detail::finding_json), plus the step they belong to.
#include <map>
#include <nlohmann/json.hpp>

#include "npu_doctor/version.hpp"
#include "check_render.hpp"
#include "check_ui_text.hpp"
#include "render/finding_json.hpp"

namespace npu_doctor::checks {
namespace {

using json = nlohmann::ordered_json;

json evidence_item(const Evidence& e) {
  json j = render_detail::evidence_json(e);
  j["source"] = evidence_source(e);
  return j;
}

json finding_item(const Finding& f, StepId step, Lang lang) {
  json j = render_detail::finding_json(f, lang);
  j["step"] = to_string(step);
  json& ev = j["evidence"];
  for (std::size_t i = 0; i < ev.size() && i < f.evidence.size(); ++i) ev[i]["source"] = evidence_source(f.evidence[i]);
  return j;
}

}  // namespace

void render_check_json(const CheckReport& r, const RenderOptions& o, std::ostream& out) {
  json doc;
  doc["schema"] = "npu-doctor/check/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version}};
  doc["lang"] = to_string(o.lang);
  doc["root"] = r.root;
  doc["options"] = {{"timeout_ms", r.timeout_ms},
                    {"pid", r.pid ? json(*r.pid) : json(nullptr)},
                    {"python", r.python.empty() ? json(nullptr) : json(r.python)},
                    {"probe_device", r.probe_device}};
  doc["status"] = to_string(r.status());
  json steps = json::array();
  json all = json::array();
  std::map<std::string, std::size_t> by_category;
  for (const auto& s : r.steps) {
    json j;
    j["id"] = to_string(s.id);
    j["title"] = ui::step_title(s.id, o.lang);
    j["status"] = to_string(s.status());
    json ev = json::array();
    for (const auto& e : s.evidence) ev.push_back(evidence_item(e));
    j["evidence"] = ev;
    json facts = json::object();
    for (const auto& [k, v] : s.facts) facts[k] = v;
    j["facts"] = facts;
    json findings = json::array();
    for (const auto& f : s.findings) {
      json fj = finding_item(f, s.id, o.lang);
      findings.push_back(fj);
      all.push_back(fj);
      ++by_category[std::string(to_string(f.entry->category))];
    }
    j["findings"] = findings;
    steps.push_back(j);
  }
  doc["steps"] = steps;
  doc["findings"] = all;
  json cats = json::object();
  for (const auto& [k, v] : by_category) cats[k] = v;
  doc["summary"] = {{"pass", r.count(StepStatus::pass)},
                    {"warn", r.count(StepStatus::warn)},
                    {"fail", r.count(StepStatus::fail)},
                    {"skip", r.count(StepStatus::skip)},
                    {"findings", all.size()},
                    {"by_category", cats}};
  out << doc.dump(2) << "\n";
}

}  // namespace npu_doctor::checks
