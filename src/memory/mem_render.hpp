#pragma once
// Renderers of the mem report (src/memory/mem_report.hpp): text with a
// sparkline per device, JSON (`npu-doctor/mem/v1`, docs/json-mem-v1.md) and one
// self-contained HTML page with the memory chart. They only read the report.
#include <ostream>

#include "mem_report.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::mem {

void render_mem_text(const MemReport& report, const RenderOptions& options, std::ostream& out);
void render_mem_json(const MemReport& report, const RenderOptions& options, std::ostream& out);
void render_mem_html(const MemReport& report, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor::mem
