#include "checks/visible_devices.hpp"

#include <algorithm>
#include <cctype>

#include "core/text_util.hpp"

namespace npu_doctor::checks {

std::vector<int> parse_rt_visible_devices(std::string_view value, std::string* rest) {
  std::vector<int> ids;
  std::size_t i = 0;
  long long current = -1;
  for (; i < value.size(); ++i) {
    const char c = value[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      current = std::min<long long>((current < 0 ? 0 : current) * 10 + (c - '0'), 1 << 20);
    } else if (c == ',') {
      if (current >= 0) ids.push_back(static_cast<int>(current));
      current = -1;
    } else {
      break;
    }
  }
  if (current >= 0) ids.push_back(static_cast<int>(current));
  if (rest != nullptr) *rest = std::string(value.substr(i));
  return ids;
}

std::optional<std::vector<int>> parse_container_visible_devices(std::string_view value) {
  std::vector<int> ids;
  for (std::string_view part : split(value, ',')) {
    part = trim(part);
    if (part.empty()) continue;
    const std::size_t dash = part.find('-');
    const auto lo = to_integer(part.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : to_integer(part.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi - *lo > 1024) return std::nullopt;
    for (long long d = *lo; d <= *hi; ++d) ids.push_back(static_cast<int>(d));
  }
  return ids;
}

}  // namespace npu_doctor::checks
