// The decisions inside each step, one at a time, on copies of the fixture machines with
// one file changed: what makes a step pass, warn, fail or skip, and what it says.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "checks/check_test_support.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::checks {
namespace {

using testing::check_machine;
using testing::copy_machine;
using testing::finding_ids;
using testing::step_of;

std::string capture(const Finding& f, const std::string& key) {
  for (const auto& e : f.evidence) {
    for (const auto& [k, v] : e.captures) {
      if (k == key) return v;
    }
  }
  return {};
}

CheckOptions only(StepId id) {
  CheckOptions o;
  o.steps = {id};
  return o;
}

std::vector<std::string> ids(const CheckReport& r, StepId id) { return finding_ids(*step_of(r, id)); }

// `text` with its first `from` replaced by `to` (the test fails when `from` is absent).
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

void remove(const npu_doctor::testing::TempDir& t, const std::string& relative) {
  std::filesystem::remove_all(t.path() / relative);
}

// ---- Step 1: driver and firmware ----

TEST(CheckSteps, HungNpuSmiIsKilledAfterTheTimeoutAndNotAskedAgain) {
  const auto start = std::chrono::steady_clock::now();
  const CheckReport r = check_machine("npu-smi-hangs", {}, std::chrono::milliseconds(300));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 3.0) << "check must not wait for a tool that never answers";
  const StepResult& d = *step_of(r, StepId::driver);
  EXPECT_EQ(d.status(), StepStatus::fail);
  ASSERT_EQ(finding_ids(d), std::vector<std::string>{"check.npu-smi-failed"});
  EXPECT_NE(d.findings[0].evidence[0].text.find("timed out"), std::string::npos) << d.findings[0].evidence[0].text;
  // The version files still settle the driver/firmware pair, and the other steps carry on.
  EXPECT_EQ(d.fact_value("compatibility"), "ok");
  EXPECT_EQ(step_of(r, StepId::devices)->status(), StepStatus::pass);
  EXPECT_EQ(step_of(r, StepId::numa)->fact_value("npu_numa_nodes"), "0,1");  // from sysfs
}

TEST(CheckSteps, BoardCompatibilityVerdictIsHeard) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  // Files without compatibility fields, so npu-smi's verdict is the only source.
  t.write("root/usr/local/Ascend/driver/version.info", "Version=24.1.rc2\n");
  t.write("root/usr/local/Ascend/firmware/version.info", "Version=7.1.0.9.220\n");
  t.write("bin/npu-smi.out/board-1.txt",
          replaced(npu_doctor::testing::read_file(t.path() / "bin/npu-smi.out/board-1.txt"), ": OK", ": NOK"));
  const CheckReport r = check_machine(m, only(StepId::driver));
  ASSERT_EQ(ids(r, StepId::driver), std::vector<std::string>{"check.driver-firmware-mismatch"});
  const Finding& f = step_of(r, StepId::driver)->findings[0];
  EXPECT_EQ(f.evidence[0].path, "npu-smi info -t board -i 1");
  EXPECT_EQ(capture(f, "npu"), "1");
}

TEST(CheckSteps, UnhealthyDevicesAreNamedWithTheirErrorCode) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("bin/npu-smi.out/info.txt", replaced(npu_doctor::testing::read_file(t.path() / "bin/npu-smi.out/info.txt"),
                                                "| 1     910B4-1             | OK      ",
                                                "| 1     910B4-1             | Critical"));
  t.write("bin/npu-smi.out/health-1.txt",
          "        Health Status                  : Critical\n        Error Code                     : 80E01801\n"
          "        Error Information              : node type=HBM, sensor type=Memory, event state=uncorrectable ECC\n");
  const CheckReport r = check_machine(m, only(StepId::driver));
  ASSERT_EQ(ids(r, StepId::driver), std::vector<std::string>{"check.device-health-alarm"});
  const Finding& f = step_of(r, StepId::driver)->findings[0];
  EXPECT_EQ(capture(f, "npu"), "1");
  EXPECT_EQ(capture(f, "health"), "Critical");
  EXPECT_EQ(capture(f, "error_code"), "80E01801");
  EXPECT_EQ(f.evidence[0].device, 1);
}

