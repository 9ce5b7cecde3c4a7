// The incidents[] array of the diagnosis JSON and the parts it shares with the top level.
#include "diagnosis_json_parts.hpp"
#include "render/finding_json.hpp"
#include "render.hpp"
#include "report_text.hpp"
#include "root_cause_reason.hpp"

namespace npu_doctor::render_detail {
namespace {

using json = nlohmann::ordered_json;

json time_json(const std::optional<Timestamp>& t) {
  if (!t || !t->has_year) return nullptr;
  std::string s = format_time(*t);
  s[10] = 'T';
  return s;
}

}  // namespace

json root_cause_json(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                     const std::optional<ClusterDecision>& cluster, Lang lang) {
  if (!root) return nullptr;
  const Finding& f = findings[root->finding];
  json rc;
  rc["category"] = to_string(f.entry->category);
  rc["rule"] = f.entry->id;
  rc["key"] = finding_key(f);
  rc["code"] = f.code.empty() ? json(nullptr) : json(f.code);
  rc["layer"] = f.entry->layer;
  rc["title"] = finding_title(f, lang);
  rc["reason"] = reason_text(findings, root, cluster, lang, nullptr);
  rc["basis"] = basis_name(root->basis);
  if (root->explained) rc["explains"] = finding_key(findings[*root->explained]);
  if (f.words) rc["probability"] = rounded_probability(f.words->probability);
  rc["evidence"] = evidence_json(f.first());
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
    culprit["evidence"] = k.path.empty() ? json(nullptr) : json({{"path", k.path}, {"line", k.line}, {"text", k.text}});
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

json finding_with_relation_json(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                                std::size_t i, Lang lang) {
  json j = finding_json(findings[i], lang);
  j["relation"] = to_string(relation_of(root, i));
  return j;
}

json findings_json(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root, Lang lang) {
  json out = json::array();
  for (std::size_t i : presentation_order(findings, root)) out.push_back(finding_with_relation_json(findings, root, i, lang));
  return out;
}

json summary_json(const std::vector<Finding>& findings) {
  json by_cat = json::object();
  for (const auto& f : findings) {
    const std::string c(to_string(f.entry->category));
    by_cat[c] = by_cat.value(c, 0) + 1;
  }
  return {{"findings", findings.size()}, {"by_category", by_cat}};
}

json incident_json(const DiagnosisReport& r, std::size_t k, Lang lang) {
  const IncidentReport& ir = r.incidents[k];
  json j;
  j["number"] = ir.number;
  j["shown"] = k == r.shown;
  j["first_time"] = time_json(ir.incident.first_time);
  j["last_time"] = time_json(ir.incident.last_time);
  j["inputs"] = json::array();  // the writer streams them in this place
  j["pids"] = ir.incident.pids;
  j["ranks"] = ir.incident.ranks;
  if (!ir.incident.job.empty()) j["job"] = ir.incident.job;
  j["root_cause"] = root_cause_json(ir.findings, ir.root, ir.cluster, lang);
  if (ir.cluster) j["cluster"] = cluster_json(*ir.cluster, lang);
  j["findings"] = findings_json(ir.findings, ir.root, lang);
  j["summary"] = summary_json(ir.findings);
  return j;
}

void for_each_incident_json(const DiagnosisReport& r, Lang lang,
                            const std::function<void(const json&, const MemberList&)>& emit) {
  if (!r.incidents.empty()) {
    for (std::size_t k = 0; k < r.incidents.size(); ++k) emit(incident_json(r, k, lang), r.incidents[k].incident.inputs);
    return;
  }
  // Not split (cluster, merge): the whole report is the one incident.
  if (!r.any_input_scanned()) return;
  IncidentReport whole;
  for (std::size_t i = 0; i < r.inputs.size(); ++i) {
    const InputReport& in = r.inputs[i];
    if (in.status != InputStatus::ok && in.status != InputStatus::partial) continue;
    whole.incident.inputs.push_back(static_cast<uint32_t>(i));
    const auto& f = in.timeline.first_time;
    const auto& l = in.timeline.last_time;
    if (f && f->has_year && (!whole.incident.first_time || f->micros < whole.incident.first_time->micros)) whole.incident.first_time = f;
    if (l && l->has_year && (!whole.incident.last_time || l->micros > whole.incident.last_time->micros)) whole.incident.last_time = l;
  }
  whole.findings = r.findings;
  whole.root = r.root;
  whole.cluster = r.cluster;
  DiagnosisReport view;
  view.incidents.push_back(std::move(whole));
  emit(incident_json(view, 0, lang), view.incidents[0].incident.inputs);
}

}  // namespace npu_doctor::render_detail
