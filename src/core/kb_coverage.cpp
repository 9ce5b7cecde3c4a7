// How much of each component's ERROR-level messages the catalogue covers (kb coverage).
#include "npu_doctor/kb_coverage.hpp"

#include "npu_doctor/catalogue.hpp"

#include <map>

namespace npu_doctor {

std::vector<CoverageRow> message_coverage(const KnowledgeBase& kb) {
  std::map<std::string, long long> per_family;
  for (const auto& e : kb.entries()) {
    if (e.origin == Origin::source) ++per_family[e.family];
  }
  // The catalogue read in place: an id is "<family>.<name>" (kb-authoring.md).
  if (const Catalogue* c = kb.catalogue()) {
    for (std::size_t i = 0; i < c->size(); ++i) {
      const std::string_view id = c->id(i);
      if (!c->disabled(i)) ++per_family[std::string(id.substr(0, id.find('.')))];
    }
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
