// Every fixture machine through every step: the verdict of each step and the findings it
// raises, on the real code paths (SystemProbe over the fixture tree, stand-in npu-smi and
// python3 run from the machine's bin/ with the real command runner).
#include <gtest/gtest.h>

#include <algorithm>

#include "checks/check_test_support.hpp"

namespace npu_doctor::checks {
namespace {

using testing::check_machine;
using testing::finding_ids;
using testing::step_of;

struct Expected {
  StepStatus status;
  std::vector<std::string> findings;  // exactly these ids, in order
};

struct MachineCase {
  std::string machine;
  CheckOptions options;
  Expected driver, cann, devices, numa;
};

// Names the case by its machine in test listings (not as raw bytes).
void PrintTo(const MachineCase& c, std::ostream* os) { *os << c.machine; }

std::string name_of(StepStatus s) { return std::string(to_string(s)); }

void expect_step(const CheckReport& r, StepId id, const Expected& want, const std::string& machine) {
  const StepResult* s = step_of(r, id);
  ASSERT_NE(s, nullptr) << machine << ": no step " << to_string(id);
  EXPECT_EQ(name_of(s->status()), name_of(want.status)) << machine << " step " << to_string(id);
  EXPECT_EQ(finding_ids(*s), want.findings) << machine << " step " << to_string(id);
}

CheckOptions with_pid(long pid) {
  CheckOptions o;
  o.pid = pid;
  return o;
}

CheckOptions as_user_alice() {
  CheckOptions o;
  o.identity.uid = 43210;  // not the owner of the fixture's device files (mode 0644 in git)
  o.identity.gid = 43210;
  o.identity.user = "alice";
  o.identity.origin = "user alice";
  return o;
}

const std::vector<MachineCase>& cases() {
  static const std::vector<MachineCase> all = {
      {"healthy-910b", {},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}}},
      {"driver-firmware-mismatch", {},
       {StepStatus::fail, {"check.driver-firmware-mismatch"}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}}},
      {"no-driver", {},
       {StepStatus::fail, {"check.driver-not-installed"}},
       {StepStatus::fail, {"check.cann-not-installed", "check.torch-not-installed"}},
       {StepStatus::skip, {"check.skipped-no-driver"}},
       {StepStatus::skip, {"check.numa-info-unavailable"}}},
      {"cann-env-not-set", {},
       {StepStatus::pass, {}},
       {StepStatus::fail, {"check.cann-env-not-set"}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}}},
      {"torch-npu-cann-mismatch", {},
       {StepStatus::pass, {}},
       {StepStatus::fail, {"check.torch-npu-cann-mismatch"}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}}},
      {"devices-no-permission", as_user_alice(),
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::fail, {"check.device-permission-denied"}},
       {StepStatus::pass, {}}},
      {"modules-not-loaded", {},
       {StepStatus::fail, {"check.npu-smi-failed"}},
       {StepStatus::pass, {}},
       {StepStatus::fail, {"check.driver-modules-not-loaded", "check.device-nodes-missing"}},
       {StepStatus::pass, {}}},
      {"numa-mismatch", with_pid(4242),
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::pass, {}},
       {StepStatus::warn, {"check.numa-mismatch"}}},
  };
  return all;
}

class Machines : public ::testing::TestWithParam<MachineCase> {};

TEST_P(Machines, EachStepHasItsVerdict) {
  const MachineCase& c = GetParam();
  const CheckReport r = check_machine(c.machine, c.options);
  ASSERT_EQ(r.steps.size(), 4u);
  expect_step(r, StepId::driver, c.driver, c.machine);
  expect_step(r, StepId::cann, c.cann, c.machine);
  expect_step(r, StepId::devices, c.devices, c.machine);
  expect_step(r, StepId::numa, c.numa, c.machine);
}

INSTANTIATE_TEST_SUITE_P(CheckFixtures, Machines, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<MachineCase>& p) {
                           std::string n = p.param.machine;
                           std::replace(n.begin(), n.end(), '-', '_');
                           return n;
                         });

// What each verdict rests on: the facts and evidence, not only the status.
TEST(CheckMachines, HealthyHostReportsItsVersionsAndWhereTheyCameFrom) {
  const CheckReport r = check_machine("healthy-910b");
  const StepResult& d = *step_of(r, StepId::driver);
  EXPECT_EQ(d.fact_value("driver_version"), "24.1.rc2");
  EXPECT_EQ(d.fact_value("firmware_version"), "7.1.0.9.220");
  EXPECT_EQ(d.fact_value("npu_count"), "2");
  EXPECT_EQ(d.fact_value("compatibility"), "ok");
  EXPECT_EQ(d.fact_value("compatibility_source"), "/usr/local/Ascend/driver/version.info");
  const StepResult& c = *step_of(r, StepId::cann);
  EXPECT_EQ(c.fact_value("cann_version"), "8.0.RC2");
  EXPECT_EQ(c.fact_value("cann_environment"), "set");
  EXPECT_EQ(c.fact_value("torch_version"), "2.3.1");
  EXPECT_EQ(c.fact_value("torch_npu_version"), "2.3.1");
  EXPECT_NE(c.fact_value("torch_npu_cann").value_or("").find("supported"), std::string::npos);
  const bool cites_install_info = std::any_of(c.evidence.begin(), c.evidence.end(), [](const Evidence& e) {
    return e.path.ends_with("aarch64-linux/ascend_toolkit_install.info") && e.text == "version=8.0.RC2" && e.line == 2;
  });
  EXPECT_TRUE(cites_install_info);
  const StepResult& n = *step_of(r, StepId::numa);
  EXPECT_EQ(n.fact_value("numa_nodes"), "2");
  EXPECT_EQ(n.fact_value("npu_numa_nodes"), "0,1");
}

