#pragma once
// Cross-rank root cause: when one rank fails (an AI Core exception, an OOM, a lost link,
// a killed process), every other rank reports communication timeouts. Given the inputs
// attributed to ranks, name the culprit rank and say how sure that is and why.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "npu_doctor/input_report.hpp"
#include "npu_doctor/input_store.hpp"
#include "npu_doctor/timeline.hpp"
#include "member_list.hpp"

namespace npu_doctor {

struct ClusterOptions {
  int64_t skew_us = 5'000'000;    // clock skew tolerated between hosts (--skew)
  std::optional<int> world_size;  // ranks the job had (--world-size); else what the logs say
};

struct ClusterCulprit {
  int rank = -1;
  std::string host;
  const Entry* entry = nullptr;  // its first decisive error, or the cluster.* verdict entry
  std::string code;
  std::optional<Timestamp> time;
  std::string path;              // evidence: where the error is
  uint64_t line = 0;
  std::string text;
};

struct ClusterDecision {
  enum class Basis {
    first_error,        // the earliest rank whose decisive error is not a communication symptom
    pointed_at,         // the rank the other ranks' timeouts name as the peer they waited for
    silent,             // the rank that stopped logging without an error while the others timed out
    missing,            // a rank with no logs while the others timed out
    none,               // no rank stands out
  };
  int ranks = 0;                          // ranks seen in the inputs
  std::optional<ClusterCulprit> culprit;
  Basis basis = Basis::none;
  std::string confidence = "low";         // high | medium | low
  int pointing_ranks = 0;                 // ranks whose timeouts name the culprit
  int competing_ranks = 0;                // other ranks with a decisive error within the skew
  std::vector<int> symptom_ranks;         // ranks with only communication timeouts/symptoms
  std::vector<int> silent_ranks;          // ranks without errors that stopped early
  std::vector<int> missing_ranks;         // ranks expected but without any input
};

// Gives each input a rank and host: from its path (the user's patterns first, with named
// groups (?<rank>...) and (?<host>...), then rank_3/, rank-3.log, worker-3, node-2/), else
// from its lines (RankID:3, [rank3]:, HCCL's rank[3]). Returns an error message for a
// pattern that does not compile.
std::vector<std::string> attribute_ranks(InputStore& inputs, const std::vector<std::string>& patterns);

// nullopt when fewer than two ranks could be attributed.
std::optional<ClusterDecision> analyze_cluster(const InputStore& inputs, const KnowledgeBase& kb,
                                               const ClusterOptions& options);
// The same over the inputs `which` (indices into `inputs`): one incident's ranks only.
std::optional<ClusterDecision> analyze_cluster(const InputStore& inputs,
                                               const MemberList& which, const KnowledgeBase& kb,
                                               const ClusterOptions& options);

// "The AI Core exception on rank 3 (node-1) is the earliest decisive error ..." in en/zh.
std::string cluster_reason(const ClusterDecision& d, Lang lang);
std::string_view to_string(ClusterDecision::Basis b);

}  // namespace npu_doctor
