// The JSON contract "npu-doctor/atc/v1" (docs/json-atc-v1.md).
#include <nlohmann/json.hpp>

#include "render/finding_json.hpp"
#include "atc.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor {
namespace {

using json = nlohmann::ordered_json;

json source_json(const SourceLine& s) {
  json j = {{"path", s.path}};
  j["line"] = s.line > 0 ? json(s.line) : json(nullptr);
  return j;
}

json str_or_null(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

}  // namespace

void render_atc_json(const AtcReport& r, const RenderOptions& o, std::ostream& out) {
  json doc;
  doc["schema"] = "npu-doctor/atc/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.diagnosis.kb_version}};
  doc["lang"] = to_string(o.lang);
  json inputs = json::array();
  for (const auto& in : r.diagnosis.inputs) {
    json j = {{"path", in.path}, {"kind", in.kind.str()}, {"status", to_string(in.status)}, {"bytes", in.bytes}, {"lines", in.lines}};
    if (!in.note.empty()) j["note"] = in.note;
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  doc["outcome"] = r.outcome;
  doc["phase"] = r.phase == AtcPhase::unknown ? json(nullptr) : json(to_string(r.phase));
  doc["case"] = r.category ? json(to_string(*r.category)) : json(nullptr);
  json ops = json::array();
  for (const auto& op : r.operators) {
    ops.push_back({{"name", str_or_null(op.name)},
                   {"type", str_or_null(op.type)},
                   {"domain", str_or_null(op.domain)},
                   {"opset", str_or_null(op.opset)},
                   {"phase", to_string(op.phase)},
                   {"rule", op.rule},
                   {"reason", op.reason},
                   {"source", source_json(op.source)}});
  }
  doc["operators"] = ops;
  doc["fusion_passes"] = r.fusion_passes;
  if (r.command) {
    json opts = json::array();
    for (const auto& [k, v] : r.command->options) opts.push_back({{"name", k}, {"value", v}});
    doc["command"] = {{"source", source_json(r.command->source)}, {"text", r.command->text},
                      {"program", r.command->program}, {"options", opts}};
  } else {
    doc["command"] = nullptr;
  }
  doc["rewritten_command"] = r.rewritten_command ? json(*r.rewritten_command) : json(nullptr);
  doc["fusion_switch_file"] = r.fusion_switch_file
                                  ? json({{"name", r.fusion_switch_file->first}, {"content", r.fusion_switch_file->second}})
                                  : json(nullptr);
  if (r.check_report) {
    const auto& c = *r.check_report;
    doc["check_report"] = {{"path", c.path}, {"model", c.model}, {"result", c.result},
                           {"total", c.total}, {"pass", c.pass}, {"fail", c.fail}};
  } else {
    doc["check_report"] = nullptr;
  }
  json cases = json::array();
  for (const auto& f : r.findings) cases.push_back(render_detail::finding_json(f, o.lang));
  doc["next_steps"] = cases;
  const Finding* root = r.diagnosis.root_finding();
  doc["root_cause"] = root != nullptr ? json(finding_key(*root)) : json(nullptr);
  json findings = json::array();
  for (const auto& f : r.diagnosis.findings) findings.push_back(render_detail::finding_json(f, o.lang));
  doc["findings"] = findings;
  doc["problems"] = r.problems;
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
