// `-f prometheus` for diagnose, cluster and merge (docs/prometheus.md).
#include <array>
#include <map>
#include <vector>

#include "render/prometheus/prometheus_common.hpp"
#include "diagnosis/diagnosis_prometheus.hpp"

namespace npu_doctor::prometheus {

void write_root_cause_families(Writer& w, const RunInfo& run, const DiagnosisReport& report) {
  const Labels cmd = {{"command", run.command}};
  const Finding* root = report.root_finding();
  w.family("npu_doctor_root_cause_found", MetricType::gauge, "1 when the last run named a root cause, else 0.");
  w.sample(cmd, root != nullptr ? 1 : 0);
  if (root != nullptr && root->entry != nullptr) {
    w.family("npu_doctor_root_cause_info", MetricType::gauge,
             "The root cause of the last run: knowledge-base rule, category, code and severity (always 1).");
    w.sample({{"command", run.command},
              {"rule", root->entry->id},
              {"category", std::string(to_string(root->entry->category))},
              {"code", root->code},
              {"severity", std::string(to_string(effective_severity(*root)))}},
             1);
  }
}

void render_diagnosis(const DiagnosisReport& report, const RunInfo& run, std::ostream& out) {
  Writer w(out);
  const Labels cmd = {{"command", run.command}};
  write_run_families(w, run, report.kb_version);

  w.family("npu_doctor_inputs", MetricType::gauge, "Inputs of the last run by status (ok, partial, skipped, error).");
  std::map<InputStatus, int> inputs;
  for (const auto& in : report.inputs) ++inputs[in.status];
  for (InputStatus s : {InputStatus::ok, InputStatus::partial, InputStatus::skipped, InputStatus::error}) {
    w.sample({{"command", run.command}, {"status", std::string(to_string(s))}}, inputs[s]);
  }

  std::vector<const Finding*> findings;
  for (const auto& f : report.findings) findings.push_back(&f);
  write_findings_family(w, run, findings);

  write_root_cause_families(w, run, report);

  if (!report.cluster) return;
  const ClusterDecision& c = *report.cluster;
  w.family("npu_doctor_cluster_ranks", MetricType::gauge, "Ranks seen in the inputs of the last run.");
  w.sample(cmd, c.ranks);
  w.family("npu_doctor_cluster_flagged_ranks", MetricType::gauge,
           "Ranks with only communication symptoms (symptom), that stopped logging early (silent), or with no "
           "logs at all (missing).");
  w.sample({{"command", run.command}, {"state", "symptom"}}, static_cast<double>(c.symptom_ranks.size()));
  w.sample({{"command", run.command}, {"state", "silent"}}, static_cast<double>(c.silent_ranks.size()));
  w.sample({{"command", run.command}, {"state", "missing"}}, static_cast<double>(c.missing_ranks.size()));
  if (c.culprit) {
    w.family("npu_doctor_cluster_culprit_rank", MetricType::gauge,
             "The rank whose failure made the others fail, with its host, why it was named and how sure that is.");
    w.sample({{"command", run.command},
              {"host", c.culprit->host},
              {"basis", std::string(to_string(c.basis))},
              {"confidence", c.confidence},
              {"rule", c.culprit->entry != nullptr ? c.culprit->entry->id : std::string()}},
             c.culprit->rank);
  }
}

}  // namespace npu_doctor::prometheus