TEST(CheckMachines, MismatchNamesBothVersionsAndWhatEachSideAccepts) {
  const CheckReport r = check_machine("driver-firmware-mismatch");
  const Finding& f = step_of(r, StepId::driver)->findings.at(0);
  // The driver's compatible_version_fw rejects the firmware, and the firmware's
  // compatible_version_drv rejects the driver: both are evidence.
  ASSERT_GE(f.evidence.size(), 2u);
  EXPECT_EQ(f.evidence[0].path, "/usr/local/Ascend/driver/version.info");
  EXPECT_EQ(f.evidence[0].text, "compatible_version_fw=[7.0.0,7.2.99]");
  const auto& caps = f.evidence[0].captures;
  EXPECT_NE(std::find(caps.begin(), caps.end(), std::pair<std::string, std::string>{"firmware", "7.5.0.2.220"}), caps.end());
  const bool firmware_side = std::any_of(f.evidence.begin(), f.evidence.end(), [](const Evidence& e) {
    return e.path == "/usr/local/Ascend/firmware/version.info" && e.text.starts_with("compatible_version_drv=");
  });
  EXPECT_TRUE(firmware_side);
  EXPECT_EQ(step_of(r, StepId::driver)->fact_value("compatibility"), "mismatch");
}

TEST(CheckMachines, NumaMismatchPrintsTheNumactlLineForTheJobsCommand) {
  const CheckReport r = check_machine("numa-mismatch", with_pid(4242));
  const StepResult& n = *step_of(r, StepId::numa);
  EXPECT_EQ(n.fact_value("job_cpus"), "0-95");
  EXPECT_EQ(n.fact_value("job_numa_nodes"), "0");
  EXPECT_EQ(n.fact_value("npus_of_job"), "npu-smi process table");
  const Finding& f = n.findings.at(0);
  std::string fix;
  for (const auto& [k, v] : f.evidence.at(0).captures) {
    if (k == "fix") fix = v;
  }
  EXPECT_EQ(fix, "numactl --cpunodebind=1 --membind=1 python3 train.py --device npu:0");
  // The job's own NPU 0 is not "held by another process".
  EXPECT_TRUE(step_of(r, StepId::devices)->findings.empty());
}

TEST(CheckMachines, WithoutThePidTheJobsProcessIsAnotherProcessHoldingTheDevice) {
  const CheckReport r = check_machine("numa-mismatch");
  const StepResult& d = *step_of(r, StepId::devices);
  EXPECT_EQ(d.status(), StepStatus::warn);
  ASSERT_EQ(finding_ids(d), std::vector<std::string>{"check.device-busy"});
  const auto& caps = d.findings[0].evidence[0].captures;
  EXPECT_NE(std::find(caps.begin(), caps.end(), std::pair<std::string, std::string>{"pid", "4242"}), caps.end());
}

TEST(CheckMachines, ModulesNotLoadedFallsBackToSysfsForNumaAndSaysWhyNpuSmiFailed) {
  const CheckReport r = check_machine("modules-not-loaded");
  const Finding& f = step_of(r, StepId::driver)->findings.at(0);
  EXPECT_NE(f.evidence[0].text.find("dcmi module initialize failed"), std::string::npos) << f.evidence[0].text;
  EXPECT_NE(f.evidence[0].text.find("exit status 1"), std::string::npos);
  // Two Huawei accelerators (class 0x12) on nodes 0 and 1; the Huawei NIC is not an NPU.
  EXPECT_EQ(step_of(r, StepId::numa)->fact_value("npu_numa_nodes"), "0,1");
}

TEST(CheckMachines, OnlyAndSkipChooseTheSteps) {
  CheckOptions o;
  o.steps = {StepId::numa, StepId::driver};
  const CheckReport r = check_machine("healthy-910b", o);
  ASSERT_EQ(r.steps.size(), 2u);
  EXPECT_EQ(r.steps[0].id, StepId::driver);  // always in the expert's order
  EXPECT_EQ(r.steps[1].id, StepId::numa);
}

}  // namespace
}  // namespace npu_doctor::checks
