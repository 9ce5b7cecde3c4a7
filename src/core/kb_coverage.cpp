// How much of each component's ERROR-level messages the catalogue covers (kb coverage).
#include "npu_doctor/kb_coverage.hpp"

#include <map>

namespace npu_doctor {

std::vector<CoverageRow> message_coverage(const KnowledgeBase& kb) {
  std::map<std::string, long long> per_family;
  for (const auto& e : kb.entries()) {
    if (e.origin == Origin::source) ++per_family[e.family];
  }
  std::vector<CoverageRow> rows;
  for (const auto& s : kb.sources()) {
    CoverageRow r;
    r.source = s;
    r.covered = per_family[s.family];
    for (const auto& [reason, n] : s.skipped) r.skipped += n;
    rows.push_back(std::move(r));
  }
  return rows;
}

}  // namespace npu_doctor
