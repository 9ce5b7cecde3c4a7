// `npu-doctor cluster` as a single node (what every node of a Kubernetes or Slurm job
// runs) and `npu-doctor merge` of the summaries, through the real binary.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet_test_support.hpp"
#include "support/html_check.hpp"

namespace npu_doctor {
namespace {

using testing::run_npu_doctor;

TEST(ClusterCli, PerNodeSummariesMergeIntoTheClusterVerdict) {
  testing::TempDir dir;
  const auto truth = testing::generate_cluster(dir, 16, 4, "aicore", 11);
  if (truth.empty()) GTEST_SKIP() << "python3 not found";
  std::vector<std::string> merge_args = {"merge", "-f", "json"};
  for (int node = 0; node < 4; ++node) {
    const std::string summary = (dir.path() / ("summary-" + std::to_string(node) + ".json")).string();
    // Each node runs alone: its own report, plus the summary for the merge.
    const auto r = run_npu_doctor({"cluster", "--logs", (dir.path() / ("node-" + std::to_string(node))).string(),
                                   "--hostname", "node-" + std::to_string(node), "--summary-out", summary, "-f", "json"});
    EXPECT_LE(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("1 of 1 node(s) scanned (local)"), std::string::npos) << r.err;
    const auto own = nlohmann::json::parse(testing::read_file(summary));
    EXPECT_EQ(own["schema"], "npu-doctor/node-summary/v1");
    EXPECT_EQ(own["host"], "node-" + std::to_string(node));
    merge_args.push_back(summary);
  }
  const auto merged = run_npu_doctor(merge_args);
  ASSERT_EQ(merged.exit_code, 1) << merged.err;
  const auto report = nlohmann::json::parse(merged.out);
  ASSERT_TRUE(report["cluster"].is_object()) << merged.out.substr(0, 500);
  EXPECT_EQ(report["cluster"]["culprit"]["rank"], truth["culprit"]);
  EXPECT_EQ(report["cluster"]["ranks"], 16);
  EXPECT_NE(merged.err.find("merge: 4 node summaries"), std::string::npos);
  // The same report as one HTML page, the culprit in its cluster table.
  merge_args[2] = "html";
  const auto page = run_npu_doctor(merge_args);
  EXPECT_EQ(page.exit_code, 1);
  EXPECT_EQ(testing::html_problem(page.out), "");
  EXPECT_NE(page.out.find("<tr><th>culprit</th><td>rank " + std::to_string(truth["culprit"].get<int>())), std::string::npos);
}

// A single node with --summary-out reads its summary back from that file (never holding
// its text whole); the report is the one made from the summary's text without the file.
TEST(ClusterCli, ASingleNodesReportIsTheSameReadBackFromItsSummaryFile) {
  testing::TempDir dir;
  const auto truth = testing::generate_cluster(dir, 8, 8, "aicore", 5);
  if (truth.empty()) GTEST_SKIP() << "python3 not found";
  const std::string logs = (dir.path() / "node-0").string();
  const std::string summary = (dir.path() / "summary.json").string();
  const auto from_text = run_npu_doctor({"cluster", "--logs", logs, "--hostname", "n0", "-j", "1", "-f", "json"});
  const auto from_file = run_npu_doctor(
      {"cluster", "--logs", logs, "--hostname", "n0", "-j", "1", "--summary-out", summary, "-f", "json"});
  ASSERT_EQ(from_text.exit_code, 1) << from_text.err;
  ASSERT_EQ(from_file.exit_code, 1) << from_file.err;
  EXPECT_EQ(from_file.out, from_text.out);
  const auto report = nlohmann::json::parse(from_file.out);
  EXPECT_EQ(report["inputs"].size(), nlohmann::json::parse(testing::read_file(summary))["inputs"].size());
}

TEST(ClusterCli, MergeLeavesOutWhatIsNotASummaryAndFailsWhenNothingIsLeft) {
  testing::TempDir dir;
  const auto junk = dir.write("junk.json", "{\"hello\": 1}");
  const auto text = dir.write("notes.txt", "plain text\n");
  const auto r = run_npu_doctor({"merge", junk.string(), text.string(), (dir.path() / "missing.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("junk.json: not a node summary"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("notes.txt: not JSON"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no readable node summary among 3 file(s)"), std::string::npos) << r.err;
}

// A summary of a million inputs is ~350 MiB and is read; a file past 4 GiB (sparse here,
// nothing is written) is left out unread with the reason.
TEST(ClusterCli, MergeLeavesOutAFileLargerThanAnySummary) {
  testing::TempDir dir;
  const auto huge = dir.path() / "huge.json";
  { std::ofstream(huge.string()) << "{"; }
  std::filesystem::resize_file(huge, (std::uintmax_t{4} << 30) + 1);
  const auto r = run_npu_doctor({"merge", huge.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("huge.json: larger than 4 GiB: not a node summary"), std::string::npos) << r.err;
}

// --expected (docs/expected-errors.md) on the cluster's verdict: node 0 applies the
// declarations to the merged findings, in `cluster` and in `merge` of the summaries alike;
// a broken file is a usage error that names it.
TEST(ClusterCli, ExpectedErrorsAreAppliedToTheMergedVerdict) {
  testing::TempDir dir;
  const auto logs = dir.path() / "node-0";
  std::filesystem::create_directories(logs);
  { std::ofstream(logs / "npu-smi.log") << "DCMI module initialize failed. ret is -8005\n"; }
  const auto file = dir.write("expected.yaml",
                              "schema: npu-doctor/expected/v1\n"
                              "expected:\n"
                              "  - rule: device.dcmi-*\n"
                              "    reason: harmless on this board (vendor README)\n")
                        .string();
  const std::string summary = (dir.path() / "summary.json").string();
  const auto plain = run_npu_doctor({"cluster", "--logs", logs.string(), "--summary-out", summary, "-f", "json"});
  ASSERT_EQ(plain.exit_code, 1) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out)["root_cause"].is_null());

  const auto declared = run_npu_doctor({"cluster", "--logs", logs.string(), "--expected", file, "-f", "json"});
  EXPECT_EQ(declared.exit_code, 0) << declared.err;
  auto j = nlohmann::json::parse(declared.out);
  EXPECT_TRUE(j["root_cause"].is_null());
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_EQ(j["findings"][0]["expected"]["reason"], "harmless on this board (vendor README)");

  EXPECT_EQ(run_npu_doctor({"merge", summary}).exit_code, 1);
  const auto merged = run_npu_doctor({"merge", "--expected", file, "-f", "json", summary});
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  j = nlohmann::json::parse(merged.out);
  EXPECT_TRUE(j["root_cause"].is_null());
  ASSERT_FALSE(j["findings"].empty());
  EXPECT_EQ(j["findings"][0]["expected"]["declared_at"], file + ":3");
  const auto text = run_npu_doctor({"merge", "--expected", file, summary});
  EXPECT_NE(text.out.find("expected here: harmless on this board (vendor README)"), std::string::npos) << text.out;

  const auto broken = dir.write("broken.yaml", "schema: npu-doctor/expected/v1\nexpected:\n  - {rule: x}\n").string();
  for (const std::string command : {"cluster", "merge"}) {
    const auto bad = command == "merge" ? run_npu_doctor({"merge", "--expected", broken, summary})
                                        : run_npu_doctor({"cluster", "--logs", logs.string(), "--expected", broken});
    EXPECT_EQ(bad.exit_code, 2) << command;
    EXPECT_NE(bad.err.find(broken + ":3: a declaration needs a 'reason'"), std::string::npos) << command << bad.err;
    EXPECT_EQ(bad.out, "") << command;
  }
}

TEST(ClusterCli, UsageErrorsAreExitTwo) {
  EXPECT_EQ(run_npu_doctor({"cluster"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"cluster", "--logs", "/nonexistent", "--node-timeout", "soon"}).exit_code, 2);
  const auto none = run_npu_doctor({"cluster", "--logs", "/nonexistent/{hostname}"});
  EXPECT_EQ(none.exit_code, 2) << none.err;
  EXPECT_NE(none.err.find("no node could be scanned"), std::string::npos) << none.err;
}

TEST(ClusterCli, AScanThatHangsIsCutAtTheNodeTimeout) {
  testing::TempDir dir;
  const auto fifo = dir.path() / "stuck.log";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // A writer that never writes: reading the FIFO blocks for good.
  const int writer = open(fifo.c_str(), O_RDWR);
  ASSERT_GE(writer, 0);
  const auto r = run_npu_doctor({"cluster", "--logs", fifo.string(), "--node-timeout", "1s", "-f", "json"});
  close(writer);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  bool unscanned = false;
  for (const auto& f : report["findings"]) unscanned = unscanned || f["rule"] == "cluster.node-unscanned";
  EXPECT_TRUE(unscanned) << r.out.substr(0, 800);
  EXPECT_NE(r.out.find("did not finish within --node-timeout 1s"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor
