#pragma once
// Statistics that a few wild points cannot move: quantiles, the Theil-Sen slope (the
// median of pairwise slopes) and Kendall's tau (how consistently y rises with x).
#include <span>
#include <vector>

namespace npu_doctor::mem {

struct Point {
  double x = 0;
  double y = 0;
};

// The q-quantile (0..1) by nearest rank; 0 for no values. Reorders `v`.
double quantile(std::vector<double>& v, double q);
double median(std::vector<double> v);

// Median of (y_j - y_i) / (x_j - x_i) over pairs with x_i != x_j; 0 when there are none.
double theil_sen_slope(std::span<const Point> p);

// (concordant - discordant) / pairs, in [-1, 1]; 0 for fewer than two points.
double kendall_tau(std::span<const Point> p);

// 1.4826 * median absolute deviation: the standard deviation for normal data.
double robust_spread(std::vector<double> v);

}  // namespace npu_doctor::mem
