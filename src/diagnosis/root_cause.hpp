#pragma once
// Root-cause selection: the cause, not the symptom and not the last line.
// The rules (also in docs/root-cause.md):
//  1. Only error and critical findings can be the root cause; warnings never outrank errors.
//  2. A hint (numpy 2 installed...) that `explains` an error replaces it as the cause.
//  3. A finding whose entry is `symptom_of` a category is demoted to a symptom when a
//     cause of that category is present; wrappers (EZ9999, ERR00100) rank below both.
//  4. Among the best role, the decisive findings (an exact code or a specific message,
//     not a code-range fallback) are considered; the earliest of them opens the failure
//     block (same input within a few lines, or within seconds by time stamp).
//  5. Inside that block the most specific finding wins, then the entry's priority, then
//     the earliest (the first link of a cascade), then for errors reported at the same
//     moment the seed's category order (driver and firmware, memory, communication...).
//  The other errors of that block, symptoms and wrappers are marked `symptom_of` the root
//  cause; error-level causes outside the block are listed as independent.
//  The word fallback's findings (Finding::words) take part only when no entry found any
//  error, and then only those whose probability clears the model's threshold.
#include <cstddef>
#include <optional>
#include <vector>

#include "cluster.hpp"
#include "npu_doctor/finding.hpp"

namespace npu_doctor {

struct RootCauseDecision {
  enum class Basis {
    sole_error,         // the only error-level finding
    earliest_decisive,  // the first decisive error (rule 4), alone in its block
    most_specific,      // the most specific of several errors in the first failure block (rule 5)
    explained_by_hint,  // a hint explains the error that would have been chosen (rule 2)
    cluster_culprit,    // the cross-rank analysis named the culprit rank's error
    oom_classified,     // the allocator's numbers on an out-of-memory line classify it (as `mem analyze` does)
    words,              // no entry found an error; the word fallback's confident guess
  };
  std::size_t finding = 0;              // index into the findings
  Basis basis = Basis::sole_error;
  std::size_t block_size = 1;            // decisive errors in the first failure block
  std::optional<std::size_t> explained;  // explained_by_hint, oom_classified: the finding it explains
  std::vector<std::size_t> consequences;  // symptoms, wrappers and its block's other errors
  std::vector<std::size_t> independent;   // error-level causes outside its block it does not explain
  std::vector<std::size_t> same_line;     // errors read from the root cause's own evidence lines: part of it
};

// Chooses the root cause and marks every finding's effective role and symptom_of.
// With `forced`, that finding (the cluster culprit's error) is the root cause.
std::optional<RootCauseDecision> choose_root_cause(std::vector<Finding>& findings,
                                                   std::optional<std::size_t> forced = std::nullopt);

// After choose_root_cause, the relations that need more than one finding's entry to see
// (src/diagnosis/causal_relations.cpp):
//  - an out-of-memory line with the allocator's numbers is classified as `mem analyze`
//    classifies it (memory held outside the allocator, a fragmented cache): that verdict
//    becomes the root cause;
//  - with a cluster culprit, the culprit rank's other errors of the same moment follow from
//    its root cause (they are the same failure, not independent errors);
//  - an error read from the root cause's own evidence line is part of it, not its symptom.
// Each finding ends in exactly one of: the root cause, same_line, consequences,
// independent, or none of them (hints, warnings).
void settle_relations(std::vector<Finding>& findings, RootCauseDecision& decision,
                      const InputStore& inputs, const std::optional<ClusterDecision>& cluster,
                      const KnowledgeBase& kb);

// Orders findings by first occurrence: line order within an input, time stamps across
// inputs when both have a full date, else input order.
bool occurs_before(const Finding& a, const Finding& b);

}  // namespace npu_doctor