TEST(CheckSteps, InstalledAndRunningDriverDiffer) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("bin/npu-smi.out/info.txt", replaced(npu_doctor::testing::read_file(t.path() / "bin/npu-smi.out/info.txt"),
                                                "Version: 24.1.rc2", "Version: 23.0.5  "));
  const CheckReport r = check_machine(m, only(StepId::driver));
  EXPECT_EQ(step_of(r, StepId::driver)->status(), StepStatus::warn);
  ASSERT_EQ(ids(r, StepId::driver), std::vector<std::string>{"check.driver-version-differs"});
  EXPECT_EQ(capture(step_of(r, StepId::driver)->findings[0], "running"), "23.0.5");
}

TEST(CheckSteps, TableDecidesWhenTheFilesSayNothing) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("root/usr/local/Ascend/driver/version.info", "Version=23.0.5\n");
  t.write("root/usr/local/Ascend/firmware/version.info", "Version=1.85.12.1.b060\n");
  remove(t, "bin/npu-smi");  // no npu-smi: no board verdict either
  CheckOptions o = only(StepId::driver);
  CheckReport r = check_machine(m, o);
  // Only an unverified row (the "23.0.x with 1.85.x") confirms it.
  EXPECT_EQ(ids(r, StepId::driver), std::vector<std::string>{"check.npu-smi-missing"});
  EXPECT_EQ(step_of(r, StepId::driver)->fact_value("compatibility"), "ok (unverified table row)");

  t.write("root/usr/local/Ascend/firmware/version.info", "Version=6.4.12.1.241\n");
  r = check_machine(m, o);  // 23.0.x with 6.4: the verified row says no
  EXPECT_EQ(ids(r, StepId::driver), (std::vector<std::string>{"check.npu-smi-missing", "check.driver-firmware-mismatch"}));
  EXPECT_NE(capture(step_of(r, StepId::driver)->findings[1], "expected").find("7.1.*"), std::string::npos);

  t.write("root/usr/local/Ascend/driver/version.info", "Version=6.3.0\n");
  t.write("root/usr/local/Ascend/firmware/version.info", "Version=7.1.0.9.220\n");
  r = check_machine(m, o);  // 6.3.x has only the unverified row: a warning
  EXPECT_EQ(ids(r, StepId::driver), (std::vector<std::string>{"check.npu-smi-missing", "check.driver-firmware-unverified"}));
  EXPECT_EQ(step_of(r, StepId::driver)->status(), StepStatus::warn);
}

TEST(CheckSteps, BrokenVersionFilesAreReportedNotFatal) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("root/usr/local/Ascend/firmware/version.info", std::string("\x7f" "ELF\x02\x01\x01\0\0\0binary", 16));
  t.write("root/usr/local/Ascend/driver/version.info", std::string(3u << 20, 'x'));  // huge, no Version=
  const CheckReport r = check_machine(m, only(StepId::driver));
  const auto found = ids(r, StepId::driver);
  EXPECT_EQ(std::count(found.begin(), found.end(), "check.version-file-invalid"), 2);
  // npu-smi still gives both versions and its verdict.
  EXPECT_EQ(step_of(r, StepId::driver)->fact_value("driver_version"), "24.1.rc2");
  EXPECT_EQ(step_of(r, StepId::driver)->fact_value("compatibility"), "ok");
  EXPECT_EQ(step_of(r, StepId::driver)->status(), StepStatus::warn);
}

TEST(CheckSteps, NpuSmiPrintingGarbageIsAFailureWithTheReason) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("bin/npu-smi.out/info.txt", "Segmentation fault (core dumped)\n");
  const CheckReport r = check_machine(m, only(StepId::driver));
  ASSERT_EQ(ids(r, StepId::driver), std::vector<std::string>{"check.npu-smi-failed"});
  EXPECT_NE(step_of(r, StepId::driver)->findings[0].evidence[0].text.find("no device table"), std::string::npos);
}

// ---- Step 2: CANN and PyTorch ----

