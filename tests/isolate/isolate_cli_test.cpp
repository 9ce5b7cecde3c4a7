// `npu-doctor isolate` with a stand-in command: a shell script that reads
// ASCEND_RT_VISIBLE_DEVICES and fails (or hangs) on the cards and pairs a test chooses,
// and a stand-in npu-smi listing eight NPUs.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "hccl/hccl_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::isolate {
namespace {

using npu_doctor::hccl::testing::count_rule;
using npu_doctor::hccl::testing::ScopedPathPrefix;
using npu_doctor::hccl::testing::write_script;
using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::TempDir;
using json = nlohmann::json;

// card-test BAD_CARD PAIR_A PAIR_B HANG_CARD: fails on BAD_CARD, on PAIR_A with PAIR_B,
// sleeps on HANG_CARD; "-" means none. Prints what a failing job prints.
constexpr const char* kCardTest =
    "devs=\"$ASCEND_RT_VISIBLE_DEVICES\"\n"
    "echo \"training on devices $devs\"\n"
    "has() { case \",$devs,\" in *\",$1,\"*) return 0;; esac; return 1; }\n"
    "if has \"$4\"; then sleep 30; fi\n"
    "if has \"$1\"; then echo 'RuntimeError: aclrtSynchronizeDevice failed, error code is 507054' >&2; exit 1; fi\n"
    "if has \"$2\" && has \"$3\"; then echo 'EI0006: Getting socket times out.' >&2; exit 3; fi\n"
    "echo done\n";

class IsolateCli : public ::testing::Test {
 protected:
  void SetUp() override {
    write_script(dir_.path() / "bin", "card-test", kCardTest);
    write_script(dir_.path() / "bin", "npu-smi", "cat '" + std::string(NPU_DOCTOR_ISOLATE_FIXTURES) + "/npu-smi-8.txt'\n");
    path_ = std::make_unique<ScopedPathPrefix>(dir_.path() / "bin");
  }
  TempDir dir_;
  std::unique_ptr<ScopedPathPrefix> path_;
};

TEST_F(IsolateCli, FindsTheCardThatFailsAloneAndDiagnosesItsOutput) {
  const auto r = run_npu_doctor({"isolate", "-f", "json", "--", "card-test", "5", "-", "-", "-"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/isolate/v1");
  EXPECT_EQ(j["device_source"], "npu-smi info");
  EXPECT_EQ(j["devices"].size(), 8u);
  EXPECT_EQ(j["device_names"][5], "NPU 5 chip 0");
  EXPECT_EQ(j["verdict"]["bad_cards"], json::array({5}));
  EXPECT_EQ(count_rule(j, "isolate.card-fails-alone"), 1u);
  const auto& run5 = j["runs"][5];
  EXPECT_EQ(run5["devices"], json::array({5}));
  EXPECT_FALSE(run5["passed"].get<bool>());
  EXPECT_EQ(run5["exit_code"], 1);
  EXPECT_EQ(run5["diagnosis"]["rule"], "acl.507054") << run5.dump();
  EXPECT_NE(run5["tail"].get<std::string>().find("error code is 507054"), std::string::npos);
  EXPECT_NE(r.err.find("run 6 (single): ASCEND_RT_VISIBLE_DEVICES=5 ... exit status 1"), std::string::npos) << r.err;
}

TEST_F(IsolateCli, FindsThePairAndUsesPlaceholders) {
  const auto logs = dir_.path() / "logs";
  const auto r = run_npu_doctor({"isolate", "--devices", "0-3", "--log-dir", logs.string(), "-f", "json", "--",
                                 "card-test", "-", "1", "3", "-", "--nproc={n}"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = json::parse(r.out);
  EXPECT_EQ(j["device_source"], "--devices");
  EXPECT_EQ(j["verdict"]["bad_pairs"], json::array({json::array({1, 3})}));
  EXPECT_EQ(count_rule(j, "isolate.pair-fails"), 1u);
  std::size_t logs_written = 0;
  for (const auto& f : std::filesystem::directory_iterator(logs)) {
    if (f.path().extension() == ".log") ++logs_written;
  }
  EXPECT_EQ(logs_written, j["runs"].size());
  bool saw_pair_log = false;
  for (const auto& run : j["runs"]) {
    if (run["phase"] == "pair" && run["devices"] == json::array({1, 3})) {
      saw_pair_log = true;
      const std::string text = npu_doctor::testing::read_file(run["log"].get<std::string>());
      EXPECT_NE(text.find("ASCEND_RT_VISIBLE_DEVICES=1,3"), std::string::npos);
      EXPECT_NE(text.find("EI0006"), std::string::npos);
    }
  }
  EXPECT_TRUE(saw_pair_log);
}

TEST_F(IsolateCli, AllPassExitsZeroAndAHangIsKilled) {
  const auto ok = run_npu_doctor({"isolate", "--devices", "0,1", "--", "card-test", "-", "-", "-", "-"});
  EXPECT_EQ(ok.exit_code, 0) << ok.err << ok.out;
  EXPECT_NE(ok.out.find("No problems found."), std::string::npos) << ok.out;
  const auto start = std::chrono::steady_clock::now();
  const auto hang = run_npu_doctor({"isolate", "--devices", "0-2", "--timeout", "500ms", "-q", "-f", "json", "--",
                                    "card-test", "-", "-", "-", "2"});
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(s, 15.0);
  EXPECT_EQ(hang.exit_code, 1);
  EXPECT_TRUE(hang.err.empty()) << "--quiet: " << hang.err;
  const auto j = json::parse(hang.out);
  EXPECT_EQ(j["verdict"]["bad_cards"], json::array({2}));
  EXPECT_TRUE(j["runs"][2]["timed_out"].get<bool>());
  EXPECT_EQ(j["runs"][2]["exit_code"], nullptr);
}

TEST_F(IsolateCli, EveryCardFailingIsNotACardProblem) {
  const auto r = run_npu_doctor({"isolate", "--devices", "0-3", "--no-diagnose", "--", "false"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("The command fails on every card"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("isolate.all-fail"), std::string::npos);
}

TEST_F(IsolateCli, UsageErrors) {
  const auto missing = run_npu_doctor({"isolate", "--devices", "0", "--", "no-such-command-xyz"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("no-such-command-xyz: not found"), std::string::npos) << missing.err;
  EXPECT_EQ(run_npu_doctor({"isolate", "--devices", "0"}).exit_code, 2) << "no command";
  EXPECT_EQ(run_npu_doctor({"isolate", "--devices", "x-y", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"isolate", "--timeout", "soon", "--", "true"}).exit_code, 2);
  EXPECT_EQ(run_npu_doctor({"isolate", "--strategy", "random", "--", "true"}).exit_code, 2);
  const auto help = run_npu_doctor({"isolate", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("{devices}"), std::string::npos);
}

TEST(IsolateCliNoNpu, WithoutNpuSmiDevicesMustBeGiven) {
  TempDir dir;
  hccl::testing::ScopedEnvVar path("PATH", (dir.path()).string() + ":/usr/bin:/bin");
  if (std::filesystem::exists("/usr/bin/npu-smi") || std::filesystem::exists("/usr/local/bin/npu-smi")) {
    GTEST_SKIP() << "this host has npu-smi";
  }
  const auto r = run_npu_doctor({"isolate", "--", "true"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--devices"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace npu_doctor::isolate
