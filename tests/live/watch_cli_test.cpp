// `npu-doctor watch` against a real folder that real writers fill while it runs: a plog
// file created after it started, rotation and truncation, the polling fallback, the
// JSON lines, --exec, the Prometheus textfile and stopping. Waits are on what watch prints.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "live/live_child.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::live {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::LiveChild;
using testing::read_file;
using testing::TempDir;

std::string fixture(const std::string& name) { return std::string(NPU_DOCTOR_LIVE_FIXTURES) + "/" + name; }

void append(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::app | std::ios::binary) << text;
}

// The JSON lines printed so far (a line still being written is not one yet).
std::vector<json> incidents(const std::string& out) {
  std::vector<json> all;
  for (const auto& line : testing::lines_of(out.substr(0, out.rfind('\n') + 1))) {
    if (!line.empty()) all.push_back(json::parse(line));
  }
  return all;
}

bool has_rule(const json& report, const std::string& rule) {
  for (const auto& f : report["findings"]) {
    if (f["rule"] == rule) return true;
  }
  return false;
}

const std::vector<std::string> kEnv = {"NO_COLOR=1"};

class WatchCli : public ::testing::TestWithParam<bool> {
 protected:
  // watch DIR with the arguments given, inotify or polling (the test's parameter).
  std::unique_ptr<LiveChild> start(std::vector<std::string> args) {
    std::vector<std::string> all = {"watch", dir_.path().string(), "--settle", "300ms"};
    if (GetParam()) {
      all.push_back("--poll");
      all.push_back("--poll-interval");
      all.push_back("100ms");
    }
    all.insert(all.end(), args.begin(), args.end());
    auto c = std::make_unique<LiveChild>(all, kEnv);
    EXPECT_TRUE(c->wait_for_err("new incidents follow")) << c->err();
    return c;
  }
  TempDir dir_;
};

TEST_P(WatchCli, APlogFileCreatedAfterTheStartIsAnIncident) {
  dir_.write("debug/plog/plog-1_old.log", read_file(fixture("hccl-wait-plog.log")));  // old news
  auto c = start({"-f", "json", "--until-root-cause"});
  EXPECT_NE(c->err().find(GetParam() ? "polling" : "inotify"), std::string::npos) << c->err();
  dir_.write("debug/plog/plog-31207_20250302101401000.log", read_file(fixture("aicore-plog.log")));
  ASSERT_EQ(c->wait_exit(), 1) << c->err();
  const auto all = incidents(c->out());
  ASSERT_EQ(all.size(), 1u) << c->out();
  const json& inc = all[0];
  EXPECT_EQ(inc["schema"], "npu-doctor/incident/v1");
  EXPECT_EQ(inc["incident"], 1);
  EXPECT_FALSE(inc["detected_at"].get<std::string>().empty());
  EXPECT_EQ(inc["root_cause"]["category"], "aicore_exception");
  ASSERT_EQ(inc["inputs"].size(), 1u);
  EXPECT_NE(inc["inputs"][0]["path"].get<std::string>().find("plog-31207_"), std::string::npos);
  EXPECT_FALSE(has_rule(inc, "hccl.ei0002")) << "the old file's content was reported";
}

