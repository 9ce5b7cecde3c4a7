// The JSON contract "npu-doctor/diagnosis/v1" (docs/json-diagnosis-v1.md).
#include <nlohmann/json.hpp>

#include "diagnosis_json_parts.hpp"
#include "npu_doctor/render.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor {

void render_diagnosis_json(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  using json = nlohmann::ordered_json;
  json doc;
  doc["schema"] = "npu-doctor/diagnosis/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version},
                 {"kb_entries", r.kb_entries}};
  doc["lang"] = to_string(o.lang);
  // Which incident each input belongs to (numbers as in incidents[].number).
  std::vector<std::size_t> incident_of(r.inputs.size(), 0);
  for (const auto& ir : r.incidents) {
    for (std::size_t i : ir.incident.inputs) {
      if (i < incident_of.size()) incident_of[i] = ir.number;
    }
  }
  json inputs = json::array();
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const auto& in = r.inputs[i];
    json j = {{"path", in.path}, {"kind", in.kind}, {"status", to_string(in.status)},
              {"bytes", in.bytes}, {"lines", in.lines}};
    if (!in.note.empty()) j["note"] = in.note;
    if (in.rank) j["rank"] = *in.rank;
    if (!in.host.empty()) j["host"] = in.host;
    if (incident_of[i] != 0) j["incident"] = incident_of[i];
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  // The top level is the shown incident (the most recent with a root cause by default).
  doc["root_cause"] = render_detail::root_cause_json(r.findings, r.root, r.cluster, o.lang);
  if (r.cluster) doc["cluster"] = render_detail::cluster_json(*r.cluster, o.lang);
  if (!r.warnings.empty()) doc["warnings"] = r.warnings;
  doc["findings"] = render_detail::findings_json(r.findings, r.root, o.lang);
  doc["summary"] = render_detail::summary_json(r.findings);
  doc["incidents"] = render_detail::incidents_json(r, o.lang);
  // Log text may hold invalid bytes; they were sanitized, but never let dump() throw.
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
