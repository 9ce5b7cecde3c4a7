// Node summaries: the JSON round trip, strict reading, and the merge that must agree
// with one scan over all the logs.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <thread>

#include "fleet/node_scan.hpp"
#include "fleet_test_support.hpp"
#include "fleet/node_summary.hpp"

namespace npu_doctor {
namespace {

const Finding* find_entry(const DiagnosisReport& r, std::string_view id) {
  for (const auto& f : r.findings) {
    if (f.entry->id == id) return &f;
  }
  return nullptr;
}

NodeSummary reparse(const NodeSummary& s) {
  NodeSummary back;
  std::string error;
  std::vector<std::string> warnings;
  EXPECT_TRUE(parse_node_summary(node_summary_json(s), testing::builtin_kb(), back, error, warnings)) << error;
  EXPECT_TRUE(warnings.empty());
  return back;
}

// The reader fills the caller's store, with the caller's memory budget: a summary of many
// inputs is read into records that spill to the store's file, not into one vector.
TEST(NodeSummary, ReadingFillsTheCallersInputStore) {
  NodeSummary s;
  s.host = "n0";
  for (int i = 0; i < 300; ++i) s.inputs.push_back(input_report("/logs/rank_" + std::to_string(i) + ".log", "file"));
  NodeSummary back;
  back.inputs = InputStore(std::size_t{1024});  // a budget of 1 KiB: most records go to the file
  std::string error;
  std::vector<std::string> warnings;
  ASSERT_TRUE(parse_node_summary(node_summary_json(s), testing::builtin_kb(), back, error, warnings)) << error;
  ASSERT_EQ(back.inputs.size(), 300u);
  EXPECT_TRUE(back.inputs.spilled()) << "read with the caller's budget";
  // The budget and one record over it, and the offsets (a block of 512 at this budget).
  EXPECT_LE(back.inputs.memory_bytes(), 1024u + 200u + 300u * 8u);
  EXPECT_EQ(back.inputs[299].path, "/logs/rank_299.log");
  EXPECT_EQ(back.inputs[0].path, "/logs/rank_0.log");
}

TEST(NodeSummary, MergedSummariesNameTheSameRootCauseAsOneScanOfAllLogs) {
  for (const std::string fault : {"aicore", "oom", "killed"}) {
    testing::TempDir dir;
    const auto truth = testing::generate_cluster(dir, 16, 4, fault, 5);
    if (truth.empty()) GTEST_SKIP() << "python3 not found";
    std::vector<KbProblem> problems;
    const Diagnoser diagnoser(testing::builtin_kb(), problems);
    DiagnoseOptions all;
    all.paths = {dir.path().string()};
    all.jobs = 2;
    const DiagnosisReport whole = diagnoser.run(all);
    ASSERT_TRUE(whole.cluster && whole.cluster->culprit) << fault;
    ASSERT_EQ(whole.cluster->culprit->rank, truth["culprit"].get<int>()) << fault;

    std::vector<NodeSummary> nodes;
    for (int node = 3; node >= 0; --node) {  // arrival order must not matter
      DiagnoseOptions one = all;
      one.paths = {(dir.path() / ("node-" + std::to_string(node))).string()};
      nodes.push_back(reparse(scan_node(diagnoser, one, "node-" + std::to_string(node), node, "test")));
    }
    const DiagnosisReport merged = merge_node_summaries(std::move(nodes), testing::builtin_kb(), MergeOptions{});
    ASSERT_TRUE(merged.cluster && merged.cluster->culprit) << fault;
    EXPECT_EQ(merged.cluster->culprit->rank, whole.cluster->culprit->rank) << fault;
    EXPECT_EQ(merged.cluster->basis, whole.cluster->basis) << fault;
    EXPECT_EQ(merged.cluster->ranks, 16);
    ASSERT_TRUE(merged.root && whole.root);
    EXPECT_EQ(merged.root_finding()->entry, whole.root_finding()->entry) << fault;
    const auto logs = std::count_if(whole.inputs.begin(), whole.inputs.end(),
                                    [](const InputReport& in) { return in.path.find("/node-") != std::string::npos; });
    EXPECT_EQ(static_cast<std::ptrdiff_t>(merged.inputs.size()), logs);  // all but truth.json
    uint64_t merged_count = 0, whole_count = 0;
    for (const auto& f : merged.findings) merged_count += f.count;
    for (const auto& f : whole.findings) whole_count += f.count;
    EXPECT_EQ(merged_count, whole_count) << fault;
    for (const auto& in : merged.inputs) EXPECT_TRUE(in.host.str().starts_with("node-")) << in.path;
  }
}

TEST(NodeSummary, JsonRoundTripKeepsEverything) {
  testing::TempDir dir;
  if (testing::generate_cluster(dir, 8, 4, "link", 2).empty()) GTEST_SKIP() << "python3 not found";
  std::vector<KbProblem> problems;
  const Diagnoser diagnoser(testing::builtin_kb(), problems);
  DiagnoseOptions opts;
  opts.paths = {(dir.path() / "node-0").string()};
  NodeSummary s = scan_node(diagnoser, opts, "host-a", 0, "v1");
  s.facts = {{"driver_version", "24.1.rc2"}, {"npu_count", "8"}};
  ASSERT_FALSE(s.findings.empty());
  ASSERT_FALSE(s.inputs.empty());
  const std::string once = node_summary_json(s);
  // Written as a stream: the bytes of nlohmann's dump of the whole document.
  EXPECT_EQ(nlohmann::json::parse(once).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n", once);
  const NodeSummary back = reparse(s);
  EXPECT_EQ(node_summary_json(back), once);
  EXPECT_EQ(back.findings.front().evidence.front().before.size(), s.findings.front().evidence.front().before.size());
  EXPECT_EQ(back.inputs.front().timeline.events.size(), s.inputs.front().timeline.events.size());
  EXPECT_EQ(back.facts.at("driver_version"), "24.1.rc2");
}

// The v1 numbers (docs/json-node-summary-v1.md) do not follow the enum: 2 stays "exact
// code" and 3 "message" for summaries written before source messages existed (4).
TEST(NodeSummary, SpecificityKeepsTheNumbersOfTheV1Contract) {
  const auto& kb = testing::builtin_kb();
  const std::pair<int, Specificity> v1[] = {{-1, Specificity::words},      {0, Specificity::unknown_code},
                                            {1, Specificity::code_family}, {2, Specificity::exact_code},
                                            {3, Specificity::message},     {4, Specificity::source_message}};
  for (const auto& [number, specificity] : v1) {
    NodeSummary s;
    s.host = "h";
    InputReport in;
    in.path = "a.log";
    s.inputs.push_back(in);
    Finding f;
    f.entry = kb.find_id("cluster.silent-rank");
    ASSERT_NE(f.entry, nullptr);
    f.specificity = specificity;
    f.count = 1;
    Evidence e;
    e.path = "a.log";
    e.line = 1;
    e.text = "x";
    f.evidence.push_back(std::move(e));
    s.findings.push_back(std::move(f));
    const std::string text = node_summary_json(s);
    EXPECT_EQ(nlohmann::json::parse(text)["findings"][0]["specificity"], number);
    NodeSummary back;
    std::string error;
    std::vector<std::string> warnings;
    ASSERT_TRUE(parse_node_summary(text, kb, back, error, warnings)) << number << ": " << error;
    ASSERT_EQ(back.findings.size(), 1u);
    EXPECT_EQ(back.findings[0].specificity, specificity) << number;
  }
}

TEST(NodeSummary, ReadingRejectsWhatIsNotASummary) {
  const auto& kb = testing::builtin_kb();
  NodeSummary s;
  std::string error;
  std::vector<std::string> warnings;
  EXPECT_FALSE(parse_node_summary("garbage", kb, s, error, warnings));
  EXPECT_EQ(error, "not JSON");
  EXPECT_FALSE(parse_node_summary(R"({"schema":"npu-doctor/diagnosis/v1"})", kb, s, error, warnings));
  EXPECT_NE(error.find("not a node summary"), std::string::npos);
  const std::string base = R"({"schema":"npu-doctor/node-summary/v1","host":"h","node":1,"status":"ok","inputs":[],)";
  EXPECT_FALSE(parse_node_summary(base + R"("findings":[{"entry":"cluster.silent-rank","specificity":3,"count":1,"evidence":[{"input":4,"line":1}]}]})",
                                  kb, s, error, warnings));
  EXPECT_NE(error.find("evidence names input 4"), std::string::npos) << error;
  EXPECT_FALSE(parse_node_summary(base + R"("findings":[{"entry":"cluster.silent-rank","specificity":9,"evidence":[]}]})", kb,
                                  s, error, warnings));
  EXPECT_FALSE(parse_node_summary(base + R"("findings":"many"})", kb, s, error, warnings));
  EXPECT_NE(error.find("malformed node summary"), std::string::npos);
  // Inputs and findings are read one by one as they are parsed: a wrong one is still named.
  const std::string head = R"({"schema":"npu-doctor/node-summary/v1","host":"h","node":1,"status":"ok",)";
  EXPECT_FALSE(parse_node_summary(head + R"("inputs":[7]})", kb, s, error, warnings));
  EXPECT_NE(error.find("an input is not an object"), std::string::npos) << error;
  EXPECT_FALSE(parse_node_summary(head + R"("inputs":{"a":1}})", kb, s, error, warnings));
  EXPECT_NE(error.find("\"inputs\" is not an array"), std::string::npos) << error;
  EXPECT_FALSE(parse_node_summary(head + R"("findings":[[1]]})", kb, s, error, warnings));
  EXPECT_NE(error.find("a finding is not an object"), std::string::npos) << error;
  EXPECT_FALSE(parse_node_summary(R"({"inputs":[1],"schema":"npu-doctor/diagnosis/v1"})", kb, s, error, warnings));
  EXPECT_NE(error.find("not a node summary"), std::string::npos) << "the schema is named first";
  // An entry this knowledge base lacks (a newer node) is left out with a warning.
  ASSERT_TRUE(parse_node_summary(
      base + R"("findings":[{"entry":"no.such-entry","specificity":3,"count":1,"evidence":[{"input":0}]}]})", kb, s,
      error, warnings))
      << error;
  EXPECT_TRUE(s.findings.empty());
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("no.such-entry"), std::string::npos);
}

TEST(NodeSummary, NodesThatDidNotFinishAreFindingsNamingTheReason) {
  NodeSummary ok;
  ok.host = "node-a";
  NodeSummary late;
  late.host = "node-b";
  late.node = 1;
  late.status = NodeSummary::Status::timeout;
  late.note = "did not finish within --node-timeout 5s";
  const auto report = merge_node_summaries({ok, late}, testing::builtin_kb(), MergeOptions{});
  const Finding* f = find_entry(report, "cluster.node-unscanned");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 1u);
  EXPECT_NE(f->first().text.find("node-b"), std::string::npos);
  EXPECT_NE(f->first().text.find("--node-timeout 5s"), std::string::npos);
}

TEST(NodeSummary, VersionsThatDifferBetweenNodesAreAFinding) {
  std::vector<NodeSummary> nodes(3);
  for (int i = 0; i < 3; ++i) {
    nodes[static_cast<std::size_t>(i)].host = "n" + std::to_string(i);
    nodes[static_cast<std::size_t>(i)].node = i;
    nodes[static_cast<std::size_t>(i)].facts = {{"driver_version", "24.1.rc2"},
                                                {"torch_npu_version", "2.1.0"},
                                                {"npu_count", std::to_string(8 - i)}};
  }
  EXPECT_EQ(find_entry(merge_node_summaries(nodes, testing::builtin_kb(), MergeOptions{}), "cluster.node-version-mismatch"),
            nullptr)
      << "same versions, different counts: nothing to report";
  nodes[2].facts["driver_version"] = "23.0.3";
  const auto report = merge_node_summaries(nodes, testing::builtin_kb(), MergeOptions{});
  const Finding* f = find_entry(report, "cluster.node-version-mismatch");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->code, "driver_version");
  EXPECT_EQ(f->first().text, "driver_version: 23.0.3 on n2; 24.1.rc2 on n0, n1");
}

TEST(NodeSummary, PlaceholdersExpandPerNode) {
  EXPECT_EQ(expand_node_placeholders("/logs/{hostname}/rank{rank}/{{x}}", "gpu7", 3), "/logs/gpu7/rank3/{x}");
  EXPECT_EQ(expand_node_placeholders("{rank", "h", 1), "{rank");
}

TEST(NodeSummary, WorkPastTheDeadlineIsAbandoned) {
  const auto quick = run_with_deadline<int>([] { return 7; }, std::chrono::seconds(10));
  ASSERT_TRUE(quick);
  EXPECT_EQ(*quick, 7);
  const auto slow = run_with_deadline<int>(
      [] {
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        return 1;
      },
      std::chrono::milliseconds(20));
  EXPECT_FALSE(slow);
  EXPECT_THROW(run_with_deadline<int>([]() -> int { throw std::runtime_error("x"); }, std::chrono::seconds(10)),
               std::runtime_error);
}

}  // namespace
}  // namespace npu_doctor
