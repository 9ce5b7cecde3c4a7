// `npu-doctor check` as users run it: the real binary on the fixture machines (--root,
// stand-in tools first on PATH), exit codes, the JSON contract, timeouts, usage errors,
// and this machine itself (no Ascend software, like CI).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "checks/check_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::checks {
namespace {

using npu_doctor::testing::run_npu_doctor;
using npu_doctor::testing::RunResult;

// Runs `npu-doctor check --root <machine root> args...` in the machine's environment.
RunResult check_cli(const std::string& machine, std::vector<std::string> args) {
  testing::ScopedEnv env(testing::machine_process_env(machine));
  args.insert(args.begin(), {"check", "--root", testing::machine_root(machine)});
  return run_npu_doctor(args);
}

TEST(CheckCli, HealthyMachinePassesAndExitsZero) {
  const auto r = check_cli("healthy-910b", {});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("[PASS] Every step passed."), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << "no colour when piped";
}

TEST(CheckCli, JsonOnAMismatchExitsOne) {
  const auto r = check_cli("driver-firmware-mismatch", {"--format", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["schema"], "npu-doctor/check/v1");
  EXPECT_EQ(j["status"], "fail");
  EXPECT_EQ(j["steps"][0]["id"], "driver");
  EXPECT_EQ(j["steps"][0]["status"], "fail");
  EXPECT_EQ(j["steps"][0]["findings"][0]["rule"], "check.driver-firmware-mismatch");
  EXPECT_EQ(j["findings"][0]["category"], "driver_firmware_env");
  for (const auto& s : j["steps"]) {
    for (const char* key : {"id", "title", "status", "evidence", "findings"}) EXPECT_TRUE(s.contains(key)) << key;
  }
}

TEST(CheckCli, EveryFixtureMachineExitsAsItsVerdictsSay) {
  for (const auto& [machine, code] : std::vector<std::pair<std::string, int>>{
           {"no-driver", 1}, {"cann-env-not-set", 1}, {"torch-npu-cann-mismatch", 1}, {"modules-not-loaded", 1}}) {
    const auto r = check_cli(machine, {"--format", "json"});
    EXPECT_EQ(r.exit_code, code) << machine << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["status"], "fail") << machine;
  }
  // Only the steps that pass there: exit 0.
  EXPECT_EQ(check_cli("driver-firmware-mismatch", {"--skip", "driver"}).exit_code, 0);
  EXPECT_EQ(check_cli("cann-env-not-set", {"--only", "driver,devices,numa"}).exit_code, 0);
}

TEST(CheckCli, ThisMachineWithoutAscendSoftwareSaysWhatToInstall) {
  std::error_code ec;
  if (std::filesystem::exists("/usr/local/Ascend", ec) || std::filesystem::exists("/dev/davinci_manager", ec)) {
    GTEST_SKIP() << "this host has Ascend software; the no-software case is covered by the no-driver fixture";
  }
  std::map<std::string, std::optional<std::string>> clean;
  for (const auto& v : testing::check_variables()) {
    if (v != "PATH" && v != "HOME") clean[v] = std::nullopt;
  }
  testing::ScopedEnv env(clean);
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_npu_doctor({"check", "--timeout", "5"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_LT(seconds, 20.0);
  EXPECT_NE(r.out.find("[FAIL] 1. Driver and firmware"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("No Ascend driver found on this machine"), std::string::npos);
  EXPECT_NE(r.out.find("No CANN toolkit found"), std::string::npos);
  EXPECT_NE(r.out.find("Ascend-hdk-<chip>-npu-driver"), std::string::npos) << "says what to install";
  EXPECT_NE(r.out.find("[SKIP] 3. Permissions and device visibility"), std::string::npos);
}

TEST(CheckCli, HungNpuSmiIsKilledAtTheTimeout) {
  const auto start = std::chrono::steady_clock::now();
  const auto r = check_cli("npu-smi-hangs", {"--timeout", "0.5", "--only", "driver"});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_LT(seconds, 5.0);
  EXPECT_NE(r.out.find("npu-smi did not answer"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("timed out"), std::string::npos);
}

TEST(CheckCli, PidChecksTheJobsOwnEnvironmentCpusAndDevices) {
  // This shell has no CANN variables; the job (pid 4242 in the tree) has them.
  testing::ScopedEnv env(testing::machine_process_env("cann-env-not-set"));
  const auto r = run_npu_doctor({"check", "--root", testing::machine_root("numa-mismatch"), "--pid", "4242", "-f", "json"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["options"]["pid"], 4242);
  EXPECT_EQ(j["steps"][1]["status"], "pass") << j["steps"][1].dump(2);
  EXPECT_EQ(j["steps"][2]["facts"]["identity"], "root (process 4242)");
  EXPECT_EQ(j["steps"][3]["status"], "warn");
  EXPECT_EQ(j["steps"][3]["findings"][0]["evidence"][0]["captures"]["fix"],
            "numactl --cpunodebind=1 --membind=1 python3 train.py --device npu:0");
}

TEST(CheckCli, UserOutsideTheDeviceGroupIsToldToJoinIt) {
  // Device nodes root-or-owner:<this gid> 0660, with that gid named HwHiAiUser in the
  // tree's /etc/group and alice not in it.
  npu_doctor::testing::TempDir t;
  const std::string m = testing::copy_machine("devices-no-permission", t.path());
  struct stat st {};
  ASSERT_EQ(::stat((t.path() / "root/dev/davinci0").c_str(), &st), 0);
  for (const char* n : {"davinci0", "davinci1", "davinci_manager", "devmm_svm", "hisi_hdc"}) {
    std::filesystem::permissions(t.path() / "root/dev" / n, std::filesystem::perms(0660));
  }
  t.write("root/etc/group", "HwHiAiUser:x:" + std::to_string(st.st_gid) + ":\nalice:x:43210:\n");
  testing::ScopedEnv env(testing::machine_process_env("devices-no-permission"));
  const auto r = run_npu_doctor({"check", "--root", m + "/root", "--user", "alice", "--only", "devices"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("This user cannot open the NPU device nodes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("fix: usermod -aG HwHiAiUser alice"), std::string::npos) << r.out;
}

TEST(CheckCli, ProbeDeviceWithTheJobsPython) {
  const auto r = check_cli("healthy-910b", {"--only", "cann", "--probe-device", "--python",
                                            testing::machine_bin("healthy-910b") + "/python3", "-f", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["steps"][0]["facts"]["npu_available"], "true");
  EXPECT_EQ(j["options"]["probe_device"], true);
}

TEST(CheckCli, UsageErrorsExitTwoAndSayWhy) {
  const std::string root = testing::machine_root("healthy-910b");
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  for (const auto& c : std::vector<Case>{
           {{"check", "--only", "gpu"}, "gpu"},
           {{"check", "--root", "/nonexistent/bundle"}, "not a directory"},
           {{"check", "--root", root, "--pid", "999999"}, "no such process"},
           {{"check", "--root", root, "--user", "nobody-here"}, "nobody-here"},
           {{"check", "--root", root, "--python", "/nonexistent/python3"}, "not found"},
           {{"check", "--only", "driver", "--skip", "driver"}, "no step"},
           {{"check", "--timeout", "0"}, "timeout"},
           {{"check", "--format", "yaml"}, "yaml"},
       }) {
    const auto r = run_npu_doctor(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.args.back() << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args.back() << ": " << r.err;
  }
}

TEST(CheckCli, MarkdownToAFile) {
  npu_doctor::testing::TempDir d;
  const auto out = d.path() / "check.md";
  const auto r = check_cli("torch-npu-cann-mismatch", {"-f", "markdown", "-o", out.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(npu_doctor::testing::read_file(out).find("# npu-doctor check: FAIL"), std::string::npos);
}

TEST(CheckCli, HelpNamesTheStepsOptionsAndExitCodes) {
  const auto r = run_npu_doctor({"check", "--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* s : {"--only", "--skip", "--root", "--timeout", "--python", "--pid", "--user", "--probe-device",
                        "driver, cann, devices, numa", "Exit status"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
  }
}

}  // namespace
}  // namespace npu_doctor::checks
