#pragma once
// `check -f prometheus`: docs/prometheus.md.
#include <ostream>

#include "checks/check_report.hpp"
#include "render/prometheus/prometheus_common.hpp"

namespace npu_doctor::prometheus {

void render_check(const checks::CheckReport& report, const RunInfo& run, std::ostream& out);

}  // namespace npu_doctor::prometheus
