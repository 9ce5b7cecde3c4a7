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

}  // namespace npu_doctor
