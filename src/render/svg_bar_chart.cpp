#include "svg_bar_chart.hpp"

#include <algorithm>

#include "html_escape.hpp"

namespace npu_doctor::render_detail {

void svg_bar_chart(const std::vector<std::pair<std::string, double>>& rows, const std::vector<std::string>& values,
                   const std::vector<bool>& highlight, std::ostream& out) {
  const int label_w = 260, bar_w = 420, row_h = 22;
  double max = 0;
  for (const auto& r : rows) max = std::max(max, r.second);
  if (max <= 0) max = 1;
  const int h = static_cast<int>(rows.size()) * row_h + 6;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << label_w + bar_w + 140 << "\" height=\"" << h
      << "\" role=\"img\">\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const int y = static_cast<int>(i) * row_h + 3;
    const int w = std::max(1, static_cast<int>(rows[i].second / max * bar_w));
    out << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">" << html_escape(rows[i].first)
        << "</text>";
    out << "<rect x=\"" << label_w << "\" y=\"" << y << "\" width=\"" << w << "\" height=\"" << row_h - 6
        << "\" class=\"" << (i < highlight.size() && highlight[i] ? "bar hot" : "bar") << "\"/>";
    out << "<text x=\"" << label_w + w + 6 << "\" y=\"" << y + 15 << "\">"
        << html_escape(i < values.size() ? values[i] : std::string()) << "</text>\n";
  }
  out << "</svg>\n";
}

std::string_view svg_bar_chart_style() {
  return "svg text{font:12px sans-serif;fill:#222}.bar{fill:#4a7bd0}.bar.hot{fill:#d9822b}tr.hot td{background:#fdebd3}\n";
}

}  // namespace npu_doctor::render_detail
