#pragma once
// The sink through which an analysis raises findings by entry id (hccl, net, isolate,
// memory, profile): one finding per knowledge-base entry, each with the places that show
// it as evidence. The same problem in 10,000 files stays one finding whose count says how
// often it was seen and whose evidence keeps the first few. Ids are kb_id::... constants,
// so an entry the knowledge base lacks does not compile (KnowledgeBase::entry()).
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

class FindingSet {
 public:
  explicit FindingSet(const KnowledgeBase& kb, std::size_t max_evidence = 20) : kb_(kb), max_evidence_(max_evidence) {}

  // Adds one occurrence of entry `id`.
  void add(EntryId id, Evidence evidence);

  // Findings in the order their entries were first raised.
  const std::vector<Finding>& findings() const { return findings_; }
  std::vector<Finding> take() { return std::move(findings_); }
  // The same, worst severity first (ties keep the order raised): how reports list them.
  std::vector<Finding> take_worst_first();
  bool has(EntryId id) const;

 private:
  const KnowledgeBase& kb_;
  std::size_t max_evidence_;
  std::vector<Finding> findings_;
};

// Evidence about a place in a file: `path`:`line` showing `text`, with named values.
Evidence evidence_at(std::string path, std::size_t line, std::string text,
                     std::vector<std::pair<std::string, std::string>> captures = {});

// The worst severity among findings (nullopt when there are none).
std::optional<Severity> worst_severity(const std::vector<Finding>& findings);

// 1 when any finding is a warning or worse, else 0: the exit status of hccl, net and isolate.
int exit_status_for(const std::vector<Finding>& findings);

}  // namespace npu_doctor
