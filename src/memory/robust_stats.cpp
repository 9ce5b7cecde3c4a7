#include "robust_stats.hpp"

#include <algorithm>
#include <cmath>

namespace npu_doctor::mem {

double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  const double pos = std::clamp(q, 0.0, 1.0) * static_cast<double>(v.size() - 1);
  const auto k = static_cast<std::size_t>(std::lround(pos));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  const std::size_t n = v.size();
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2), v.end());
  const double hi = v[n / 2];
  if (n % 2 == 1) return hi;
  const double lo = *std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(n / 2));
  return (lo + hi) / 2;
}

double theil_sen_slope(std::span<const Point> p) {
  std::vector<double> slopes;
  slopes.reserve(p.size() * (p.size() - (p.empty() ? 0 : 1)) / 2);
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      if (p[j].x != p[i].x) slopes.push_back((p[j].y - p[i].y) / (p[j].x - p[i].x));
    }
  }
  return median(std::move(slopes));
}

double kendall_tau(std::span<const Point> p) {
  if (p.size() < 2) return 0;
  long long score = 0;
  long long pairs = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    for (std::size_t j = i + 1; j < p.size(); ++j) {
      const double dx = p[j].x - p[i].x;
      const double dy = p[j].y - p[i].y;
      ++pairs;
      if (dx * dy > 0) ++score;
      else if (dx * dy < 0) --score;
    }
  }
  return static_cast<double>(score) / static_cast<double>(pairs);
}

double robust_spread(std::vector<double> v) {
  if (v.empty()) return 0;
  const double m = median(v);
  for (double& x : v) x = std::fabs(x - m);
  return 1.4826 * median(std::move(v));
}

}  // namespace npu_doctor::mem
