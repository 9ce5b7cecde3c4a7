#pragma once
// `-f prometheus` for a diagnosis (diagnose, cluster, merge): docs/prometheus.md.
#include <ostream>

#include "diagnosis/diagnosis.hpp"
#include "render/prometheus/prometheus_common.hpp"

namespace npu_doctor::prometheus {

void render_diagnosis(const DiagnosisReport& report, const RunInfo& run, std::ostream& out);

// npu_doctor_root_cause_found{command} and, with a root cause, npu_doctor_root_cause_info.
void write_root_cause_families(Writer& w, const RunInfo& run, const DiagnosisReport& report);

}  // namespace npu_doctor::prometheus
