#pragma once
// A JSON number read as a C++ arithmetic type without undefined behaviour: nlohmann's
// get<int>() on 1e300 is a float-to-integer conversion out of range (UB, found by the
// fuzzers). Outside the type's range, or a fraction where a whole number is wanted, is
// nullopt; the caller decides whether that is malformed input or a default.
#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include <nlohmann/json.hpp>

namespace npu_doctor {

template <class T>
std::optional<T> json_number(const nlohmann::json& v) {
  static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>);
  if (!v.is_number()) return std::nullopt;
  if constexpr (std::is_floating_point_v<T>) {
    return v.get<T>();
  } else if (v.is_number_float()) {
    const double d = v.get<double>();
    // [min, 2^digits): both bounds are exact doubles, unlike (double)max.
    const double lo = static_cast<double>(std::numeric_limits<T>::min());
    const double hi = std::ldexp(1.0, std::numeric_limits<T>::digits);
    if (!std::isfinite(d) || d != std::trunc(d) || d < lo || d >= hi) return std::nullopt;
    return static_cast<T>(d);
  } else if (v.is_number_unsigned()) {
    const auto u = v.get<unsigned long long>();
    if (!std::in_range<T>(u)) return std::nullopt;
    return static_cast<T>(u);
  } else {
    const auto i = v.get<long long>();
    if (!std::in_range<T>(i)) return std::nullopt;
    return static_cast<T>(i);
  }
}

}  // namespace npu_doctor
