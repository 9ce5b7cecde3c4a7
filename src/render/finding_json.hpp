#pragma once
// JSON for one finding and one piece of evidence, shared by every report that lists
// findings (diagnose, check, mem, ...), so findings look the same in all of them.
#include <nlohmann/json.hpp>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::render_detail {

nlohmann::ordered_json evidence_json(const Evidence& e);
nlohmann::ordered_json finding_json(const Finding& f, Lang lang);
// A probability as the JSON shows it: three decimals.
double rounded_probability(double p);

}  // namespace npu_doctor::render_detail
