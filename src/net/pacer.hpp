#pragma once
// Keeps a byte stream at or under a rate by sleeping when it runs ahead: `net serve
// --max-rate`, applied to the streams a server sends, receives and relays.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <thread>

#include "net/socket.hpp"

namespace npu_doctor::net {

class Pacer {
 public:
  explicit Pacer(double bytes_per_second) : rate_(bytes_per_second), start_(Clock::now()) {}
  // Accounts `bytes` more and sleeps until they are due (never past `deadline`).
  void account(std::size_t bytes, Deadline deadline) {
    if (rate_ <= 0) return;
    total_ += static_cast<double>(bytes);
    const auto due = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(total_ / rate_));
    const auto until = std::min(due, deadline);
    if (until > Clock::now()) std::this_thread::sleep_until(until);
  }

 private:
  double rate_;
  Clock::time_point start_;
  double total_ = 0;
};

}  // namespace npu_doctor::net
