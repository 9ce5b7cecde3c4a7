#pragma once
// The profile page's content (findings, operator rankings, time split, ranks) without the
// page around it: the profile page writes it, and so does the incident report when a
// profile is attached.
#include <ostream>
#include <string_view>

#include "profile.hpp"

namespace npu_doctor {

void render_profile_sections(const ProfileReport& report, Lang lang, std::ostream& out);
// The CSS those sections need besides svg_bar_chart_style().
std::string_view profile_sections_style();

}  // namespace npu_doctor
