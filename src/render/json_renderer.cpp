// The JSON contract "npu-doctor/diagnosis/v1" (docs/json-diagnosis-v1.md).
#include <nlohmann/json.hpp>

#include "npu_doctor/render.hpp"
#include "npu_doctor/version.hpp"
#include "finding_json.hpp"
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
    case RootCauseDecision::Basis::words: return "words";
  }
  return "sole_error";
}

}  // namespace

void render_diagnosis_json(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out) {
  json doc;
  doc["schema"] = "npu-doctor/diagnosis/v1";
  doc["tool"] = {{"name", "npu-doctor"}, {"version", kVersion}, {"kb_version", r.kb_version},
                 {"kb_entries", r.kb_entries}};
  doc["lang"] = to_string(o.lang);
  json inputs = json::array();
  for (const auto& in : r.inputs) {
    json j = {{"path", in.path}, {"kind", in.kind}, {"status", to_string(in.status)},
              {"bytes", in.bytes}, {"lines", in.lines}};
    if (!in.note.empty()) j["note"] = in.note;
    if (in.rank) j["rank"] = *in.rank;
    if (!in.host.empty()) j["host"] = in.host;
    inputs.push_back(j);
  }
  doc["inputs"] = inputs;
  if (const Finding* root = r.root_finding()) {
    json rc;
    rc["category"] = to_string(root->entry->category);
    rc["rule"] = root->entry->id;
    rc["key"] = finding_key(*root);
    rc["code"] = root->code.empty() ? json(nullptr) : json(root->code);
    rc["layer"] = root->entry->layer;
    rc["title"] = finding_title(*root, o.lang);
    rc["reason"] = root_cause_reason(r, o.lang);
    rc["basis"] = basis_name(r.root->basis);
    if (r.root->explained) rc["explains"] = finding_key(r.findings[*r.root->explained]);
    if (root->words) rc["probability"] = render_detail::rounded_probability(root->words->probability);
    rc["evidence"] = evidence_json(root->first());
    doc["root_cause"] = rc;
  } else {
    doc["root_cause"] = nullptr;
  }
  if (r.cluster) {
    const auto& c = *r.cluster;
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
    cj["reason"] = cluster_reason(c, o.lang);
    cj["pointing_ranks"] = c.pointing_ranks;
    cj["symptom_ranks"] = c.symptom_ranks;
    cj["silent_ranks"] = c.silent_ranks;
    cj["missing_ranks"] = c.missing_ranks;
    doc["cluster"] = cj;
  }
  if (!r.warnings.empty()) doc["warnings"] = r.warnings;
  json findings = json::array();
  for (std::size_t i : render_detail::presentation_order(r)) findings.push_back(finding_json(r.findings[i], o.lang));
  doc["findings"] = findings;
  json by_cat = json::object();
  for (const auto& f : r.findings) {
    const std::string c(to_string(f.entry->category));
    by_cat[c] = by_cat.value(c, 0) + 1;
  }
  doc["summary"] = {{"findings", r.findings.size()}, {"by_category", by_cat}};
  // Log text may hold invalid bytes; they were sanitized, but never let dump() throw.
  out << doc.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
}

}  // namespace npu_doctor
