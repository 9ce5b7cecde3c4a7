#pragma once
// How every text report names a finding and points at its evidence.
#include <string>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::render_detail {

// "train.log:12"
std::string location(const Evidence& e);
// "507014 AI Core execution timed out" or the title alone when there is no code.
std::string short_label(const Finding& f, Lang lang);

}  // namespace npu_doctor::render_detail
