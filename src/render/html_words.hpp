#pragma once
// The words of the incident report's own headings and labels, in English and Chinese.
// Knowledge (titles, causes, remedies) comes from the knowledge base, not from here.
#include <string_view>

#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::html {

enum class Word {
  cluster,
  ranks,
  culprit,
  basis,
  confidence,
  why,
  symptom_ranks,
  silent_ranks,
  missing_ranks,
  timeline,
  timeline_per_node,
  rank,
  node,
  silent,
  no_logs,
  error_mark,
  symptom_mark,
  other_mark,
  log_span,
  untimed,
  evidence_items,
  and_more,
  environment_check,
  step,
  status,
  facts,
  node_facts,
  value,
  nodes,
  memory,
  profile,
  check_findings,
  knowledge_base,
};

std::string_view word(Word w, Lang lang);

}  // namespace npu_doctor::html
