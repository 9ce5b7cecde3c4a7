// `hccl env` analysis: disagreements between nodes, ranks, values HCCL refuses, timeouts.
#include <gtest/gtest.h>

#include <chrono>

#include "hccl/env_check.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::builtin_kb;
using npu_doctor::testing::read_file;
using testing::capture;
using testing::find;

EnvFile env(const std::string& path, const std::string& text) {
  std::string error;
  auto f = parse_env_file(path, text, &error);
  EXPECT_TRUE(f) << error;
  return f.value_or(EnvFile{});
}

EnvFile fixture_env(const std::string& rel) { return env(rel, read_file(testing::fixture(rel))); }

const EnvVariableRow* row(const EnvReport& r, const std::string& name) {
  for (const auto& v : r.variables) {
    if (v.name == name) return &v;
  }
  return nullptr;
}

TEST(HcclEnvCheck, AgreeingNodesInDifferentFormatsAreClean) {
  const auto r = check_env_files({fixture_env("env/healthy/node-0.env"), fixture_env("env/healthy/node-1.env")}, builtin_kb());
  EXPECT_TRUE(r.findings.empty()) << r.findings.front().entry->id;
  ASSERT_NE(row(r, "MASTER_ADDR"), nullptr);
  EXPECT_TRUE(row(r, "MASTER_ADDR")->agree()) << "\"10.0.0.11\" in an export line equals 10.0.0.11";
  // HCCL_IF_IP differs per node by design, HCCL_BUFFSIZE=200 equals the default where unset.
  EXPECT_FALSE(row(r, "HCCL_IF_IP")->agree());
  EXPECT_EQ(row(r, "HCCL_IF_IP")->scope, VarScope::node);
  EXPECT_TRUE(row(r, "HCCL_BUFFSIZE")->agree());
  EXPECT_EQ(row(r, "PATH"), nullptr) << "variables of no interest are not compared";
  EXPECT_EQ(r.files[1].host, "node-1");
}

TEST(HcclEnvCheck, TheSeedsRankCaseAndMismatchesAreFound) {
  const auto r = check_env_files({fixture_env("env/mismatch/rank0.env"), fixture_env("env/mismatch/rank1.env"),
                                  fixture_env("env/mismatch/rank2.environ"), fixture_env("env/mismatch/rank3.env")},
                                 builtin_kb());
  const Finding* dup = find(r, "hccl-config.duplicate-rank");
  ASSERT_NE(dup, nullptr);
  EXPECT_EQ(effective_severity(*dup), Severity::error);
  EXPECT_EQ(dup->entry->category, Category::rank_config);
  ASSERT_EQ(dup->evidence.size(), 2u) << "both files claiming rank 1";
  EXPECT_EQ(dup->evidence[0].path, "env/mismatch/rank1.env");
  EXPECT_EQ(dup->evidence[0].line, 8u);
  EXPECT_EQ(capture(dup->evidence[1], "rank"), "1");

  const Finding* missing = find(r, "hccl-config.missing-rank");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ(capture(missing->first(), "missing"), "2");

  const Finding* port = find(r, "hccl-config.launch-variable-mismatch");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(capture(port->first(), "variable"), "MASTER_PORT");
  EXPECT_EQ(capture(port->evidence[1], "value"), "29501") << "the odd one out";
  EXPECT_EQ(port->evidence[1].line, 3u);

  const Finding* hccl = find(r, "hccl-config.hccl-setting-mismatch");
  ASSERT_NE(hccl, nullptr);
  EXPECT_EQ(hccl->count, 4u) << "HCCL_CONNECT_TIMEOUT (600 | unset=120) and HCCL_EXEC_TIMEOUT (1836 | 60)";
  const Finding* exec = find(r, "hccl-config.exec-timeout-too-low");
  ASSERT_NE(exec, nullptr);
  EXPECT_EQ(exec->first().path, "env/mismatch/rank3.env");
  // Errors come first.
  EXPECT_EQ(effective_severity(r.findings.front()), Severity::error);
  ASSERT_EQ(r.ranks.size(), 1u);
  EXPECT_EQ(r.ranks[0].variable, "RANK");
  EXPECT_EQ(r.ranks[0].size, 4);
  EXPECT_EQ(r.ranks[0].duplicates, std::vector<long long>{1});
}