TEST(CheckSteps, DriverOlderThanCannNeedsAndTorchNpuForAnotherCann) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  const std::string info_path = "root/usr/local/Ascend/ascend-toolkit/latest/aarch64-linux/ascend_toolkit_install.info";
  t.write(info_path, replaced(npu_doctor::testing::read_file(t.path() / info_path), "version=8.0.RC2", "version=8.0.0"));
  const CheckReport r = check_machine(m, only(StepId::cann));
  ASSERT_EQ(ids(r, StepId::cann), (std::vector<std::string>{"check.cann-driver-too-old", "check.torch-npu-cann-mismatch"}));
  const auto& s = *step_of(r, StepId::cann);
  EXPECT_EQ(capture(s.findings[0], "required_driver"), "24.1.0");
  EXPECT_EQ(capture(s.findings[0], "driver"), "24.1.rc2");
  EXPECT_EQ(capture(s.findings[1], "expected_cann"), "8.0.RC2");
}

TEST(CheckSteps, TorchAndTorchNpuMustBeBuiltForEachOther) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  const std::string site = "root/usr/local/python3.9.2/lib/python3.9/site-packages/";
  remove(t, site + "torch-2.3.1.dist-info");
  t.write(site + "torch-2.4.0.dist-info/METADATA", "Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n");
  const CheckReport r = check_machine(m, only(StepId::cann));
  ASSERT_EQ(ids(r, StepId::cann), std::vector<std::string>{"check.torch-npu-torch-mismatch"});
  EXPECT_EQ(capture(step_of(r, StepId::cann)->findings[0], "expected_torch"), "2.3.1");

  remove(t, site + "torch_npu-2.3.1.dist-info");
  const CheckReport r2 = check_machine(m, only(StepId::cann));
  EXPECT_EQ(ids(r2, StepId::cann), std::vector<std::string>{"check.torch-npu-not-installed"});
  EXPECT_EQ(step_of(r2, StepId::cann)->status(), StepStatus::warn);

  t.write(site + "torch_npu-2.1.0.post8.dev20241009.dist-info/METADATA",
          "Name: torch_npu\nVersion: 2.1.0.post8.dev20241009\n");
  remove(t, site + "torch-2.4.0.dist-info");
  t.write(site + "torch-2.1.0.dist-info/METADATA", "Name: torch\nVersion: 2.1.0+cpu\n");
  const CheckReport r3 = check_machine(m, only(StepId::cann));
  EXPECT_EQ(ids(r3, StepId::cann), std::vector<std::string>{"check.torch-npu-combination-unknown"});
}

TEST(CheckSteps, EnvironmentPointingAtARemovedToolkit) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  std::string env = npu_doctor::testing::read_file(t.path() / "env");
  env += "ASCEND_TOOLKIT_HOME=/usr/local/Ascend/ascend-toolkit/7.0.0\n";
  t.write("env", env);
  const CheckReport r = check_machine(m, only(StepId::cann));
  ASSERT_EQ(ids(r, StepId::cann), std::vector<std::string>{"check.cann-env-stale"});
  const Finding& f = step_of(r, StepId::cann)->findings[0];
  EXPECT_EQ(capture(f, "fix"), "source /usr/local/Ascend/ascend-toolkit/set_env.sh");
  EXPECT_EQ(step_of(r, StepId::cann)->fact_value("cann_home"), "/usr/local/Ascend/ascend-toolkit/latest");
}

TEST(CheckSteps, EnvironmentNotSetSaysWhatIsMissingAndWhatToSource) {
  const CheckReport r = check_machine("cann-env-not-set", only(StepId::cann));
  const Finding& f = step_of(r, StepId::cann)->findings.at(0);
  EXPECT_EQ(capture(f, "missing"), "ASCEND_TOOLKIT_HOME, ASCEND_OPP_PATH, LD_LIBRARY_PATH");
  EXPECT_EQ(capture(f, "fix"), "source /usr/local/Ascend/ascend-toolkit/set_env.sh");
  EXPECT_EQ(f.evidence[0].path, "$ASCEND_TOOLKIT_HOME");
  EXPECT_EQ(f.evidence[0].text, "ASCEND_TOOLKIT_HOME (unset)");
}

