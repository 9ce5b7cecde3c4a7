// The JSON contract "npu-doctor/diagnosis/v1" (docs/json-diagnosis-v1.md).
#include <nlohmann/json.hpp>

#include "npu_doctor/render.hpp"
#include "npu_doctor/version.hpp"
#include "report_text.hpp"

namespace npu_doctor {
namespace {

using json = nlohmann::ordered_json;

json context_json(const std::vector<ContextLine>& lines) {
  json a = json::array();
  for (const auto& c : lines) a.push_back({{"line", c.line}, {"text", c.text}});
  return a;
}

json evidence_json(const Evidence& e) {
  json j = {{"path", e.path}, {"line", e.line}, {"text", e.text}};
  if (e.time) j["time"] = e.time->text;
  if (e.rank) j["rank"] = *e.rank;
  if (e.device) j["device"] = *e.device;
  if (e.pid) j["pid"] = *e.pid;
  if (!e.module.empty()) j["module"] = e.module;
  if (!e.captures.empty()) {
    json c = json::object();
    for (const auto& [k, v] : e.captures) c[k] = v;
    j["captures"] = c;
  }
  return j;
}

json finding_json(const Finding& f, Lang lang) {
  const Entry& e = *f.entry;
  json j;
  j["rule"] = e.id;
  j["key"] = finding_key(f);
  j["category"] = to_string(e.category);
  j["layer"] = e.layer;
  j["code"] = f.code.empty() ? json(nullptr) : json(f.code);
  if (!e.name.empty()) j["name"] = e.name;
  j["severity"] = to_string(effective_severity(f));
  j["role"] = to_string(f.effective_role);
  j["title"] = e.title.get(lang);
  j["cause"] = e.cause.get(lang);
  json rem = json::array();
  for (const auto& r : e.remedies) rem.push_back(r.get(lang));
  j["remedies"] = rem;
  if (!e.references.empty()) j["references"] = e.references;
  j["count"] = f.count;
  json ev = json::array();
  for (const auto& x : f.evidence) ev.push_back(evidence_json(x));
  j["evidence"] = ev;
  j["context"] = {{"before", context_json(f.first().before)}, {"after", context_json(f.first().after)}};
  if (!f.symptom_of.empty()) j["symptom_of"] = f.symptom_of;
  return j;
}

std::string_view basis_name(RootCauseDecision::Basis b) {
  switch (b) {
    case RootCauseDecision::Basis::sole_error: return "sole_error";
    case RootCauseDecision::Basis::earliest_decisive: return "earliest_decisive";
    case RootCauseDecision::Basis::most_specific: return "most_specific";
    case RootCauseDecision::Basis::explained_by_hint: return "explained_by_hint";
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
    rc["title"] = root->entry->title.get(o.lang);
    rc["reason"] = root_cause_reason(r, o.lang);
    rc["basis"] = basis_name(r.root->basis);
    if (r.root->explained) rc["explains"] = finding_key(r.findings[*r.root->explained]);
    rc["evidence"] = evidence_json(root->first());
    doc["root_cause"] = rc;
  } else {
    doc["root_cause"] = nullptr;
  }
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
