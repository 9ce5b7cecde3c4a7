#pragma once
// The full check of a knowledge base (`npu-doctor kb lint`, the test suite):
// every pattern compiles in both engines, every samples.match line is recognised as
// its own entry, no samples.no_match line is, every extractor sample yields a code,
// and every code namespace in use has an extractor that can find it.
#include <vector>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

std::vector<KbProblem> lint_knowledge_base(const KnowledgeBase& kb);

}  // namespace npu_doctor
