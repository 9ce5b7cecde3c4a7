#include "sparkline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace npu_doctor::mem {

std::string sparkline(std::span<const double> values, std::size_t width, double lo, double hi) {
  static constexpr std::array<std::string_view, 8> kBlocks = {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
  if (values.empty() || width == 0) return {};
  if (lo >= hi) {
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    lo = *mn;
    hi = *mx;
  }
  const std::size_t cells = std::min(width, values.size());
  std::string out;
  for (std::size_t c = 0; c < cells; ++c) {
    const std::size_t a = c * values.size() / cells;
    const std::size_t b = std::max(a + 1, (c + 1) * values.size() / cells);
    const double v = *std::max_element(values.begin() + static_cast<std::ptrdiff_t>(a),
                                       values.begin() + static_cast<std::ptrdiff_t>(b));
    double level = hi > lo ? (v - lo) / (hi - lo) : 0.0;
    level = std::clamp(level, 0.0, 1.0);
    out += kBlocks[static_cast<std::size_t>(std::lround(level * 7.0))];
  }
  return out;
}

}  // namespace npu_doctor::mem
