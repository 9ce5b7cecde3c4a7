#pragma once
// Parts of the diagnosis JSON (docs/json-diagnosis-v1.md) built from the report model, one
// object at a time, so a writer can emit them as it goes: the root cause, the cross-rank
// verdict, the findings with their relation to the root cause, and each incident.
#include <functional>

#include <nlohmann/json.hpp>

#include "diagnosis.hpp"

namespace npu_doctor::render_detail {

nlohmann::ordered_json root_cause_json(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                                       const std::optional<ClusterDecision>& cluster, Lang lang);
nlohmann::ordered_json cluster_json(const ClusterDecision& c, Lang lang);
// Every finding in presentation order, each with its `relation` to the root cause.
nlohmann::ordered_json findings_json(const std::vector<Finding>& findings, const std::optional<RootCauseDecision>& root,
                                     Lang lang);
// One finding of findings_json: the finding with its `relation`.
nlohmann::ordered_json finding_with_relation_json(const std::vector<Finding>& findings,
                                                  const std::optional<RootCauseDecision>& root, std::size_t i, Lang lang);
nlohmann::ordered_json summary_json(const std::vector<Finding>& findings);

// incidents[k]: number, time range, inputs (an empty array in its place: the indices into
// inputs[] are given apart), pids, ranks, job, shown, root_cause, cluster, findings, summary.
nlohmann::ordered_json incident_json(const DiagnosisReport& r, std::size_t k, Lang lang);
// Each of them in turn (a streaming writer keeps one in memory), with its "inputs" left
// empty and given apart, for the writer to stream (one index per input: a DOM of them was the
// peak memory of a 300,000-input report); one incident covering every scanned input when
// the report was not split.
void for_each_incident_json(const DiagnosisReport& r, Lang lang,
                            const std::function<void(const nlohmann::ordered_json&, const MemberList&)>& emit);

}  // namespace npu_doctor::render_detail
