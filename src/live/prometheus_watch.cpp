// `watch -f prometheus -o FILE` (docs/prometheus.md, docs/run-watch.md): the watcher's own
// state (incidents so far, the last one's time, files followed) and the last incident's
// findings and root cause with the families every diagnosis has.
#include <vector>

#include "diagnosis/diagnosis_prometheus.hpp"
#include "render/prometheus/prometheus_common.hpp"
#include "live/watch_prometheus.hpp"

namespace npu_doctor::prometheus {

void render_watch(const WatchState& state, const RunInfo& run, std::ostream& out) {
  Writer w(out);
  const Labels cmd = {{"command", run.command}};
  write_run_families(w, run, state.kb_version);

  w.family("npu_doctor_watch_incidents_total", MetricType::counter,
           "Incidents (failures with a root cause) reported since watch started.");
  w.sample(cmd, static_cast<double>(state.incidents));
  w.family("npu_doctor_watch_files_followed", MetricType::gauge, "Log files watch is following.");
  w.sample(cmd, static_cast<double>(state.files_followed));
  if (state.last == nullptr) return;
  w.family("npu_doctor_watch_last_incident_timestamp_seconds", MetricType::gauge,
           "Unix time the last incident was reported.");
  w.sample(cmd, state.last_incident_seconds);

  std::vector<const Finding*> findings;
  for (const auto& f : state.last->findings) findings.push_back(&f);
  write_findings_family(w, run, findings);
  write_root_cause_families(w, run, *state.last);
}

}  // namespace npu_doctor::prometheus
