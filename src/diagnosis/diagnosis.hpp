#pragma once
// `diagnose` as a library call: inputs -> sources -> scanner -> findings -> root cause.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cluster.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/input_store.hpp"
#include "incidents.hpp"
#include "npu_doctor/input_report.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "root_cause.hpp"

namespace npu_doctor {

class ExpectedErrors;  // expected_errors.hpp

struct DiagnoseOptions {
  std::vector<std::string> paths;  // files, directories, archives, "-" for stdin
  std::size_t before = 8;          // context lines before each evidence line
  std::size_t after = 4;           // and after
  std::size_t max_evidence = 3;    // occurrences kept per finding
  unsigned jobs = 0;               // threads; 0 = all cores
  // A plain file of at least twice this size is cut at line ends into parts scanned in
  // parallel (when jobs > 1); the result is the same as one thread's.
  uint64_t split_min_part = uint64_t{32} << 20;
  std::vector<std::string> rank_patterns;  // regexes with (?<rank>) / (?<host>) applied to paths
  ClusterOptions cluster;                  // cross-rank analysis (clock skew, world size)
  // Split the inputs into incidents (one failing run each) and conclude per incident
  // (docs/incidents.md); off for callers that want every finding of every input (mem,
  // atc, a cluster node's summary).
  bool split_incidents = false;
  IncidentOptions incidents;
  // The user's expected errors (diagnose --expected): shown with their reason, never the
  // root cause. Null: none.
  std::shared_ptr<const ExpectedErrors> expected;
};

// One incident's verdict: its inputs and time span, its own findings (evidence.input
// still indexes DiagnosisReport::inputs), cross-rank verdict and root cause.
struct IncidentReport {
  std::size_t number = 1;                  // 1 = the oldest
  Incident incident;
  std::vector<Finding> findings;
  std::optional<RootCauseDecision> root;
  std::optional<ClusterDecision> cluster;
  const Finding* root_finding() const { return root ? &findings[root->finding] : nullptr; }
};

struct DiagnosisReport {
  InputStore inputs;  // packed, the older ones in a temporary file (input_store.hpp)
  // The incident shown (incidents[shown]): its findings, root cause and cross-rank verdict.
  // Without a split these cover all inputs.
  std::vector<Finding> findings;          // in order of first occurrence
  std::optional<RootCauseDecision> root;  // nullopt: no error-level finding
  std::optional<ClusterDecision> cluster;  // when inputs cover two or more ranks
  // Every incident, oldest first (empty when the inputs were not split); the default
  // shown is the most recent one with a root cause, else the most recent.
  std::vector<IncidentReport> incidents;
  std::size_t shown = 0;
  std::vector<std::string> warnings;      // e.g. a --rank-pattern that does not compile
  std::string kb_version;
  std::size_t kb_entries = 0;

  // True when at least one input was scanned (fully or in part); false when every
  // input was missing, unreadable or skipped (binary, not a regular file).
  bool any_input_scanned() const;
  const Finding* root_finding() const { return root ? &findings[root->finding] : nullptr; }
};

// Makes incidents[index] the one shown: copies its findings, root cause and cross-rank
// verdict to the report's own fields. Does nothing for an index out of range.
void show_incident(DiagnosisReport& report, std::size_t index);

// The last steps of a diagnosis, once inputs and findings are gathered (by a scan, or
// merged from node summaries): findings in order of first occurrence, the cross-rank
// analysis, the root cause. Findings `expected` names are marked before the root cause is chosen.
void conclude_diagnosis(DiagnosisReport& report, const KnowledgeBase& kb, const ClusterOptions& cluster,
                        const ExpectedErrors* expected = nullptr);
// The same for one incident: its findings, the cross-rank analysis of its inputs only.
void conclude_incident(IncidentReport& incident, const InputStore& inputs, const KnowledgeBase& kb,
                       const ClusterOptions& cluster, const ExpectedErrors* expected = nullptr);

class KbMatcher;
class WordFallback;

class Diagnoser {
 public:
  // Compiles the knowledge base for scanning; problems with patterns go to `problems`.
  // `cache_dir`, when given, keeps the compiled pattern database between runs.
  // `word_model`: the word fallback's model (bytes of words.model); nullopt = the one
  // embedded in the binary, an empty view = no fallback.
  Diagnoser(const KnowledgeBase& kb, std::vector<KbProblem>& problems, const std::string& cache_dir = {},
            std::optional<std::string_view> word_model = std::nullopt);
  ~Diagnoser();
  Diagnoser(const Diagnoser&) = delete;
  Diagnoser& operator=(const Diagnoser&) = delete;

  DiagnosisReport run(const DiagnoseOptions& options) const;
  // The compiled knowledge base, for scanners of live input (src/live).
  const KbMatcher& matcher() const { return *matcher_; }

 private:
  const KnowledgeBase& kb_;
  std::unique_ptr<WordFallback> words_;  // the embedded word model; null when off
  std::unique_ptr<KbMatcher> matcher_;
};

}  // namespace npu_doctor
