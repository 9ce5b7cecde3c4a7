// The JSON contract "npu-doctor/diagnosis/v1" (docs/json-diagnosis-v1.md).
#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

#include "diagnosis_json_parts.hpp"
#include "member_list.hpp"
#include "render/json_stream.hpp"
#include "render.hpp"
#include "npu_doctor/version.hpp"
#include "report_text.hpp"

namespace npu_doctor {

// Streamed (render_detail::JsonStreamWriter): the arrays that grow with the inputs (inputs,
// findings, incidents) are written one element at a time; a new top-level member or array
// is one more call here.
void render_diagnosis_json(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  using json = nlohmann::ordered_json;
  render_detail::JsonStreamWriter w(out, 2);
  w.begin_object();
  w.member("schema", json("npu-doctor/diagnosis/v1"));
  w.member("tool", json{{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version},
                        {"kb_entries", r.kb_entries}});
  w.member("lang", json(to_string(o.lang)));
  // Which incident each input belongs to (numbers as in incidents[].number): a cursor walks
  // the incidents' sorted, disjoint member lists along with the inputs (no array an input).
  std::vector<const MemberList*> member_lists;
  for (const auto& ir : r.incidents) member_lists.push_back(&ir.incident.inputs);
  IncidentCursor cursor(member_lists);
  const auto incident_of = [&](std::size_t i) -> std::size_t {
    const auto k = cursor.list_of(static_cast<uint32_t>(i));
    return k ? r.incidents[*k].number : 0;
  };
  w.begin_array("inputs");
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const auto& in = r.inputs[i];
    json j = {{"path", in.path}, {"kind", in.kind.str()}, {"status", to_string(in.status)},
              {"bytes", in.bytes}, {"lines", in.lines}};
    if (!in.note.empty()) j["note"] = in.note;
    if (in.rank) j["rank"] = *in.rank;
    if (!in.host.empty()) j["host"] = in.host.str();
    if (const std::size_t number = incident_of(i); number != 0) j["incident"] = number;
    w.element(j);
  }
  w.end_array();
  // The top level is the shown incident (the most recent with a root cause by default).
  w.member("root_cause", render_detail::root_cause_json(r.findings, r.root, r.cluster, o.lang));
  if (r.cluster) w.member("cluster", render_detail::cluster_json(*r.cluster, o.lang));
  if (!r.warnings.empty()) w.member("warnings", json(r.warnings));
  w.begin_array("findings");
  for (std::size_t i : render_detail::presentation_order(r.findings, r.root)) {
    w.element(render_detail::finding_with_relation_json(r.findings, r.root, i, o.lang));
  }
  w.end_array();
  w.member("summary", render_detail::summary_json(r.findings));
  w.begin_array("incidents");
  render_detail::for_each_incident_json(r, o.lang, [&](const json& j, const MemberList& inputs) {
    w.begin_object();
    for (const auto& [key, value] : j.items()) {
      if (key != "inputs") {
        w.member(key, value);
        continue;
      }
      w.begin_array("inputs");
      for (uint32_t i : inputs) w.element(json(i));
      w.end_array();
    }
    w.end_object();
  });
  w.end_array();
  w.end_object();
  out << "\n";
}

}  // namespace npu_doctor
