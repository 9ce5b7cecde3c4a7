#pragma once
// mem's durations are everyone's (npu_doctor/duration.hpp).
#include "npu_doctor/duration.hpp"

namespace npu_doctor::mem {
using npu_doctor::parse_duration;
}  // namespace npu_doctor::mem
