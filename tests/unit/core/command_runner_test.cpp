#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using namespace std::chrono_literals;

// A stand-in executable (a shell script) in a temporary directory.
std::string script(const testing::TempDir& dir, const std::string& name, const std::string& body) {
  const auto p = dir.write(name, "#!/bin/sh\n" + body + "\n");
  std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  return p.string();
}

TEST(CommandRunner, CapturesOutputAndExitStatus) {
  testing::TempDir d;
  const auto tool = script(d, "tool", "echo out; echo err >&2; echo \"lc=$LC_ALL\"; exit 3");
  const auto r = run_command({tool}, {});
  EXPECT_TRUE(r.started);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out, "out\nlc=C\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "exit status 3");
}

TEST(CommandRunner, SearchesTheGivenPath) {
  testing::TempDir d;
  script(d, "npu-smi", "echo fake npu-smi \"$@\"");
  CommandOptions o;
  o.path = d.path().string() + ":/usr/bin:/bin";
  const auto r = run_command({"npu-smi", "info", "-t", "board"}, o);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out, "fake npu-smi info -t board\n");
}

TEST(CommandRunner, MissingToolSaysSo) {
  CommandOptions o;
  o.path = "/nonexistent";
  const auto r = run_command({"npu-smi", "info"}, o);
  EXPECT_FALSE(r.started);
  EXPECT_EQ(r.describe(), "npu-smi not found on PATH");
}

TEST(CommandRunner, AToolThatNeverExitsIsKilledWithItsChildren) {
  testing::TempDir d;
  const auto pidfile = (d.path() / "child.pid").string();
  const auto tool = script(d, "hang", "sleep 1000 & echo $! > " + pidfile + "; echo started; wait");
  CommandOptions o;
  // Long enough for the shell to start its child and print on a loaded 2-core machine (400 ms
  // was not, with a build and another test suite beside it); the tool itself never ends.
  o.timeout = 2s;
  const auto t0 = std::chrono::steady_clock::now();
  const auto r = run_command({tool}, o);
  const auto elapsed = std::chrono::steady_clock::now() - t0;
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, 9);
  EXPECT_LT(elapsed, 10s);
  EXPECT_EQ(r.out, "started\n");
  EXPECT_NE(r.describe().find("timed out"), std::string::npos);
  // The background child was in the tool's process group and died with it.
  const auto pid_text = testing::read_file(pidfile);
  ASSERT_FALSE(pid_text.empty()) << "the tool was killed before it started its child";
  const long child = std::stol(pid_text);
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i) {
    gone = !std::filesystem::exists("/proc/" + std::to_string(child)) ||
           testing::read_file("/proc/" + std::to_string(child) + "/stat").find(") Z") != std::string::npos;
    if (!gone) std::this_thread::sleep_for(20ms);
  }
  EXPECT_TRUE(gone);
}

TEST(CommandRunner, HugeOutputIsCappedWithoutBlocking) {
  testing::TempDir d;
  const auto tool = script(d, "chatty", "head -c 50000000 /dev/zero | tr '\\0' x; echo done >&2");
  CommandOptions o;
  o.max_output = 1 << 20;
  const auto r = run_command({tool}, o);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_TRUE(r.truncated);
  EXPECT_EQ(r.out.size(), 1u << 20);
  EXPECT_EQ(r.err, "done\n");
}

TEST(CommandRunner, DeathBySignalIsReported) {
  testing::TempDir d;
  const auto tool = script(d, "killed", "kill -9 $$");
  const auto r = run_command({tool}, {});
  EXPECT_TRUE(r.started);
  EXPECT_EQ(r.signal, 9);
  EXPECT_EQ(r.describe(), "killed by signal 9");
}

TEST(SystemProbe, ReadsUnderItsRoot) {
  testing::TempDir d;
  d.write("usr/local/Ascend/driver/version.info", "Version=24.1.rc1\n");
  SystemProbe probe(d.path().string());
  EXPECT_EQ(probe.read_file("/usr/local/Ascend/driver/version.info").value_or(""), "Version=24.1.rc1\n");
  EXPECT_FALSE(probe.read_file("/usr/local/Ascend/firmware/version.info"));
  EXPECT_EQ(probe.list_dir("/usr/local/Ascend"), (std::vector<std::string>{"driver"}));
  EXPECT_TRUE(probe.stat("/usr/local/Ascend/driver").is_directory);
  EXPECT_FALSE(probe.stat("/dev/davinci0").exists);
  probe.set_env("ASCEND_RT_VISIBLE_DEVICES", "0,1");
  EXPECT_EQ(probe.env("ASCEND_RT_VISIBLE_DEVICES").value_or(""), "0,1");
  probe.set_env("HOME", std::nullopt);
  EXPECT_FALSE(probe.env("HOME"));
}

}  // namespace
}  // namespace npu_doctor
