#pragma once
// Coverage of the message catalogue (docs/kb-messages.md): per component, the ERROR-level
// formats found in its source at the commit read, and how many the knowledge base covers.
#include <string>
#include <vector>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

struct CoverageRow {
  KbSource source;
  long long covered = 0;   // catalogue entries of the component's family
  long long skipped = 0;   // formats left out, all reasons

  double percent() const {
    return source.formats_found > 0 ? 100.0 * static_cast<double>(covered) / static_cast<double>(source.formats_found) : 0.0;
  }
};

std::vector<CoverageRow> message_coverage(const KnowledgeBase& kb);

}  // namespace npu_doctor
