// The JSON contract "npu-doctor/diagnosis/v1" (docs/json-diagnosis-v1.md).
#include <nlohmann/json.hpp>

#include "npu_doctor/render.hpp"
#include "npu_doctor/version.hpp"
#include "finding_json.hpp"
#include "json_stream.hpp"
#include "report_text.hpp"

namespace npu_doctor {
namespace {

using json = nlohmann::ordered_json;
using render_detail::evidence_json;
using render_detail::finding_json;

std::string_view basis_name(RootCauseDecision::Basis b) {
  switch (b) {
    case RootCauseDecision::Basis::sole_error: return "sole_error";
    case RootCauseDecision::Basis::earliest_decisive: return "earliest_decisive";
    case RootCauseDecision::Basis::most_specific: return "most_specific";
    case RootCauseDecision::Basis::explained_by_hint: return "explained_by_hint";
    case RootCauseDecision::Basis::cluster_culprit: return "cluster_culprit";
  }
  return "sole_error";
}

}  // namespace

namespace {

json input_json(const InputReport& in) {
  json j = {{"path", in.path}, {"kind", in.kind}, {"status", to_string(in.status)},
            {"bytes", in.bytes}, {"lines", in.lines}};
  if (!in.note.empty()) j["note"] = in.note;
  if (in.rank) j["rank"] = *in.rank;
  if (!in.host.empty()) j["host"] = in.host;
  return j;
}

json root_cause_json(const DiagnosisReport& r, const Finding& root, Lang lang) {
  json rc;
  rc["category"] = to_string(root.entry->category);
  rc["rule"] = root.entry->id;
  rc["key"] = finding_key(root);
  rc["code"] = root.code.empty() ? json(nullptr) : json(root.code);
  rc["layer"] = root.entry->layer;
  rc["title"] = root.entry->title.get(lang);
  rc["reason"] = root_cause_reason(r, lang);
  rc["basis"] = basis_name(r.root->basis);
  if (r.root->explained) rc["explains"] = finding_key(r.findings[*r.root->explained]);
  rc["evidence"] = evidence_json(root.first());
  return rc;
}

json cluster_json(const ClusterDecision& c, Lang lang) {
  json cj;
  cj["ranks"] = c.ranks;
  if (c.culprit) {
    const auto& k = *c.culprit;
    json culprit;
    culprit["rank"] = k.rank;
    culprit["host"] = k.host.empty() ? json(nullptr) : json(k.host);
    culprit["category"] = k.entry ? json(to_string(k.entry->category)) : json(nullptr);
    culprit["rule"] = k.entry ? json(k.entry->id) : json(nullptr);
    culprit["code"] = k.code.empty() ? json(nullptr) : json(k.code);
    culprit["time"] = k.time ? json(k.time->text) : json(nullptr);
    culprit["evidence"] = k.path.empty() ? json(nullptr)
                                         : json({{"path", k.path}, {"line", k.line}, {"text", k.text}});
    cj["culprit"] = culprit;
  } else {
    cj["culprit"] = nullptr;
  }
  cj["basis"] = to_string(c.basis);
  cj["confidence"] = c.confidence;
  cj["reason"] = cluster_reason(c, lang);
  cj["pointing_ranks"] = c.pointing_ranks;
  cj["symptom_ranks"] = c.symptom_ranks;
  cj["silent_ranks"] = c.silent_ranks;
  cj["missing_ranks"] = c.missing_ranks;
  return cj;
}

}  // namespace

// Streamed (render_detail::JsonStreamWriter): the arrays that grow with the inputs are
// written one element at a time; a new top-level member or array is one more call here.
void render_diagnosis_json(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  render_detail::JsonStreamWriter w(out, 2);
  w.begin_object();
  w.member("schema", json("npu-doctor/diagnosis/v1"));
  w.member("tool", json{{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version},
                        {"kb_entries", r.kb_entries}});
  w.member("lang", json(to_string(o.lang)));
  w.begin_array("inputs");
  for (const auto& in : r.inputs) w.element(input_json(in));
  w.end_array();
  if (const Finding* root = r.root_finding()) {
    w.member("root_cause", root_cause_json(r, *root, o.lang));
  } else {
    w.member("root_cause", json(nullptr));
  }
  if (r.cluster) w.member("cluster", cluster_json(*r.cluster, o.lang));
  if (!r.warnings.empty()) w.member("warnings", json(r.warnings));
  w.begin_array("findings");
  for (std::size_t i : render_detail::presentation_order(r)) w.element(finding_json(r.findings[i], o.lang));
  w.end_array();
  json by_cat = json::object();
  for (const auto& f : r.findings) {
    const std::string c(to_string(f.entry->category));
    by_cat[c] = by_cat.value(c, 0) + 1;
  }
  w.member("summary", json{{"findings", r.findings.size()}, {"by_category", by_cat}});
  w.end_object();
  out << "\n";
}

}  // namespace npu_doctor
