#include "byte_size.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "npu_doctor/text.hpp"

namespace npu_doctor::mem {
namespace {

std::string lower(std::string_view s) {
  std::string r(s);
  for (char& c : r) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

std::optional<double> multiplier(std::string_view unit) {
  const std::string u = lower(trim(unit));
  if (u.empty() || u == "b" || u == "(byte)" || u == "byte" || u == "bytes") return 1.0;
  const std::string_view letters = "kmgtp";
  const auto pos = letters.find(u[0]);
  if (pos == std::string_view::npos) return std::nullopt;
  const std::string rest = u.substr(1);
  if (!rest.empty() && rest != "b" && rest != "ib") return std::nullopt;
  return std::pow(1024.0, static_cast<double>(pos + 1));
}

}  // namespace

std::optional<uint64_t> parse_byte_size(std::string_view text) {
  text = trim(text);
  std::size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) != 0 || text[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  const std::string number(text.substr(0, i));
  if (number.find('.') != number.rfind('.') || number == ".") return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(number.c_str(), &end);
  if (end != number.c_str() + number.size()) return std::nullopt;
  const auto mult = multiplier(text.substr(i));
  if (!mult) return std::nullopt;
  const double bytes = value * *mult;
  if (!std::isfinite(bytes) || bytes < 0 || bytes >= 18446744073709551615.0) return std::nullopt;
  return static_cast<uint64_t>(std::round(bytes));
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  const bool negative = bytes < 0;
  double v = std::fabs(bytes);
  std::size_t u = 0;
  while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
    v /= 1024.0;
    ++u;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%s%.0f %s" : "%s%.1f %s", negative ? "-" : "", v, units[u]);
  return buf;
}

}  // namespace npu_doctor::mem
