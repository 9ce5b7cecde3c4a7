#include "checks/cpu_list.hpp"

#include "core/text_util.hpp"

namespace npu_doctor::checks {

std::optional<std::set<unsigned>> parse_cpu_list(std::string_view text) {
  constexpr long long kMax = 65535;  // far above any machine; bounds the work on garbage
  std::set<unsigned> cpus;
  text = trim(text);
  if (text.empty()) return cpus;
  for (std::string_view item : split(text, ',')) {
    item = trim(item);
    const std::size_t dash = item.find('-');
    const auto lo = to_integer(item.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : to_integer(item.substr(dash + 1));
    if (!lo || !hi || *lo < 0 || *hi < *lo || *hi > kMax) return std::nullopt;
    for (long long c = *lo; c <= *hi; ++c) cpus.insert(static_cast<unsigned>(c));
  }
  return cpus;
}

std::string format_cpu_list(const std::set<unsigned>& cpus) {
  std::string out;
  for (auto it = cpus.begin(); it != cpus.end();) {
    const unsigned lo = *it;
    unsigned hi = lo;
    ++it;
    while (it != cpus.end() && *it == hi + 1) hi = *it++;
    if (!out.empty()) out += ',';
    out += std::to_string(lo);
    if (hi != lo) out += "-" + std::to_string(hi);
  }
  return out;
}

bool intersects(const std::set<unsigned>& a, const std::set<unsigned>& b) {
  for (unsigned x : a) {
    if (b.count(x) != 0) return true;
  }
  return false;
}

}  // namespace npu_doctor::checks
