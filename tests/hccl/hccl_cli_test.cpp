// `npu-doctor hccl ...` as users run it: the real binary on the fixtures, the JSON
// contracts, exit codes, stand-in hccn_tool and npu-smi scripts first on PATH, and bad
// input (missing, empty directory, binary, garbage, a tool that hangs).
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::hccl {
namespace {

using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using testing::count_rule;
using testing::fixture;
using json = nlohmann::json;

TEST(HcclCli, EnvJsonContractAndExitCode) {
  const auto r = run_npu_doctor({"hccl", "env", fixture("env/mismatch"), "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/hccl-env/v1");
  EXPECT_EQ(j["files"].size(), 4u);
  EXPECT_EQ(j["files"][2]["format"], "environ");
  EXPECT_EQ(j["files"][3]["host"], "node-1");
  EXPECT_EQ(count_rule(j, "hccl-config.duplicate-rank"), 1u);
  EXPECT_EQ(count_rule(j, "hccl-config.launch-variable-mismatch"), 1u);
  EXPECT_GE(j["summary"]["errors"].get<int>(), 2);
  bool saw_port = false;
  for (const auto& v : j["variables"]) {
    if (v["name"] != "MASTER_PORT") continue;
    saw_port = true;
    EXPECT_FALSE(v["agree"].get<bool>());
    EXPECT_EQ(v["values"][0]["value"], "29500");
    EXPECT_EQ(v["values"][0]["count"], 3);
  }
  EXPECT_TRUE(saw_port);
  EXPECT_EQ(j["ranks"][0]["missing"], "2");
  for (const auto& f : j["findings"]) {
    for (const char* key : {"rule", "category", "severity", "title", "cause", "remedies", "evidence"}) {
      EXPECT_TRUE(f.contains(key)) << key;
    }
  }
}

TEST(HcclCli, EnvTextInChineseAndAHealthyPair) {
  const auto bad = run_npu_doctor({"hccl", "env", fixture("env/mismatch"), "--lang", "zh"});
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.out.find("两个进程使用了相同的 rank"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("rank1.env:8"), std::string::npos) << "file:line of the evidence";
  const auto good = run_npu_doctor({"hccl", "env", fixture("env/healthy/node-0.env"), fixture("env/healthy/node-1.env")});
  EXPECT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_NE(good.out.find("No problems found."), std::string::npos);
  EXPECT_EQ(good.out.find('\x1b'), std::string::npos) << "no colour when piped";
}

TEST(HcclCli, EnvCaptureRoundTrip) {
  TempDir dir;
  const auto out = (dir.path() / "me.env").string();
  const auto r = run_npu_doctor({"hccl", "env", "--capture", "-o", out}, "",
                                {"HCCL_CONNECT_TIMEOUT=600", "RANK=5", "MY_SECRET_TOKEN=abc"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string text = npu_doctor::testing::read_file(out);
  EXPECT_NE(text.find("# npu-doctor hccl env capture v1 host="), std::string::npos);
  EXPECT_NE(text.find("RANK=5"), std::string::npos);
  EXPECT_EQ(text.find("SECRET"), std::string::npos);
  const auto check = run_npu_doctor({"hccl", "env", out, "-f", "json"});
  EXPECT_EQ(json::parse(check.out)["files"][0]["format"], "capture");
  // A process's environment, by pid (this test process).
  const auto mine = run_npu_doctor({"hccl", "env", "--capture", "--pid", std::to_string(::getpid())});
  EXPECT_EQ(mine.exit_code, 0) << mine.err;
  EXPECT_NE(mine.out.find("source=/proc/"), std::string::npos);
  EXPECT_EQ(run_npu_doctor({"hccl", "env", "--capture", "--pid", "4194000"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"hccl", "env", "--capture", out}).exit_code, 2) << "--capture takes no FILE";
}

TEST(HcclCli, EnvBadInputsSayWhyAndExitTwo) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "empty");
  const auto empty = run_npu_doctor({"hccl", "env", (dir.path() / "empty").string()});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("no files in this directory"), std::string::npos) << empty.err;
  const auto missing = run_npu_doctor({"hccl", "env", "/nonexistent/x.env"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/x.env: no such file"), std::string::npos) << missing.err;
  const auto garbage = dir.write("garbage.txt", "2025-01-01 INFO starting\nnothing here\n");
  const auto g = run_npu_doctor({"hccl", "env", garbage.string()});
  EXPECT_EQ(g.exit_code, 2);
  EXPECT_NE(g.err.find("no NAME=value lines"), std::string::npos) << g.err;
  const auto bin = dir.write("bin.dat", std::string(5000, '\x02'));
  EXPECT_EQ(run_npu_doctor({"hccl", "env", bin.string()}).exit_code, 2);
  // One bad file among good ones: reported, the rest compared.
  const auto mixed = run_npu_doctor({"hccl", "env", garbage.string(), fixture("env/healthy/node-0.env"), "-f", "json"});
  EXPECT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_EQ(json::parse(mixed.out)["unreadable"].size(), 1u);
  EXPECT_EQ(run_npu_doctor({"hccl", "env"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"hccl"}).exit_code, 2) << "a subcommand is required";
}

TEST(HcclCli, RanktableTextHasCompilerStyleLines) {
  const auto r = run_npu_doctor({"hccl", "ranktable", fixture("ranktable/duplicate-rank.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("duplicate-rank.json:74:32: error: server_list[1].device[3].rank_id: rank_id 3 is also "
                       "server_list[0].device[3].rank_id (line 28)"),
            std::string::npos)
      << r.out;
  const auto ok = run_npu_doctor({"hccl", "ranktable", fixture("ranktable/valid-v1.2.json"), "-f", "json"});
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  const auto j = json::parse(ok.out);
  EXPECT_EQ(j["schema"], "npu-doctor/hccl-ranktable/v1");
  EXPECT_EQ(j["version"], "1.2");
  EXPECT_EQ(j["ranks"], 32);
  EXPECT_EQ(j["servers"][1]["devices"][0]["super_device_id"], "16");
  const auto syntax = run_npu_doctor({"hccl", "ranktable", fixture("ranktable/syntax-error.json"), "-f", "json"});
  EXPECT_EQ(syntax.exit_code, 1);
  const auto js = json::parse(syntax.out);
  EXPECT_FALSE(js["parsed"].get<bool>());
  EXPECT_EQ(js["findings"][0]["evidence"][0]["line"], 23);
  EXPECT_EQ(run_npu_doctor({"hccl", "ranktable", "/nonexistent.json"}).exit_code, 2);
  // From stdin.
  const auto in = run_npu_doctor({"hccl", "ranktable", "-"}, "{\"version\": \"1.0\"");
  EXPECT_EQ(in.exit_code, 1);
  EXPECT_NE(in.out.find("-:1:"), std::string::npos) << in.out;
}

TEST(HcclCli, HccnFromFilesAndFromAStandInTool) {
  const auto files = run_npu_doctor({"hccl", "hccn", fixture("hccn/node-a.txt"), fixture("hccn/node-b.txt"), "-f", "json"});
  EXPECT_EQ(files.exit_code, 1) << files.err;
  const auto j = json::parse(files.out);
  EXPECT_EQ(j["schema"], "npu-doctor/hccl-hccn/v1");
  EXPECT_FALSE(j["live"].get<bool>());
  EXPECT_EQ(j["nodes"].size(), 2u);
  EXPECT_EQ(count_rule(j, "net.roce-link-down"), 1u);

  TempDir dir;
  testing::write_script(dir.path(), "hccn_tool",
                        "dev=$2; what=$3\n"
                        "case \"$what\" in\n"
                        "  -link) if [ \"$dev\" = 1 ]; then echo 'link status: DOWN'; else echo 'link status: UP'; fi ;;\n"
                        "  -net_health) echo 'net health status: Success' ;;\n"
                        "  -ip) echo \"ipaddr:10.9.0.$dev\"; echo 'netmask:255.255.255.0' ;;\n"
                        "  -tls) echo \"dev_id:$dev, tls switch[0](0:disable, 1:enable), tls preconfigured[1]\" ;;\n"
                        "  -link_stat) echo \"[device $dev]link up count : 1\" ;;\n"
                        "esac\n");
  testing::write_script(dir.path(), "npu-smi",
                        "cat '" + std::string(NPU_DOCTOR_FIXTURES) + "/npu-smi/info-910b4.txt'\n");
  testing::ScopedPathPrefix path(dir.path());
  const auto live = run_npu_doctor({"hccl", "hccn", "-f", "json"});
  EXPECT_EQ(live.exit_code, 1) << live.err;
  const auto lj = json::parse(live.out);
  EXPECT_TRUE(lj["live"].get<bool>());
  ASSERT_EQ(lj["nodes"][0]["devices"].size(), 2u) << "the two NPUs npu-smi lists";
  EXPECT_EQ(lj["nodes"][0]["devices"][1]["link"], "DOWN");
  EXPECT_EQ(lj["findings"][0]["evidence"][0]["path"], "hccn_tool -i 1 -link -g");
  const auto some = run_npu_doctor({"hccl", "hccn", "--devices", "0", "-f", "json"});
  EXPECT_EQ(some.exit_code, 0) << some.out;
}

TEST(HcclCli, AHangingHccnToolIsKilledAtTheTimeout) {
  TempDir dir;
  testing::write_script(dir.path(), "hccn_tool", "sleep 30\n");
  testing::ScopedPathPrefix path(dir.path());
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_npu_doctor({"hccl", "hccn", "--devices", "0-1", "--timeout", "0.2", "-f", "json"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 10.0);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(count_rule(j, "net.hccn-query-failed"), 1u);
  EXPECT_NE(j["findings"][0]["evidence"][0]["text"].get<std::string>().find("timed out"), std::string::npos);
}

TEST(HcclCli, HccnWithoutToolOrDevicesIsAUsageError) {
  TempDir dir;
  testing::ScopedEnvVar path("PATH", dir.path().string());
  const auto r = run_npu_doctor({"hccl", "hccn"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("hccn_tool not found"), std::string::npos) << r.err;
  const auto garbage = dir.write("x.txt", "hello\n");
  EXPECT_EQ(run_npu_doctor({"hccl", "hccn", garbage.string()}).exit_code, 2);
}

TEST(HcclCli, TestOutput) {
  const auto r = run_npu_doctor({"hccl", "test-output", fixture("hccl_test/all_reduce_8p.txt"),
                                 fixture("hccl_test/slow_node.txt"), "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/hccl-test-output/v1");
  EXPECT_EQ(j["outputs"][0]["rows"].size(), 14u);
  EXPECT_EQ(j["expectations"][0]["source"], "median");
  EXPECT_EQ(count_rule(j, "net.hccl-test-low-bandwidth"), 1u);
  const auto one = run_npu_doctor({"hccl", "test-output", fixture("hccl_test/all_reduce_8p.txt")});
  EXPECT_EQ(one.exit_code, 0) << one.out;
  EXPECT_NE(one.out.find("67108864"), std::string::npos);
  const auto expect = run_npu_doctor(
      {"hccl", "test-output", fixture("hccl_test/all_reduce_8p.txt"), "--expect-bandwidth", "100"});
  EXPECT_EQ(expect.exit_code, 1);
  const auto garbage = run_npu_doctor({"hccl", "test-output", "-"}, "just a log line\n");
  EXPECT_EQ(garbage.exit_code, 2);
  EXPECT_NE(garbage.err.find("not HCCL Test output"), std::string::npos);
  EXPECT_EQ(run_npu_doctor({"hccl", "test-output", fixture("hccl_test/all_reduce_8p.txt"), "--expect-bandwidth", "-3"}).exit_code,
            2);
}

TEST(HcclCli, EverySubcommandHasHelp) {
  for (const char* sub : {"env", "ranktable", "hccn", "test-output"}) {
    const auto r = run_npu_doctor({"hccl", sub, "--help"});
    EXPECT_EQ(r.exit_code, 0) << sub;
    EXPECT_NE(r.out.find("Exit status"), std::string::npos) << sub;
  }
}

}  // namespace
}  // namespace npu_doctor::hccl
