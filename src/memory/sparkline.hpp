#pragma once
// A one-line chart of a series with the eight block characters ▁▂▃▄▅▆▇█.
#include <span>
#include <string>

namespace npu_doctor::mem {

// At most `width` characters: the values are split into `width` equal runs and each
// run shows its highest value (spikes stay visible). The scale runs from `lo` to `hi`;
// when lo >= hi the series' own minimum and maximum are used.
std::string sparkline(std::span<const double> values, std::size_t width, double lo = 0, double hi = 0);

}  // namespace npu_doctor::mem
