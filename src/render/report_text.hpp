#pragma once
// Small helpers shared by the renderers.
#include <string>

#include "npu_doctor/diagnosis.hpp"

namespace npu_doctor::render_detail {

// "train.log:12"
std::string location(const Evidence& e);
// "507014 AI Core execution timed out" or the title alone when there is no code.
std::string short_label(const Finding& f, Lang lang);
// Findings listed in a report section: root first, then the rest grouped by
// category in priority order, each group by first occurrence.
std::vector<std::size_t> presentation_order(const DiagnosisReport& r);

}  // namespace npu_doctor::render_detail