TEST(CheckSteps, ThePythonGivenIsAskedForItsPackageDirectories) {
  CheckOptions o = only(StepId::cann);
  o.python = testing::machine_bin("healthy-910b") + "/python3";
  const CheckReport r = check_machine("healthy-910b", o);
  const StepResult& s = *step_of(r, StepId::cann);
  EXPECT_EQ(s.status(), StepStatus::pass) << testing::finding_ids(s).size();
  EXPECT_EQ(s.fact_value("python"), o.python + " 3.9.2");
  EXPECT_EQ(s.fact_value("site_packages"), "/usr/local/python3.9.2/lib/python3.9/site-packages");
  EXPECT_EQ(s.fact_value("torch_npu_version"), "2.3.1");

  o.python = "/nonexistent/python3";
  const CheckReport missing = check_machine("healthy-910b", o);
  EXPECT_EQ(ids(missing, StepId::cann), std::vector<std::string>{"check.python-not-found"});
  EXPECT_EQ(step_of(missing, StepId::cann)->status(), StepStatus::pass);  // a note, not a problem
}

TEST(CheckSteps, ProbeDeviceRunsTheProgramAndReportsWhereItStopped) {
  CheckOptions o = only(StepId::cann);
  o.probe_device = true;
  o.python = testing::machine_bin("healthy-910b") + "/python3";
  const CheckReport ok = check_machine("healthy-910b", o);
  EXPECT_EQ(step_of(ok, StepId::cann)->status(), StepStatus::pass);
  EXPECT_EQ(step_of(ok, StepId::cann)->fact_value("npu_available"), "true");
  EXPECT_EQ(step_of(ok, StepId::cann)->fact_value("npu_device_count"), "2");

  o.python = testing::machine_bin("cann-env-not-set") + "/python3";
  const CheckReport bad = check_machine("cann-env-not-set", o);
  const auto found = ids(bad, StepId::cann);
  ASSERT_EQ(found.back(), "check.probe-device-failed");
  const Finding& f = step_of(bad, StepId::cann)->findings.back();
  EXPECT_EQ(capture(f, "stage"), "import");
  EXPECT_NE(capture(f, "error").find("libhccl.so"), std::string::npos);

  o.python.clear();  // another root and no --python: nothing to run it with
  const CheckReport skipped = check_machine("healthy-910b", o);
  EXPECT_EQ(ids(skipped, StepId::cann), std::vector<std::string>{"check.probe-device-skipped"});
}

// ---- Step 3: permissions and device visibility ----

std::map<std::string, FileInfo> device_nodes_owned_by(unsigned gid, unsigned mode) {
  std::map<std::string, FileInfo> m;
  for (const char* n : {"/dev/davinci0", "/dev/davinci1", "/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc"}) {
    FileInfo f;
    f.exists = true;
    f.is_char_device = true;
    f.uid = 0;
    f.gid = gid;
    f.mode = mode;
    m[n] = f;
  }
  return m;
}

CheckReport check_devices_as(const std::string& machine, const Identity& who) {
  const SystemProbe base = testing::machine_probe(machine);
  const testing::StatOverrideProbe probe(base, device_nodes_owned_by(1000, 0660));  // root:HwHiAiUser 0660
  CheckOptions o = only(StepId::devices);
  o.identity = who;
  return run_checks(probe, npu_doctor::testing::builtin_kb(), CompatibilityTable::builtin(), o);
}

TEST(CheckSteps, DeviceGroupMembershipDecidesAccess) {
  Identity alice;
  alice.uid = 43210;
  alice.gid = 43210;
  alice.user = "alice";
  alice.origin = "user alice";
  // Not in HwHiAiUser: the fix is usermod.
  CheckReport r = check_devices_as("devices-no-permission", alice);
  ASSERT_EQ(ids(r, StepId::devices), std::vector<std::string>{"check.device-permission-denied"});
  const Finding& f = step_of(r, StepId::devices)->findings[0];
  EXPECT_EQ(capture(f, "fix"), "usermod -aG HwHiAiUser alice");
  EXPECT_EQ(f.evidence[0].text, "rw-rw---- root HwHiAiUser");
  EXPECT_EQ(f.evidence.size(), 5u);  // every node she cannot open

  // Listed in /etc/group but this process was started before: a new login is enough.
  r = check_devices_as("healthy-910b", alice);
  ASSERT_EQ(ids(r, StepId::devices), std::vector<std::string>{"check.device-permission-denied"});
  EXPECT_EQ(capture(step_of(r, StepId::devices)->findings[0], "fix").rfind("newgrp HwHiAiUser", 0), 0u);

  // With the group: passes.
  alice.groups = {1000};
  r = check_devices_as("healthy-910b", alice);
  EXPECT_EQ(step_of(r, StepId::devices)->status(), StepStatus::pass);
  EXPECT_EQ(step_of(r, StepId::devices)->fact_value("identity"), "alice (user alice)");
}

