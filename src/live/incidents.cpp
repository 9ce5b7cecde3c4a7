#include "live/incidents.hpp"

#include <algorithm>

namespace npu_doctor::live {

void SettleIncidentPolicy::observe(const std::vector<std::string>& keys, Clock::time_point now) {
  if (keys.empty()) return;
  const bool quiet_before = !last_error_ || now - *last_error_ >= quiet_gap_;
  last_error_ = now;
  if (!open_) {
    const bool only_repeats = !quiet_before && std::all_of(keys.begin(), keys.end(), [&](const std::string& k) {
      return previous_.contains(k);
    });
    if (only_repeats) {
      repeats_ = true;
      return;
    }
    open_ = true;
    opened_ = now;
  }
  last_new_ = now;
}

bool SettleIncidentPolicy::due(Clock::time_point now) const {
  return open_ && (now - last_new_ >= settle_ || now - opened_ >= max_wait_);
}

std::optional<IncidentPolicy::Clock::time_point> SettleIncidentPolicy::deadline() const {
  if (!open_) return std::nullopt;
  return std::min(last_new_ + settle_, opened_ + max_wait_);
}

void SettleIncidentPolicy::reported(const std::vector<std::string>& keys, Clock::time_point now) {
  open_ = false;
  repeats_ = false;
  previous_ = std::set<std::string>(keys.begin(), keys.end());
  last_error_ = now;
}

}  // namespace npu_doctor::live
