#pragma once
// A synthetic multi-node job (tests/cluster/gen_cluster.py) for the fleet tests.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdlib>
#include <string>

#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::testing {

// Writes DIR/node-<k>/rank_<r>/... for `ranks` ranks, `per_node` per node, and returns
// truth.json; an empty object when python3 is missing.
inline nlohmann::json generate_cluster(const TempDir& dir, int ranks, int per_node, const std::string& fault, int seed) {
  if (!find_on_path("python3", std::getenv("PATH") ? std::getenv("PATH") : "")) return nlohmann::json::object();
  CommandOptions o;
  o.timeout = std::chrono::seconds(60);
  const auto gen = run_command({"python3", NPU_DOCTOR_CLUSTER_GEN, dir.path().string(), "--ranks", std::to_string(ranks),
                                "--ranks-per-node", std::to_string(per_node), "--fault", fault, "--seed",
                                std::to_string(seed)},
                               o);
  if (!gen.ok()) return nlohmann::json::object();
  return nlohmann::json::parse(read_file(dir.path() / "truth.json"));
}

}  // namespace npu_doctor::testing