TEST(CheckSteps, VisibleDeviceVariablesMustNameDevicesThatExist) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  const std::string env = npu_doctor::testing::read_file(t.path() / "env");
  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=0,5\n");
  CheckReport r = check_machine(m, only(StepId::devices));
  ASSERT_EQ(ids(r, StepId::devices), std::vector<std::string>{"check.visible-devices-invalid"});
  EXPECT_EQ(capture(step_of(r, StepId::devices)->findings[0], "not_present"), "5");

  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=\n");
  r = check_machine(m, only(StepId::devices));
  ASSERT_EQ(ids(r, StepId::devices), std::vector<std::string>{"check.visible-devices-invalid"});
  EXPECT_EQ(capture(step_of(r, StepId::devices)->findings[0], "problem"), "selects no device");

  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=1\nASCEND_VISIBLE_DEVICES=0-3\n");
  r = check_machine(m, only(StepId::devices));
  ASSERT_EQ(ids(r, StepId::devices), std::vector<std::string>{"check.visible-devices-invalid"});
  EXPECT_EQ(capture(step_of(r, StepId::devices)->findings[0], "not_present"), "2,3");

  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=1\n");
  r = check_machine(m, only(StepId::devices));
  EXPECT_EQ(step_of(r, StepId::devices)->status(), StepStatus::pass);
}

// ---- Step 4: NUMA placement ----

TEST(CheckSteps, UnpinnedJobWithAllNpusOnOneNodeGetsAHintNotAWarning) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("root/sys/bus/pci/devices/0000:01:00.0/numa_node", "1\n");
  const CheckReport r = check_machine(m, only(StepId::numa));
  const StepResult& s = *step_of(r, StepId::numa);
  EXPECT_EQ(s.status(), StepStatus::pass);
  ASSERT_EQ(finding_ids(s), std::vector<std::string>{"check.numa-not-pinned"});
  EXPECT_EQ(capture(s.findings[0], "fix"), "numactl --cpunodebind=1 --membind=1 <your command>");
}

TEST(CheckSteps, VisibleDevicesChooseTheNpusWhoseNodeMatters) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  t.write("root/proc/self/status", "Name:\tpython3\nCpus_allowed_list:\t96-191\n");  // node 1 only
  const std::string env = npu_doctor::testing::read_file(t.path() / "env");
  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=0\n");  // NPU 0 is on node 1: fine
  EXPECT_EQ(step_of(check_machine(m, only(StepId::numa)), StepId::numa)->status(), StepStatus::pass);
  t.write("env", env + "ASCEND_RT_VISIBLE_DEVICES=1\n");  // NPU 1 is on node 0: far
  const CheckReport r = check_machine(m, only(StepId::numa));
  ASSERT_EQ(ids(r, StepId::numa), std::vector<std::string>{"check.numa-mismatch"});
  EXPECT_EQ(capture(step_of(r, StepId::numa)->findings[0], "npu_node"), "0");
}

TEST(CheckSteps, NumaWithoutInformationIsSkippedWithTheReason) {
  npu_doctor::testing::TempDir t;
  const std::string m = copy_machine("healthy-910b", t.path());
  remove(t, "root/proc/self/status");
  const CheckReport r = check_machine(m, only(StepId::numa));
  EXPECT_EQ(step_of(r, StepId::numa)->status(), StepStatus::skip);
  EXPECT_EQ(ids(r, StepId::numa), std::vector<std::string>{"check.numa-info-unavailable"});
}

}  // namespace
}  // namespace npu_doctor::checks
