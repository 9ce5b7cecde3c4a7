#pragma once
// `-f prometheus`: the node_exporter textfile-collector format (docs/prometheus.md) for the
// reports of diagnose, cluster and merge (a DiagnosisReport), check and mem analyze.
// Renderers only read the report; when and by which command it ran is given.
#include <ostream>
#include <string>

#include "analyzers/memory/mem_report.hpp"
#include "checks/check_report.hpp"
#include "npu_doctor/diagnosis.hpp"

namespace npu_doctor::prometheus {

struct RunInfo {
  std::string command;           // the `command` label: diagnose, cluster, merge, check, mem
  double timestamp_seconds = 0;  // when the report was made, Unix time
};

// The current time as Unix seconds (milliseconds kept), for RunInfo.
double now_seconds();

void render_diagnosis(const DiagnosisReport& report, const RunInfo& run, std::ostream& out);
void render_check(const checks::CheckReport& report, const RunInfo& run, std::ostream& out);
void render_mem(const mem::MemReport& report, const RunInfo& run, std::ostream& out);

// `watch -f prometheus -o FILE`, rewritten at start and after each incident.
struct WatchState {
  uint64_t incidents = 0;                   // reported since watch started
  double last_incident_seconds = 0;         // Unix time of the last one (0: none yet)
  uint64_t files_followed = 0;
  std::string kb_version;
  const DiagnosisReport* last = nullptr;    // the last incident's diagnosis
};
void render_watch(const WatchState& state, const RunInfo& run, std::ostream& out);

}  // namespace npu_doctor::prometheus
