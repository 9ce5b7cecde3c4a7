#pragma once
// A horizontal bar chart as inline SVG (no script): one labelled bar per row, its length
// proportional to the value. Shared by the profile page and the incident report.
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace npu_doctor::render_detail {

// `values` are the texts written after each bar; `highlight` rows get class "bar hot".
void svg_bar_chart(const std::vector<std::pair<std::string, double>>& rows, const std::vector<std::string>& values,
                   const std::vector<bool>& highlight, std::ostream& out);

// The CSS the chart needs (bar colours, label font).
std::string_view svg_bar_chart_style();

}  // namespace npu_doctor::render_detail
