#include "npu_doctor/duration.hpp"

#include <cmath>
#include <cstdlib>
#include <string>

namespace npu_doctor {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  const std::string number(text.substr(0, i));
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  const std::string_view unit = text.substr(i);
  double ms_per_unit = 0;
  if (unit.empty() || unit == "s") ms_per_unit = 1000;
  else if (unit == "ms") ms_per_unit = 1;
  else if (unit == "m" || unit == "min") ms_per_unit = 60000;
  else if (unit == "h") ms_per_unit = 3600000;
  else if (unit == "d") ms_per_unit = 86400000;
  else return std::nullopt;
  const double ms = value * ms_per_unit;
  if (!std::isfinite(ms) || ms < 0 || ms > 366.0 * 24 * 3600000) return std::nullopt;
  return std::chrono::milliseconds(static_cast<long long>(std::llround(ms)));
}

}  // namespace npu_doctor