TEST_P(WatchCli, RotationAndTruncationEachBringTheirOwnIncident) {
  const fs::path log = dir_.write("train.log", "epoch 1\n");
  auto c = start({"-f", "json"});
  auto count_is = [&](std::size_t n) {
    return c->wait_for([&](const std::string& out, const std::string&) { return incidents(out).size() >= n; });
  };
  append(log, read_file(fixture("train-stderr.log")));
  ASSERT_TRUE(count_is(1)) << c->err();
  // Rotated: the old file gains a line under its new name, a new train.log starts.
  fs::rename(log, dir_.path() / "train.log.1");
  append(dir_.path() / "train.log.1", "epoch 2\n");
  append(log, read_file(fixture("hccl-wait-plog.log")));
  ASSERT_TRUE(count_is(2)) << c->err();
  // Truncated in place (copytruncate), then a new failure from its first line.
  fs::resize_file(log, 0);
  append(log,
         "[ERROR] RUNTIME(7,python):2025-03-02-12:00:00.000.000 [api_c_memory.cc:28]7 rtMalloc:ErrCode=207001, "
         "desc=[driver error:out of memory], InnerCode=0x7020016\n");
  ASSERT_TRUE(count_is(3)) << c->err() << c->out();
  c->signal(SIGTERM);
  EXPECT_EQ(c->wait_exit(), 0);
  const auto all = incidents(c->out());
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]["root_cause"]["category"], "aicore_exception");
  EXPECT_EQ(all[1]["root_cause"]["category"], "communication");
  EXPECT_FALSE(has_rule(all[1], "op.aicore-error-report")) << "incident 2 repeated incident 1";
  EXPECT_EQ(all[2]["root_cause"]["category"], "memory");
  EXPECT_EQ(all[2]["root_cause"]["evidence"]["line"], 1) << "the truncated file's lines start again at 1";
}

// -C 0 shows no context lines, but the context rules still read theirs: the aclnn parameter
// error below a dtype check is the dtype not supported (as diagnose reads it).
TEST_P(WatchCli, NoContextLinesShownStillReadsMeaningFromContext) {
  auto c = start({"-f", "json", "--until-root-cause", "-C", "0"});
  dir_.write("op.log", read_file(testing::fixtures_dir() + "/logs/aclnn_dtype_check_before_param_error.log"));
  ASSERT_EQ(c->wait_exit(), 1) << c->err();
  const auto all = incidents(c->out());
  ASSERT_EQ(all.size(), 1u) << c->out();
  EXPECT_EQ(all[0]["root_cause"]["category"], "compile_op_unsupported") << c->out();
  for (const auto& f : all[0]["findings"]) {
    EXPECT_TRUE(f["context"]["before"].empty() && f["context"]["after"].empty()) << f.dump();
  }
}

TEST_P(WatchCli, RepeatsOfTheSameErrorAreOneIncident) {
  const fs::path log = dir_.write("serve.log", "");
  auto c = start({"-f", "json"});
  const std::string oom = "[ERROR] RUNTIME(7,python):2025-03-02-12:00:00.000.000 [api_c_memory.cc:28]7 "
                          "rtMalloc:ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016\n";
  append(log, oom);
  ASSERT_TRUE(c->wait_for([](const std::string& out, const std::string&) { return !incidents(out).empty(); }));
  append(log, oom);
  append(log, read_file(fixture("aicore-plog.log")));  // something new: the next incident
  ASSERT_TRUE(c->wait_for([](const std::string& out, const std::string&) { return incidents(out).size() >= 2; }));
  c->signal(SIGINT);
  EXPECT_EQ(c->wait_exit(), 0);
  const auto all = incidents(c->out());
  ASSERT_EQ(all.size(), 2u) << c->out();
  EXPECT_EQ(all[1]["root_cause"]["category"], "aicore_exception");
}

// --expected (docs/expected-errors.md): errors the user declared are no incident; the next
// failure is, with the declared ones shown as expected if they are in its files.
TEST_P(WatchCli, DeclaredExpectedErrorsAreNoIncident) {
  const fs::path log = dir_.write("serve.log", "");
  const auto expected = dir_.write("../expected-" + std::to_string(GetParam()) + ".yaml",
                                   "schema: npu-doctor/expected/v1\nexpected:\n"
                                   "  - {line: 'rtMalloc:ErrCode=207001', reason: the allocator's probe at start-up}\n");
  auto c = start({"-f", "json", "--expected", expected.string()});
  append(log, "[ERROR] RUNTIME(7,python):2025-03-02-12:00:00.000.000 [api_c_memory.cc:28]7 "
              "rtMalloc:ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016\n");
  append(log, read_file(fixture("aicore-plog.log")));
  ASSERT_TRUE(c->wait_for([](const std::string& out, const std::string&) { return !incidents(out).empty(); }));
  c->signal(SIGTERM);
  EXPECT_EQ(c->wait_exit(), 0);
  const auto all = incidents(c->out());
  ASSERT_EQ(all.size(), 1u) << c->out();
  EXPECT_EQ(all[0]["root_cause"]["category"], "aicore_exception");
  bool marked = false;
  for (const auto& f : all[0]["findings"]) {
    if (f["rule"] == "acl.207001") marked = f.contains("expected") && f["severity"] == "info";
  }
  EXPECT_TRUE(marked) << all[0].dump();
}

