#pragma once
// The built-in knowledge base travels inside the binary as a compact snapshot written at
// build time by tools/kbc.cpp from kb/*.yaml (after a full lint), so start-up does not
// parse YAML.
#include <optional>
#include <string>
#include <string_view>

#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor {

std::string write_kb_snapshot(const KnowledgeBase& kb);

// nullopt when `data` is not a snapshot of this build's format.
std::optional<KnowledgeBase> read_kb_snapshot(std::string_view data);

// The version and entry count of a snapshot without decoding its entries (--version).
struct KbSnapshotSummary {
  std::string version;
  std::size_t entries = 0;
};
std::optional<KbSnapshotSummary> read_kb_snapshot_summary(std::string_view data);

}  // namespace npu_doctor
