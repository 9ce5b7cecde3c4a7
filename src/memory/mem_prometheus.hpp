#pragma once
// `mem analyze -f prometheus`: docs/prometheus.md.
#include <ostream>

#include "memory/mem_report.hpp"
#include "render/prometheus/prometheus_common.hpp"

namespace npu_doctor::prometheus {

void render_mem(const mem::MemReport& report, const RunInfo& run, std::ostream& out);

}  // namespace npu_doctor::prometheus
