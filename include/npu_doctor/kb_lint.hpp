#pragma once
// The full check of a knowledge base (`npu-doctor kb lint`, the test suite):
// every pattern compiles in both engines, every samples.match line is recognised as
// its own entry, no samples.no_match line is, every extractor sample yields a code,
// and every code namespace in use has an extractor that can find it.
#include <vector>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

struct LintOptions {
  // Check only the user's entries and extractors (`kb lint FILE`): they are still matched
  // against the whole base, but the built-in samples (tens of thousands) are not re-checked.
  bool only_user_defined = false;
  // Where compiled first-stage databases are kept between runs (empty: compile each time).
  std::string cache_dir;
};

std::vector<KbProblem> lint_knowledge_base(const KnowledgeBase& kb, const LintOptions& options = {});

}  // namespace npu_doctor