TEST(HcclEnvCheck, ValuesHcclRefusesAreErrorsWithTheExpectedRange) {
  const auto r = check_env_files({fixture_env("env/invalid.env")}, builtin_kb());
  const Finding* low = find(r, "hccl-config.connect-timeout-too-low");
  ASSERT_NE(low, nullptr);
  EXPECT_EQ(low->first().line, 4u);
  EXPECT_EQ(capture(low->first(), "fix"), "export HCCL_CONNECT_TIMEOUT=600");
  const Finding* invalid = find(r, "hccl-config.invalid-value");
  ASSERT_NE(invalid, nullptr);
  std::set<std::string> vars;
  for (const auto& e : invalid->evidence) vars.insert(capture(e, "variable"));
  EXPECT_TRUE(vars.count("HCCL_RDMA_TC")) << "130 is not a multiple of 4";
  EXPECT_TRUE(vars.count("HCCL_DETERMINISTIC"));
  EXPECT_TRUE(vars.count("HCCL_INTRA_PCIE_ENABLE, HCCL_INTRA_ROCE_ENABLE")) << "both 1 is refused";
  const Finding* port = find(r, "hccl-config.invalid-launch-value");
  ASSERT_NE(port, nullptr);
  EXPECT_EQ(capture(port->first(), "variable"), "MASTER_PORT");
  EXPECT_NE(find(r, "hccl-config.exec-timeout-disabled"), nullptr);
  EXPECT_EQ(find(r, "hccl-config.event-timeout-not-above-exec"), nullptr) << "no comparison with an infinite exec timeout";
}

TEST(HcclEnvCheck, EventTimeoutMustExceedExecTimeout) {
  const auto r = check_env_files({env("a", "HCCL_EXEC_TIMEOUT=2000\nHCCL_EVENT_TIMEOUT=1868\n")}, builtin_kb());
  const Finding* f = find(r, "hccl-config.event-timeout-not-above-exec");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->first().line, 2u);
  const auto ok = check_env_files({env("a", "HCCL_EXEC_TIMEOUT=1836\nHCCL_EVENT_TIMEOUT=1868\n")}, builtin_kb());
  EXPECT_EQ(find(ok, "hccl-config.event-timeout-not-above-exec"), nullptr);
}

TEST(HcclEnvCheck, LargeClustersNeedALongerConnectTimeout) {
  const auto r = check_env_files({env("a", "WORLD_SIZE=6144\n"), env("b", "WORLD_SIZE=6144\nHCCL_CONNECT_TIMEOUT=600\n")},
                                 builtin_kb());
  const Finding* f = find(r, "hccl-config.connect-timeout-small-for-cluster");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 1u) << "only the file at the default";
  EXPECT_EQ(f->first().path, "a");
  EXPECT_EQ(capture(f->first(), "suggested"), "600");
}

TEST(HcclEnvCheck, RankProblems) {
  // Out of range, and a process without RANK while the others have one.
  const auto r = check_env_files({env("a", "RANK=0\nWORLD_SIZE=2\n"), env("b", "RANK=2\nWORLD_SIZE=2\n"),
                                  env("c", "WORLD_SIZE=2\n")},
                                 builtin_kb());
  EXPECT_NE(find(r, "hccl-config.rank-out-of-range"), nullptr);
  const Finding* unset = find(r, "hccl-config.rank-not-set");
  ASSERT_NE(unset, nullptr);
  EXPECT_EQ(unset->first().path, "c");
  EXPECT_EQ(capture(find(r, "hccl-config.missing-rank")->first(), "missing"), "1");
  // Node ranks: a copied node script.
  const auto n = check_env_files({env("n0", "NODE_RANK=0\n"), env("n1", "NODE_RANK=0\n")}, builtin_kb());
  EXPECT_NE(find(n, "hccl-config.duplicate-rank"), nullptr);
}

