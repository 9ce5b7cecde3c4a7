#pragma once
// Aggregates line hits into findings: one per (entry, code), counting every
// occurrence but keeping evidence (with context) only for the first few, so memory
// stays bounded whatever the input size.
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "kb_matcher.hpp"
#include "npu_doctor/finding.hpp"

namespace npu_doctor {

class FindingCollector {
 public:
  struct Slot {
    std::size_t finding = 0;
    std::size_t evidence = 0;
  };

  explicit FindingCollector(std::size_t max_evidence) : max_evidence_(max_evidence) {}

  // Counts one occurrence on a line of `level`; returns where to store its evidence if
  // it is to be kept.
  std::optional<Slot> record(const LineHit& hit, LineLevel level = LineLevel::unknown);
  Evidence& evidence(Slot s) { return findings_[s.finding].evidence[s.evidence]; }

  // Shifts every evidence's input index (when this collector's inputs are appended to a report).
  void offset_inputs(std::size_t offset);
  // Renumbers every evidence and context line (a part of a file scanned with provisional numbers).
  template <typename Fix>
  void shift_lines(Fix&& fix) {
    for (auto& f : findings_) {
      for (auto& e : f.evidence) {
        fix(e.line);
        for (auto& c : e.before) fix(c.line);
        for (auto& c : e.after) fix(c.line);
      }
    }
  }

  // Adds `later` (whose inputs come after ours) into this collector.
  void merge(FindingCollector&& later);
  // Adds findings from elsewhere (another node's summary) whose inputs come after ours.
  void merge(std::vector<Finding>&& later);

  std::vector<Finding> take() { return std::move(findings_); }
  const std::vector<Finding>& findings() const { return findings_; }

 private:
  std::size_t max_evidence_;
  std::vector<Finding> findings_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace npu_doctor
