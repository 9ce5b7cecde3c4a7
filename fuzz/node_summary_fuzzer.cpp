// Per-node summaries as `merge` reads them (src/fleet/node_summary_json.cpp, contract
// docs/json-node-summary-v1.md), then the merge of what was read with itself, which is
// where the numbers in a summary (counts, ranks, time stamps) are used.
#include "fuzz_support.hpp"
#include "fleet/node_summary.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  NodeSummary summary;
  std::string error;
  std::vector<std::string> warnings;
  if (!parse_node_summary(fuzz::as_text(data, size), fuzz::builtin_kb(), summary, error, warnings)) return 0;
  // What was read writes out and reads back.
  const std::string again = node_summary_json(summary);
  NodeSummary reread;
  if (!parse_node_summary(again, fuzz::builtin_kb(), reread, error, warnings)) __builtin_trap();
  std::vector<NodeSummary> nodes{summary, reread};
  (void)merge_node_summaries(std::move(nodes), fuzz::builtin_kb(), MergeOptions{});
  return 0;
}