TEST_P(WatchCli, ExecGetsTheIncidentOnStdinAndPrometheusTheCount) {
  const fs::path hook_out = dir_.path() / "hook" / "got.json";
  fs::create_directories(hook_out.parent_path());
  const fs::path prom = dir_.path() / "hook" / "watch.prom";
  auto c = start({"-f", "prometheus", "-o", prom.string(), "--exec",
                  "cat > '" + hook_out.string() + ".tmp' && echo \"$NPU_DOCTOR_RULE\" >> '" + hook_out.string() +
                      ".tmp' && mv '" + hook_out.string() + ".tmp' '" + hook_out.string() + "'"});
  ASSERT_TRUE(testing::eventually([&] { return fs::exists(prom); }));
  EXPECT_NE(read_file(prom).find("npu_doctor_watch_incidents_total{command=\"watch\"} 0"), std::string::npos)
      << read_file(prom);
  dir_.write("plog-5_1.log", read_file(fixture("aicore-plog.log")));
  ASSERT_TRUE(testing::eventually([&] { return fs::exists(hook_out); })) << c->err();
  const auto lines = testing::lines_of(read_file(hook_out));
  ASSERT_EQ(lines.size(), 2u);
  const json inc = json::parse(lines[0]);
  EXPECT_EQ(inc["incident"], 1);
  EXPECT_EQ(lines[1], inc["root_cause"]["rule"].get<std::string>());
  ASSERT_TRUE(testing::eventually(
      [&] { return read_file(prom).find("npu_doctor_watch_incidents_total{command=\"watch\"} 1") != std::string::npos; }));
  const std::string metrics = read_file(prom);
  EXPECT_NE(metrics.find("npu_doctor_root_cause_info{command=\"watch\",rule=\"" + inc["root_cause"]["rule"].get<std::string>()),
            std::string::npos)
      << metrics;
  EXPECT_TRUE(c->wait_for_err("incident 1: ")) << c->err();
  EXPECT_TRUE(fs::is_empty(dir_.path() / "hook") || !fs::exists(dir_.path() / "hook" / "watch.prom.tmp"));
  c->signal(SIGTERM);
  EXPECT_EQ(c->wait_exit(), 0);
}

TEST_P(WatchCli, TextIncidentsAndAPathThatIsNotThereYet) {
  const fs::path later = dir_.path() / "later" / "plog";
  auto c = std::make_unique<LiveChild>(
      std::vector<std::string>{"watch", later.string(), "--settle", "300ms", "--until-root-cause"}, kEnv);
  ASSERT_TRUE(c->wait_for_err("(not there yet)")) << c->err();
  dir_.write("later/plog/plog-9_1.log", read_file(fixture("aicore-plog.log")));
  ASSERT_EQ(c->wait_exit(), 1) << c->err();
  EXPECT_NE(c->out().find("== INCIDENT 1"), std::string::npos) << c->out();
  EXPECT_NE(c->out().find("ROOT CAUSE"), std::string::npos) << c->out();
}

INSTANTIATE_TEST_SUITE_P(Live, WatchCli, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Polling" : "Inotify"; });

TEST(WatchCliUsage, PrometheusNeedsAFile) {
  LiveChild c({"watch", "/tmp", "-f", "prometheus"}, kEnv);
  EXPECT_EQ(c.wait_exit(), 2);
  EXPECT_NE(c.err().find("-o FILE"), std::string::npos);
}

}  // namespace
}  // namespace npu_doctor::live
