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

}  // namespace npu_doctor
