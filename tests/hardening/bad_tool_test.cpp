// Stand-in tools that misbehave (issue 9): an npu-smi / hccn_tool that never exits, one
// that prints 100 MB, one that exits 137 (what the OOM killer leaves). Put first on PATH,
// run by the real binary under a wall-clock limit: every command ends within its own
// --timeout (plus start-up), memory stays bounded, the reason is said.
#include <gtest/gtest.h>

#include <signal.h>

#include <fstream>
#include <set>
#include <sstream>

#include "hardening/bounded_run.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::testing {
namespace {

namespace fs = std::filesystem;

enum class Misbehaviour { never_exits, prints_100mb, exits_137 };

std::string script(Misbehaviour m) {
  switch (m) {
    case Misbehaviour::never_exits:
      return "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/pids\"\nexec sleep 1000\n";
    case Misbehaviour::prints_100mb:
      return "#!/bin/sh\nyes 'NPU ID Chip Name Health Power(W) Temp(C) Hugepages-Usage(page) AICore(%)' | head -c 100000000\n";
    case Misbehaviour::exits_137:
      return "#!/bin/sh\necho 'dcmi model initialized failed, because the device is used. ret is -8020' >&2\nexit 137\n";
  }
  return {};
}

std::string name_of(Misbehaviour m) {
  switch (m) {
    case Misbehaviour::never_exits: return "NeverExits";
    case Misbehaviour::prints_100mb: return "Prints100MB";
    case Misbehaviour::exits_137: return "Exits137";
  }
  return "?";
}

// A bin directory where every tool npu-doctor runs misbehaves the same way.
fs::path stand_in_bin(const TempDir& d, Misbehaviour m) {
  const fs::path bin = d.path() / "bin";
  fs::create_directories(bin);
  for (const char* tool : {"npu-smi", "hccn_tool"}) {
    const fs::path p = bin / tool;
    std::ofstream(p) << script(m);
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  }
  return bin;
}

struct ToolCase {
  std::string command;  // test-name part
  std::vector<std::string> args;
  Misbehaviour tool;
  std::set<int> exit_codes;
  std::string message;  // on stderr or stdout
};

class BadInputTool : public ::testing::TestWithParam<ToolCase> {};

// Each tool call has a 2 s timeout here; the whole command gets 60 s (it may call a few tools).
TEST_P(BadInputTool, EndsWithinItsTimeoutAndSaysWhy) {
  const ToolCase& c = GetParam();
  TempDir d;
  BoundedRun run;
  run.args = c.args;
  for (auto& a : run.args) {
    if (a == "{root}") a = (d.path() / "root").string();
  }
  fs::create_directories(d.path() / "root");
  run.path_prefix = stand_in_bin(d, c.tool).string();
  run.env = {"NPU_DOCTOR_SYSTEM_KB_DIR="};
  run.timeout = std::chrono::seconds(60);
  const BoundedResult r = run_bounded(run);
  const std::string what = c.command + " with a tool that " + name_of(c.tool) + ": " + describe(r) +
                           "\nstderr:\n" + r.err.substr(0, 2000) + "\nstdout:\n" + r.out.substr(0, 2000);
  ASSERT_FALSE(r.timed_out) << what;
  ASSERT_EQ(r.signal, 0) << what;
  EXPECT_TRUE(c.exit_codes.count(r.exit_code) > 0) << what;
  EXPECT_NE((r.err + r.out).find(c.message), std::string::npos) << "expected \"" << c.message << "\"\n" << what;
  EXPECT_LT(r.max_rss_kib, memory_bound_kib(512 * 1024)) << "output is capped: " << what;
  // No stand-in is left running: it was killed with its process group.
  std::istringstream pids(read_file(d.path() / "bin/pids"));
  for (pid_t pid; pids >> pid;) {
    const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");  // gone, or a zombie
    EXPECT_TRUE(stat.empty() || stat.find(") Z ") != std::string::npos) << "stand-in " << pid << " still runs: " << what;
  }
}

std::vector<ToolCase> tool_cases() {
  std::vector<ToolCase> out;
  for (Misbehaviour m : {Misbehaviour::never_exits, Misbehaviour::prints_100mb, Misbehaviour::exits_137}) {
    const std::string why = m == Misbehaviour::never_exits    ? "timed out"
                            : m == Misbehaviour::prints_100mb ? "npu-smi"
                                                              : "137";
    // check: the driver step asks npu-smi; a bad tool is a finding (1), never a hang.
    out.push_back({"Check", {"check", "--root", "{root}", "--only", "driver", "--timeout", "2"}, m, {0, 1}, why});
    // mem watch: the first poll failing is exit 2 with the reason.
    // (100 MB may be cut by the 2 s timeout or parsed as unrecognised: either way npu-smi info is named.)
    out.push_back({"MemWatch", {"mem", "watch", "--count", "1", "--timeout", "2s"}, m, {2},
                   m == Misbehaviour::prints_100mb ? "npu-smi info" : why});
    // hccl hccn without files runs hccn_tool per device: each failure is a finding.
    out.push_back({"HcclHccn", {"hccl", "hccn", "--devices", "0", "--timeout", "2"}, m, {1, 2},
                   m == Misbehaviour::prints_100mb ? "hccn_tool" : why});
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(BadInput, BadInputTool, ::testing::ValuesIn(tool_cases()),
                         [](const ::testing::TestParamInfo<ToolCase>& tc) {
                           return tc.param.command + "_" + name_of(tc.param.tool);
                         });

}  // namespace
}  // namespace npu_doctor::testing
