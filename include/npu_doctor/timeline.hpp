#pragma once
// What each input says over time, kept small: the first occurrence of each distinct
// finding, and the first and last time stamps. Cross-rank analysis compares ranks with it.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "npu_doctor/compact_time.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/line_info.hpp"

namespace npu_doctor {

struct TimelineEvent {
  const Entry* entry = nullptr;
  std::string code;
  uint64_t line = 0;
  std::optional<Timestamp> time;
  std::optional<int> rank;  // from the line (RankID:3, [rank3]:)
  bool low_level = false;   // the line was logged at INFO/DEBUG/WARNING
  Specificity specificity = Specificity::message;
  std::vector<std::pair<std::string, std::string>> captures;
  std::string text;         // the line (at most a few hundred bytes), for error-level events only

  std::string_view capture(std::string_view name) const {
    for (const auto& [k, v] : captures) {
      if (k == name) return v;
    }
    return {};
  }
};

struct InputTimeline {
  static constexpr std::size_t kMaxEvents = 64;
  std::vector<TimelineEvent> events;  // in line order
  // Compact (text inline, 40 bytes each): every input keeps two.
  CompactTime first_time;
  CompactTime last_time;
};

}  // namespace npu_doctor
