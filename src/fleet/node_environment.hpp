#pragma once
// `cluster --check`: the environment doctor run on a node, reduced to what a cluster
// report needs: the facts (versions) to compare between nodes, and its warnings and errors.
#include <chrono>
#include <string>

#include "node_summary.hpp"

namespace npu_doctor {

struct NodeEnvironmentOptions {
  bool check = false;                        // off: nothing is added
  std::string root = "/";                    // a sysroot to inspect instead of this machine
  std::chrono::milliseconds command_timeout{10000};
};

void add_node_environment(NodeSummary& summary, const KnowledgeBase& kb, const NodeEnvironmentOptions& options);

}  // namespace npu_doctor
