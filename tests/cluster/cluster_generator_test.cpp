// The culprit search on synthetic clusters (gen_cluster.py): every fault kind, several
// sizes and seeds, clock skew between nodes. Precision and recall must stay >= 0.95.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "diagnosis/diagnosis.hpp"
#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

TEST(ClusterGenerator, CulpritPrecisionAndRecallOnAFixedSeedSet) {
  if (!find_on_path("python3", std::getenv("PATH") ? std::getenv("PATH") : "")) GTEST_SKIP() << "python3 not found";
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(testing::builtin_kb(), problems);
  int named = 0, named_right = 0, faults = 0, found = 0;
  std::string misses;
  struct Variant {
    int ranks;
    const char* named_peer;  // share of timeouts that name the culprit
  };
  for (const Variant v : {Variant{8, "0.7"}, Variant{32, "0.7"}, Variant{16, "0"}}) {
    const int ranks = v.ranks;
    for (const std::string fault : {"oom", "aicore", "link", "killed", "rankcfg", "none"}) {
      for (int seed = 1; seed <= 3; ++seed) {
        testing::TempDir dir;
        CommandOptions o;
        o.timeout = std::chrono::seconds(60);
        const auto gen = run_command({"python3", NPU_DOCTOR_CLUSTER_GEN, dir.path().string(), "--ranks",
                                      std::to_string(ranks), "--fault", fault, "--seed", std::to_string(seed),
                                      "--skew-ms", "2000", "--named-peer", v.named_peer},
                                     o);
        ASSERT_TRUE(gen.ok()) << gen.describe() << gen.err;
        const auto truth = nlohmann::json::parse(testing::read_file(dir.path() / "truth.json"));
        DiagnoseOptions opts;
        opts.paths = {dir.path().string()};
        opts.jobs = 2;
        const auto report = diagnoser.run(opts);
        ASSERT_TRUE(report.cluster) << fault << " " << ranks;
        const auto& c = *report.cluster;
        EXPECT_EQ(c.ranks, ranks);
        const bool has_fault = !truth["culprit"].is_null();
        if (has_fault) ++faults;
        if (c.culprit) {
          ++named;
          if (has_fault && c.culprit->rank == truth["culprit"].get<int>()) {
            ++named_right;
            ++found;
          } else {
            misses += fault + " ranks=" + std::to_string(ranks) + " seed=" + std::to_string(seed) + ": named " +
                      std::to_string(c.culprit->rank) + "\n";
          }
        } else if (has_fault) {
          misses += fault + " ranks=" + std::to_string(ranks) + " seed=" + std::to_string(seed) + ": none named\n";
        }
        // The overall root cause follows the culprit.
        if (has_fault && c.culprit && c.culprit->entry && report.root_finding()) {
          EXPECT_EQ(report.root_finding()->entry, c.culprit->entry) << fault;
        }
      }
    }
  }
  const double precision = named ? static_cast<double>(named_right) / named : 1.0;
  const double recall = faults ? static_cast<double>(found) / faults : 1.0;
  std::cout << "culprit precision " << precision << " (" << named_right << "/" << named << "), recall " << recall
            << " (" << found << "/" << faults << ")\n" << misses;
  EXPECT_GE(precision, 0.95) << misses;
  EXPECT_GE(recall, 0.95) << misses;
}

}  // namespace
}  // namespace npu_doctor
