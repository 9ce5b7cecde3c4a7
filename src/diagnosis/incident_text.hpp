#pragma once
// The incident parts of the terminal report: a heading per incident, the table of the
// other incidents, and the one-line-per-incident summary (-q).
#include <ostream>
#include <string>

#include "diagnosis.hpp"
#include "render.hpp"
#include "report_text.hpp"

namespace npu_doctor::render_detail {

// "2024-01-15 09:30:12 – 09:41:00" (the date once when both are on the same day), or
// "time unknown".
std::string incident_time_range(const Incident& incident, Lang lang, bool seconds);

// "INCIDENT 3 OF 3 · 2025-05-14 10:22:00 – 10:58:13 · 2 inputs · pid 41877".
std::string incident_heading(const DiagnosisReport& r, std::size_t index, Lang lang);

// The incidents other than the shown one: number, time, inputs, root cause.
void print_incident_table(const DiagnosisReport& r, const RenderOptions& o, std::ostream& out);

}  // namespace npu_doctor::render_detail
