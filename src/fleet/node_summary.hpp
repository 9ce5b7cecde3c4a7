#pragma once
// What one node sends for a whole-cluster diagnosis (`npu-doctor cluster`, MPI or
// --summary-out files merged later with `npu-doctor merge`): its inputs with their rank
// timelines, its findings with evidence windows, the facts its environment check read
// (versions), and whether its scan finished. Compact: no log text beyond the evidence.
#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "diagnosis/diagnosis.hpp"

namespace npu_doctor {

struct NodeSummary {
  enum class Status { ok, failed, timeout };
  std::string host;
  int node = 0;                                   // the MPI rank of the process that scanned it
  Status status = Status::ok;
  std::string note;                               // why failed / timed out, in plain words
  double seconds = 0;                             // how long the scan took
  std::string kb_version;
  InputStore inputs;
  std::vector<Finding> findings;                  // log findings; evidence.input indexes `inputs`
  std::map<std::string, std::string> facts;       // "driver_version" -> "24.1.rc2" (from --check)
  std::vector<Finding> check_findings;            // the environment check's warnings and errors
};

std::string_view to_string(NodeSummary::Status s);

// The summary as JSON (schema "npu-doctor/node-summary/v1", docs/json-node-summary-v1.md).
std::string node_summary_json(const NodeSummary& s);
// The same, streamed: one input or finding in memory at a time.
void write_node_summary_json(const NodeSummary& s, std::ostream& out);

// Reads a summary back; entries are looked up in `kb` by id (an id it does not know is
// dropped and named in `warnings`). Returns false with `error` set for text that is not a
// node summary. `out.inputs` is replaced; room reserved in it beforehand is used (a caller
// that knows the number of inputs spares the vector's doublings).
bool parse_node_summary(std::string_view json, const KnowledgeBase& kb, NodeSummary& out, std::string& error,
                        std::vector<std::string>& warnings);
// The same from a stream (a summary file), read as it is parsed.
bool parse_node_summary(std::istream& json, const KnowledgeBase& kb, NodeSummary& out, std::string& error,
                        std::vector<std::string>& warnings);

struct MergeOptions {
  std::size_t max_evidence = 3;
  ClusterOptions cluster;
  // The user's expected errors (cluster/merge --expected): applied where the verdict is
  // made, on node 0, to the merged findings; the nodes' summaries do not carry them.
  std::shared_ptr<const ExpectedErrors> expected;
};

// One cluster report from every node's summary: inputs in node order, findings merged
// by entry and code, nodes that failed or timed out and facts that differ between nodes
// as findings of their own, then the cross-rank analysis and the root cause.
DiagnosisReport merge_node_summaries(std::vector<NodeSummary> nodes, const KnowledgeBase& kb,
                                     const MergeOptions& options);

}  // namespace npu_doctor
