#include "net/units.hpp"

#include <charconv>
#include <cmath>
#include <string>

namespace npu_doctor::net {
namespace {

// The number at the start of `s` and what follows it.
std::optional<std::pair<double, std::string_view>> number_and_unit(std::string_view s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || !std::isfinite(v) || v < 0) return std::nullopt;
  return std::make_pair(v, s.substr(static_cast<std::size_t>(p - s.data())));
}

}  // namespace

std::optional<double> parse_rate_bps(std::string_view s) {
  auto nu = number_and_unit(s);
  if (!nu) return std::nullopt;
  auto [v, unit] = *nu;
  double scale = 1;
  if (!unit.empty()) {
    switch (unit.front()) {
      case 'k': case 'K': scale = 1e3; break;
      case 'm': case 'M': scale = 1e6; break;
      case 'g': case 'G': scale = 1e9; break;
      case 't': case 'T': scale = 1e12; break;
      default: return std::nullopt;
    }
    unit.remove_prefix(1);
    if (!unit.empty() && unit != "bit/s" && unit != "bps" && unit != "b") return std::nullopt;
  }
  const double bps = v * scale;
  return bps > 0 ? std::optional<double>(bps) : std::nullopt;
}

}  // namespace npu_doctor::net
