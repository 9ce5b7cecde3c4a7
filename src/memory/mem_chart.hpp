#pragma once
// The memory chart of one device per sample series (allocated, reserved, capacity, leak
// trend), drawn in the browser by a small inline script from JSON embedded in the page,
// with the per-device table. Shared by the mem page and the incident report.
#include <ostream>
#include <string_view>

#include "mem_report.hpp"

namespace npu_doctor::mem {

// The CSS of the table and the charts (classes .chart, svg.mem-chart, .legend, .warn, .err, .dim).
std::string_view mem_chart_style();
// One row per device: samples, steps, peak, reserved, capacity, headroom, fragmentation, leak.
void mem_device_table(const MemReport& report, Lang lang, std::ostream& out);
// The legend and one empty <div id="chart-N"> per device that the script fills.
void mem_charts(const MemReport& report, Lang lang, std::ostream& out);
// The chart data (<script type="application/json" id="mem-data">) and the script; put
// once, after mem_charts. The script sets body[data-rendered] to "ok" or to the error.
void mem_chart_script(const MemReport& report, Lang lang, std::ostream& out);

}  // namespace npu_doctor::mem
