#pragma once
// `watch -f prometheus -o FILE`: docs/prometheus.md, docs/run-watch.md.
#include <ostream>

#include <cstdint>
#include <string>

#include "diagnosis/diagnosis.hpp"
#include "render/prometheus/prometheus_common.hpp"

namespace npu_doctor::prometheus {

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
