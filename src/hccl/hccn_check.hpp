#pragma once
// `hccl hccn`: the NPU NICs of one or more nodes as hccn_tool reports them. Flags links
// that are down or flapped, unhealthy networks, NICs without an IP, the same IP on two
// NICs, and TLS switched on for some NICs and off for others (ranks then cannot connect).
#include <string>
#include <vector>

#include "env_check.hpp"
#include "hccn_output.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::hccl {

struct HccnNode {
  std::string name;                  // the file, or "this host" when hccn_tool ran here
  std::vector<HccnDevice> devices;   // by id
};

struct HccnReport {
  std::string kb_version;
  bool live = false;                 // npu-doctor ran hccn_tool itself
  std::vector<HccnNode> nodes;
  std::vector<InputProblem> unreadable;
  std::vector<Finding> findings;     // errors first
};

// `nodes` as parsed; findings are filled in.
HccnReport check_hccn(std::vector<HccnNode> nodes, const KnowledgeBase& kb);

}  // namespace npu_doctor::hccl
