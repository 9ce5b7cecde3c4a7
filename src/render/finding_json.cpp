#include "finding_json.hpp"

#include <cmath>

namespace npu_doctor::render_detail {
namespace {

using json = nlohmann::ordered_json;

json context_json(const std::vector<ContextLine>& lines) {
  json a = json::array();
  for (const auto& c : lines) a.push_back({{"line", c.line}, {"text", c.text}});
  return a;
}

}  // namespace

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

double rounded_probability(double p) { return std::round(p * 1000.0) / 1000.0; }

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
  j["title"] = finding_title(f, lang);
  j["cause"] = finding_cause(f, lang);
  json rem = json::array();
  for (auto& r : finding_remedies(f, lang)) rem.push_back(std::move(r));
  j["remedies"] = rem;
  if (!e.references.empty()) j["references"] = e.references;
  if (f.words) {
    // Recognised by no entry: the word fallback's guess (docs/root-cause.md).
    j["kind"] = "words";
    j["probability"] = rounded_probability(f.words->probability);
    j["threshold"] = rounded_probability(f.words->root_threshold);
  }
  j["count"] = f.count;
  json ev = json::array();
  for (const auto& x : f.evidence) ev.push_back(evidence_json(x));
  j["evidence"] = ev;
  j["context"] = {{"before", context_json(f.first().before)}, {"after", context_json(f.first().after)}};
  if (!f.symptom_of.empty()) j["symptom_of"] = f.symptom_of;
  if (f.read_from != nullptr) j["read_from"] = f.read_from->id;  // meaning from context
  if (f.expected) j["expected"] = {{"reason", f.expected->reason}, {"declared_at", f.expected->source}};
  return j;
}

}  // namespace npu_doctor::render_detail
