#pragma once
// Meaning from context: findings re-read by their entries' context rules (kb-schema.md).
#include <cstddef>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

// Reads each finding whose entry has a context rule naming a neighbouring line of its first
// occurrence as the entry the rule means (Finding::read_from keeps what it was matched as),
// and merges findings that become the same (at most `max_evidence` evidence items each).
void apply_context_meanings(std::vector<Finding>& findings, const KnowledgeBase& kb, std::size_t max_evidence = 3);

// The context lines the rules read around an evidence line (the lines `context:` rules were
// written against). Scans keep at least these whatever -B/-A asked, and the report is cut to
// the request once the meanings are read (trim_context), so asking to see fewer context lines
// never changes a diagnosis.
inline constexpr std::size_t kContextRuleBefore = 8;
inline constexpr std::size_t kContextRuleAfter = 4;

// Cuts every evidence item's context to the `before` lines nearest before it and the `after`
// lines nearest after it.
void trim_context(std::vector<Finding>& findings, std::size_t before, std::size_t after);

}  // namespace npu_doctor