TEST(HcclEnvCheck, TwoProcessesOnOneDeviceOfOneHost) {
  const auto r = check_env_files({env("a", "HOSTNAME=n0\nRANK=0\nDEVICE_ID=3\n"), env("b", "HOSTNAME=n0\nRANK=1\nDEVICE_ID=3\n"),
                                  env("c", "HOSTNAME=n1\nRANK=2\nDEVICE_ID=3\n")},
                                 builtin_kb());
  const Finding* f = find(r, "hccl-config.duplicate-device");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 2u) << "n1's device 3 is another card";
}

TEST(HcclEnvCheck, TenThousandFilesStayFastAndOneFindingPerProblem) {
  std::vector<EnvFile> files;
  for (int i = 0; i < 10000; ++i) {
    std::string text = "HOSTNAME=node-" + std::to_string(i / 8) + "\nMASTER_ADDR=10.0.0.1\nMASTER_PORT=29500\n" +
                       "WORLD_SIZE=10000\nRANK=" + std::to_string(i == 9999 ? 0 : i) + "\nLOCAL_RANK=" +
                       std::to_string(i % 8) + "\nHCCL_CONNECT_TIMEOUT=" + (i == 4321 ? "900" : "600") + "\n";
    files.push_back(env("rank" + std::to_string(i) + ".env", text));
  }
  const auto start = std::chrono::steady_clock::now();
  const auto r = check_env_files(files, builtin_kb());
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 10.0);
  EXPECT_EQ(find(r, "hccl-config.duplicate-rank")->count, 2u);
  EXPECT_EQ(capture(find(r, "hccl-config.missing-rank")->first(), "missing"), "9999");
  const Finding* mm = find(r, "hccl-config.hccl-setting-mismatch");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->count, 2u);
  EXPECT_NE(capture(mm->first(), "files").find("9999 files"), std::string::npos) << capture(mm->first(), "files");
  EXPECT_EQ(r.findings.size(), 3u);
}

TEST(HcclEnvCheck, FormatRanges) {
  EXPECT_EQ(format_ranges({5, 1, 2, 3, 9, 7, 8}), "1-3,5,7-9");
  EXPECT_EQ(format_ranges({}), "");
}

TEST(HcclVars, ValidationFollowsHcclsOwnRanges) {
  const VarSpec* exec = find_var_spec("HCCL_EXEC_TIMEOUT");
  ASSERT_NE(exec, nullptr);
  EXPECT_FALSE(invalid_because(*exec, "1836"));
  EXPECT_FALSE(invalid_because(*exec, "12.5"));
  EXPECT_TRUE(invalid_because(*exec, "12.555")) << "at most two decimals";
  EXPECT_TRUE(invalid_because(*exec, "-1"));
  EXPECT_FALSE(invalid_because(*find_var_spec("HCCL_IF_IP"), "10.0.0.1%eth0"));
  EXPECT_TRUE(invalid_because(*find_var_spec("HCCL_IF_IP"), "node-1"));
  EXPECT_FALSE(invalid_because(*find_var_spec("HCCL_DETERMINISTIC"), "Strict"));
  EXPECT_TRUE(invalid_because(*find_var_spec("HCCL_IF_BASE_PORT"), "65530"));
  EXPECT_EQ(comparable_value("HCCL_CONNECT_TIMEOUT", " 0600 "), "600");
  EXPECT_EQ(comparable_value("HCCL_EXEC_TIMEOUT", "1836.00"), "1836");
  EXPECT_EQ(scope_of("HCCL_ALGO"), VarScope::job) << "unknown HCCL_* variables are compared";
  EXPECT_EQ(scope_of("HOME"), std::nullopt);
}

}  // namespace
}  // namespace npu_doctor::hccl
