// The live commands replaying a bundle (--root BUNDLE), as users run them: `bundle`
// records `npu-smi info` and every hccn_tool query with stand-ins (real formats) first on
// PATH; then, with the host tree gone and PATH empty, `hccl hccn --root` and
// `mem watch --root` report what the live commands reported on that host.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bundle/bundle_test_support.hpp"
#include "checks/check_test_support.hpp"
#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace npu_doctor::bundle {
namespace {

using npu_doctor::testing::RunResult;
using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using testing::FixtureHost;

RunResult run_on(const FixtureHost& h, const std::vector<std::string>& args) {
  checks::testing::ScopedEnv scoped(h.env);
  return run_npu_doctor(args);
}

// Offline: no tool anywhere on PATH.
RunResult offline(const std::vector<std::string>& args) { return run_npu_doctor(args, "", {"PATH="}); }

// What must be equal between live `hccl hccn` and its replay (the node's name differs:
// "this host" / the bundle).
json hccn_verdict(const std::string& text) {
  const json j = json::parse(text);
  json v = {{"live", j["live"]}, {"devices", j["nodes"][0]["devices"]}, {"findings", json::array()}};
  for (const auto& f : j["findings"]) {
    json where = json::array();
    for (const auto& e : f["evidence"]) where.push_back({e["path"], e["text"]});
    v["findings"].push_back({f["rule"], f["severity"], where});
  }
  return v;
}

// `mem watch` lines without their time (a replayed sample has none).
std::vector<json> samples_without_time(const std::string& out) {
  std::vector<json> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    json j = json::parse(line);
    j.erase("time");
    lines.push_back(j);
  }
  return lines;
}

struct RecordedHost {
  TempDir t;
  FixtureHost h;
  std::string bundle;
};

// The bundle fixture host with NIC 1 down, its bundle written.
void record(RecordedHost& r) {
  r.h = testing::make_host(r.t.path() / "host");
  fs::remove(r.h.machine + "/bin/hccn_tool");
  hccl::testing::write_script(r.h.machine + "/bin", "hccn_tool",
                              "if [ \"$*\" = '-i 1 -link -g' ]; then echo 'link status: DOWN'; exit 0; fi\n"
                              "exec '" + testing::bundle_fixtures() + "/stand-in/hccn_tool' \"$@\"\n");
  r.bundle = (r.t.path() / "b.tar.gz").string();
  const RunResult b = run_on(r.h, {"bundle", "--root", r.h.root, "-o", r.bundle, "--timeout", "5", "--no-default-logs"});
  ASSERT_EQ(b.exit_code, 0) << b.err;
}

TEST(BundleReplayCli, HccnAndMemWatchOnABundleReportWhatTheyReportedLive) {
  RecordedHost r;
  record(r);
  const RunResult live_hccn = run_on(r.h, {"hccl", "hccn", "-f", "json"});
  ASSERT_EQ(live_hccn.exit_code, 1) << live_hccn.err;
  const json live = hccn_verdict(live_hccn.out);
  ASSERT_EQ(live["devices"].size(), 2u) << "the two NPUs npu-smi lists";
  ASSERT_FALSE(live["findings"].empty());
  EXPECT_EQ(live["findings"][0][0], "net.roce-link-down") << live_hccn.out;
  const RunResult live_mem = run_on(r.h, {"mem", "watch", "--count", "1", "--live", "never"});
  ASSERT_EQ(live_mem.exit_code, 0) << live_mem.err;

  const fs::path unpacked = r.t.path() / "unpacked";
  testing::unpack(r.bundle, unpacked);
  fs::remove_all(r.h.machine);
  for (const std::string& where : {r.bundle, unpacked.string()}) {
    SCOPED_TRACE(where);
    const RunResult hccn = offline({"hccl", "hccn", "--root", where, "-f", "json"});
    EXPECT_EQ(hccn.exit_code, 1) << hccn.err;
    ASSERT_FALSE(hccn.out.empty()) << hccn.err;
    EXPECT_EQ(hccn_verdict(hccn.out), live);
    EXPECT_EQ(json::parse(hccn.out)["nodes"][0]["name"], where);
    const RunResult some = offline({"hccl", "hccn", "--root", where, "--devices", "0", "-f", "json"});
    EXPECT_EQ(some.exit_code, 0) << some.err << some.out;

    const RunResult mem = offline({"mem", "watch", "--root", where, "--live", "never"});
    EXPECT_EQ(mem.exit_code, 0) << mem.err;
    EXPECT_EQ(samples_without_time(mem.out), samples_without_time(live_mem.out));
    EXPECT_EQ(mem.out.find("\"time\""), std::string::npos) << "the record does not say when npu-smi ran";
  }
}

TEST(BundleReplayCli, WhatAReplayCannotDoIsAUsageError) {
  RecordedHost r;
  record(r);
  auto usage = [](const std::vector<std::string>& args, const std::string& says) {
    const RunResult x = offline(args);
    EXPECT_EQ(x.exit_code, 2) << x.out;
    EXPECT_NE(x.err.find(says), std::string::npos) << x.err;
  };
  usage({"hccl", "hccn", "--root", r.bundle, "--hccn-tool", "/bin/true"}, "the bundle recorded which tool ran");
  usage({"hccl", "hccn", "--root", r.bundle, testing::bundle_fixtures() + "/stand-in/hccn_tool"}, "not both");
  usage({"hccl", "hccn", "--root", r.bundle, "--devices", "5"}, "hccn_tool -i 5 -link -g: not recorded in the bundle");
  usage({"hccl", "hccn", "--root", r.t.path().string()}, "not a bundle");
  usage({"mem", "watch", "--root", r.bundle, "--count", "3"}, "do not apply");
  usage({"mem", "watch", "--root", r.bundle, "--interval", "2s"}, "do not apply");
  usage({"mem", "watch", "--root", r.t.path().string()}, "not a bundle");

  // A bundle of a host without npu-smi or hccn_tool: nothing to replay, said plainly.
  TempDir t;
  FixtureHost bare = testing::make_host(t.path() / "host", "healthy-910b", "node-b", false);
  fs::remove(bare.machine + "/bin/npu-smi");
  const std::string out = (t.path() / "bare.tar.gz").string();
  ASSERT_EQ(run_on(bare, {"bundle", "--root", bare.root, "-o", out, "--timeout", "5", "--no-default-logs"}).exit_code, 0);
  usage({"hccl", "hccn", "--root", out}, "hccn_tool not found");
  usage({"hccl", "hccn", "--root", out, "--devices", "0"}, "hccn_tool not found");
  usage({"mem", "watch", "--root", out}, "npu-smi info: ");
}

}  // namespace
}  // namespace npu_doctor::bundle
