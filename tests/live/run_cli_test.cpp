// `npu-doctor run -- CMD` against real child processes that print real log formats (the
// fixtures are torch_npu, CANN plog and HCCL lines from tests/fixtures and examples/)
// and then fail, hang, are killed or succeed. Every wait is on something the child or
// npu-doctor prints, with a generous limit: the CI machine is small and shared.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "bundle/bundle_test_support.hpp"
#include "live/live_child.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::live {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using testing::LiveChild;
using testing::live_env;
using testing::read_file;
using testing::TempDir;

std::string fixture(const std::string& name) { return std::string(NPU_DOCTOR_LIVE_FIXTURES) + "/" + name; }

bool has_rule(const json& report, const std::string& rule) {
  for (const auto& f : report["findings"]) {
    if (f["rule"] == rule) return true;
  }
  return false;
}

class RunCli : public ::testing::Test {
 protected:
  std::string plogs() const { return (dir_.path() / "plogs").string(); }
  std::vector<std::string> env() const { return live_env(plogs()); }
  json report(const std::string& name = "report.json") const { return json::parse(read_file(dir_.path() / name)); }
  std::string out_file(const std::string& name = "report.json") const { return (dir_.path() / name).string(); }
  TempDir dir_;
};

TEST_F(RunCli, AFailingJobsOutputPassesThroughAndItsDiagnosisFollows) {
  const std::string script = "cat '" + fixture("train-stdout.log") + "'; cat '" + fixture("train-stderr.log") +
                             "' >&2; exit 3";
  LiveChild c({"run", "-f", "json", "-o", out_file(), "--", "sh", "-c", script}, env());
  ASSERT_EQ(c.wait_exit(), 3) << c.err();
  // Byte for byte, each stream (the progress bar's carriage returns included).
  EXPECT_EQ(c.out(), read_file(fixture("train-stdout.log")));
  const std::string job_err = read_file(fixture("train-stderr.log"));
  ASSERT_EQ(c.err().substr(0, job_err.size()), job_err);
  const std::string ours = c.err().substr(job_err.size());
  EXPECT_NE(ours.find("exited with status 3"), std::string::npos) << ours;
  EXPECT_NE(ours.find("ROOT CAUSE"), std::string::npos) << ours;
  EXPECT_NE(ours.find("(stderr):"), std::string::npos) << ours;

  const json r = report();
  EXPECT_EQ(r["schema"], "npu-doctor/diagnosis/v1");
  EXPECT_EQ(r["job"]["exit_code"], 3);
  EXPECT_EQ(r["job"]["exit_status"], 3);
  EXPECT_EQ(r["job"]["command"][0], "sh");
  ASSERT_FALSE(r["root_cause"].is_null());
  EXPECT_EQ(r["root_cause"]["evidence"]["path"], "(stderr)");
  EXPECT_EQ(r["inputs"][0]["path"], "(stdout)");
  EXPECT_EQ(r["inputs"][1]["lines"], testing::lines_of(job_err).size());
}

TEST_F(RunCli, ASucceedingJobGetsNoReportUnlessAsked) {
  LiveChild quiet({"run", "--", "sh", "-c", "echo fine; echo 'warn: nothing serious' >&2"}, env());
  ASSERT_EQ(quiet.wait_exit(), 0);
  EXPECT_EQ(quiet.out(), "fine\n");
  EXPECT_EQ(quiet.err(), "warn: nothing serious\n");  // the job's stderr and nothing of ours

  LiveChild asked({"run", "-f", "json", "-o", out_file(), "--", "sh", "-c", "echo fine"}, env());
  ASSERT_EQ(asked.wait_exit(), 0) << asked.err();
  EXPECT_EQ(asked.err(), "");
  const json r = report();
  EXPECT_EQ(r["job"]["exit_code"], 0);
  EXPECT_TRUE(r["root_cause"].is_null());
}

// --expected (docs/expected-errors.md): a job that prints only a declared error and fails
// for another reason gets no root cause from that line; the job's own status still counts.
TEST_F(RunCli, ADeclaredExpectedErrorIsNoRootCause) {
  const auto expected = dir_.write("expected.yaml",
                                   "schema: npu-doctor/expected/v1\nexpected:\n"
                                   "  - {rule: device.dcmi-*, reason: npu-smi prints it on this board}\n");
  const std::string script = "echo 'DCMI module initialize failed. ret is -8005'; exit 3";
  LiveChild plain({"run", "-f", "json", "-o", out_file("plain.json"), "--", "sh", "-c", script}, env());
  ASSERT_EQ(plain.wait_exit(), 3) << plain.err();
  EXPECT_FALSE(report("plain.json")["root_cause"].is_null());
  LiveChild c({"run", "-f", "json", "-o", out_file(), "--expected", expected.string(), "--", "sh", "-c", script}, env());
  ASSERT_EQ(c.wait_exit(), 3) << c.err();
  const json r = report();
  EXPECT_TRUE(r["root_cause"].is_null()) << r.dump();
  ASSERT_FALSE(r["findings"].empty());
  EXPECT_EQ(r["findings"][0]["expected"]["reason"], "npu-smi prints it on this board");
  LiveChild bad({"run", "--expected", (dir_.path() / "missing.yaml").string(), "--", "true"}, env());
  EXPECT_EQ(bad.wait_exit(), 2);
  EXPECT_NE(bad.err().find("missing.yaml: cannot read the file"), std::string::npos) << bad.err();
}

TEST_F(RunCli, FollowsThePlogsThisRunWritesAndNotOlderContent) {
  // Before the start: an old plog with an error that must not be blamed on this run.
  // (Named by a pid that cannot be alive: the process that wrote it is long gone.)
  const fs::path old = dir_.write("plogs/debug/plog/plog-999999999_20250101000000000.log",
                                  "[ERROR] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [x.cc:1]1 ErrCode=207001, "
                                  "desc=[driver error:out of memory], InnerCode=0x7020016\n");
  const std::string job = "mkdir -p \"$ASCEND_PROCESS_LOG_PATH/debug/plog\"; "
                          "cp '" + fixture("aicore-plog.log") + "' \"$ASCEND_PROCESS_LOG_PATH/debug/plog/plog-$$_20250302101401000.log\"; "
                          "echo '[INFO] RUNTIME(1,python):2025-01-01-00:00:01.000.000 [x.cc:2]1 still here' >> '" +
                          old.string() + "'; echo 'RuntimeError: The Inner error is reported as above.' >&2; exit 1";
  LiveChild c({"run", "-f", "json", "-o", out_file(), "--", "sh", "-c", job}, env());
  ASSERT_EQ(c.wait_exit(), 1) << c.err();
  const json r = report();
  ASSERT_FALSE(r["root_cause"].is_null()) << r.dump(2);
  EXPECT_EQ(r["root_cause"]["category"], "aicore_exception") << r["root_cause"].dump(2);
  EXPECT_NE(r["root_cause"]["evidence"]["path"].get<std::string>().find("/debug/plog/plog-"), std::string::npos);
  EXPECT_FALSE(has_rule(r, "acl.207001")) << "the old plog's error was read";
  // The old plog is an input for the line it gained, numbered as in the file.
  bool old_seen = false;
  for (const auto& in : r["inputs"]) {
    if (in["path"] == old.string()) {
      old_seen = true;
      EXPECT_EQ(in["lines"], 2);
    }
  }
  EXPECT_TRUE(old_seen) << r["inputs"].dump();
  EXPECT_EQ(r["job"]["plog_files"].size(), 2u);
}

TEST_F(RunCli, AHangIsReportedWithTheLastLinesAndTheJobIsEnded) {
  const std::string job = "mkdir -p \"$ASCEND_PROCESS_LOG_PATH\"; cp '" + fixture("hccl-wait-plog.log") +
                          "' \"$ASCEND_PROCESS_LOG_PATH/plog-$$_1.log\"; echo 'step 41 loss 2.1'; echo 'step 42 loss 2.0'; "
                          "echo 'entering allreduce' >&2; exec sleep 600";
  LiveChild c({"run", "--hang-after", "1s", "--kill-on-hang", "--kill-grace", "5s", "-f", "json", "-o", out_file(), "--",
               "sh", "-c", job},
              env());
  ASSERT_TRUE(c.wait_for_err("it looks hung")) << c.err();
  const int status = c.wait_exit();
  EXPECT_EQ(status, 128 + SIGTERM) << c.err();
  EXPECT_NE(c.err().find("step 42 loss 2.0"), std::string::npos) << c.err();  // the last lines of stdout
  EXPECT_NE(c.err().find("entering allreduce"), std::string::npos) << c.err();
  EXPECT_NE(c.err().find("EI0002"), std::string::npos) << "what the logs point to: " << c.err();
  EXPECT_NE(c.err().find("ending the job"), std::string::npos);
  const json r = report();
  EXPECT_TRUE(r["job"]["hung"].get<bool>());
  EXPECT_TRUE(r["job"]["killed_on_hang"].get<bool>());
  EXPECT_EQ(r["job"]["signal"], "SIGTERM");
  EXPECT_TRUE(has_rule(r, "live.job-hung"));
  EXPECT_FALSE(has_rule(r, "live.job-killed"));  // we ended it: the hang says why
}

TEST_F(RunCli, AFailedJobLeavesABundleWithItsOutputAndPlogs) {
  const std::string job = "mkdir -p \"$ASCEND_PROCESS_LOG_PATH\"; cp '" + fixture("aicore-plog.log") +
                          "' \"$ASCEND_PROCESS_LOG_PATH/plog-$$_1.log\"; echo 'epoch 1'; cat '" +
                          fixture("train-stderr.log") + "' >&2; exit 1";
  const std::string archive = (dir_.path() / "failure.tar.gz").string();
  LiveChild c({"run", "--bundle-on-failure", archive, "--", "sh", "-c", job}, env());
  ASSERT_EQ(c.wait_exit(std::chrono::seconds(120)), 1) << c.err();
  EXPECT_NE(c.err().find("bundle written: " + archive), std::string::npos) << c.err();
  const auto members = bundle::testing::read_members(archive);
  EXPECT_EQ(bundle::testing::member(members, "job-stdout.log"), "epoch 1\n");
  EXPECT_EQ(bundle::testing::member(members, "job-stderr.log"), read_file(fixture("train-stderr.log")));
  bool plog = false;
  for (const auto& [name, text] : members) {
    plog = plog || (name.find("/plog-") != std::string::npos && text == read_file(fixture("aicore-plog.log")));
  }
  EXPECT_TRUE(plog);
  // A job that succeeds leaves none.
  const std::string none = (dir_.path() / "none.tar.gz").string();
  LiveChild ok({"run", "--bundle-on-failure", none, "--", "true"}, env());
  ASSERT_EQ(ok.wait_exit(), 0);
  EXPECT_FALSE(fs::exists(none));
}

TEST_F(RunCli, AJobKilledBySignalExitsWith128PlusTheSignal) {
  LiveChild c({"run", "-f", "json", "-o", out_file(), "--", "sh", "-c", "echo 'epoch 3 step 7'; kill -9 $$"}, env());
  ASSERT_EQ(c.wait_exit(), 128 + SIGKILL) << c.err();
  EXPECT_NE(c.err().find("was killed by SIGKILL"), std::string::npos) << c.err();
  const json r = report();
  EXPECT_EQ(r["job"]["signal"], "SIGKILL");
  EXPECT_TRUE(r["job"]["exit_code"].is_null());
  ASSERT_FALSE(r["root_cause"].is_null());
  EXPECT_EQ(r["root_cause"]["rule"], "live.job-killed");
  EXPECT_EQ(r["root_cause"]["evidence"]["text"], "epoch 3 step 7");
}

TEST_F(RunCli, SignalsAreForwardedToTheJobsProcessGroup) {
  // The job and a child of it both report SIGTERM; the job then exits 7.
  // Each shell says it is ready only once its trap is set: a signal before that would end
  // the child silently (seen on a loaded machine).
  const fs::path ready = dir_.path() / "ready";
  const fs::path child_ready = dir_.path() / "child-ready";
  const std::string job = "sh -c 'trap \"echo child got TERM; exit 0\" TERM; touch \"" + child_ready.string() +
                          "\"; while :; do sleep 0.05; done' & "
                          "trap 'echo job got TERM; wait; exit 7' TERM; touch '" + ready.string() + "'; "
                          "while :; do sleep 0.05; done";
  LiveChild c({"run", "--", "sh", "-c", job}, env());
  ASSERT_TRUE(testing::eventually([&] { return fs::exists(ready) && fs::exists(child_ready); }));
  c.signal(SIGTERM);
  EXPECT_EQ(c.wait_exit(), 7) << c.err();
  EXPECT_NE(c.out().find("job got TERM"), std::string::npos) << c.out();
  EXPECT_NE(c.out().find("child got TERM"), std::string::npos) << c.out();
  EXPECT_NE(c.err().find("exited with status 7"), std::string::npos) << c.err();
}

TEST_F(RunCli, CtrlCOnAHealthyJobEndsItWithoutAReport) {
  const fs::path ready = dir_.path() / "ready";
  LiveChild c({"run", "--", "sh", "-c", "echo 'epoch 1'; touch '" + ready.string() + "'; exec sleep 600"}, env());
  ASSERT_TRUE(testing::eventually([&] { return fs::exists(ready); }));
  c.signal(SIGINT);
  EXPECT_EQ(c.wait_exit(), 128 + SIGINT) << c.err();
  EXPECT_EQ(c.out(), "epoch 1\n");
  EXPECT_NE(c.err().find("was killed by SIGINT"), std::string::npos) << c.err();
  EXPECT_NE(c.err().find("SIGINT passed on to it"), std::string::npos) << c.err();
  EXPECT_EQ(c.err().find("ROOT CAUSE"), std::string::npos) << c.err();
}

TEST_F(RunCli, ACommandThatCannotRunIsSaidAsAShellWould) {
  LiveChild missing({"run", "--", "/nonexistent/trainer"}, env());
  EXPECT_EQ(missing.wait_exit(), 127);
  EXPECT_NE(missing.err().find("No such file or directory"), std::string::npos) << missing.err();
  const fs::path plain = dir_.write("not-executable.sh", "echo hi\n");
  LiveChild denied({"run", "--", plain.string()}, env());
  EXPECT_EQ(denied.wait_exit(), 126);
  LiveChild usage({"run", "--kill-on-hang", "--", "true"}, env());
  EXPECT_EQ(usage.wait_exit(), 2);
  LiveChild bad_output({"run", "-o", "/nonexistent/dir/r.json", "--", "true"}, env());
  EXPECT_EQ(bad_output.wait_exit(), 2);
  EXPECT_NE(bad_output.err().find("does not exist"), std::string::npos);
}

TEST_F(RunCli, OnATerminalTheJobGetsAPseudoTerminalAndItsBytesUnchanged) {
  int master = -1, slave = -1;
  struct winsize ws {};
  ws.ws_row = 33;
  ws.ws_col = 101;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, &ws), 0);
  struct termios t {};
  ASSERT_EQ(::tcgetattr(slave, &t), 0);
  ::cfmakeraw(&t);  // our terminal shows bytes as they come, so the test sees what npu-doctor wrote
  ASSERT_EQ(::tcsetattr(slave, TCSANOW, &t), 0);
  const std::string job = "if [ -t 1 ]; then echo 'stdout is a tty'; fi; stty size </dev/tty; printf 'a\\nb\\r\\n\\033[32mgreen\\033[0m\\n'";
  std::string seen;
  {
    LiveChild c({"run", "--", "sh", "-c", job}, env(), slave);
    ::close(slave);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    char buf[4096];
    // Read the terminal until npu-doctor has exited and closed it (EIO on the master).
    for (;;) {
      pollfd p{master, POLLIN, 0};
      if (::poll(&p, 1, 200) > 0) {
        const ssize_t n = ::read(master, buf, sizeof buf);
        if (n <= 0) break;
        seen.append(buf, static_cast<std::size_t>(n));
      }
      if (std::chrono::steady_clock::now() > deadline) break;
    }
    EXPECT_EQ(c.wait_exit(), 0) << c.err();
  }
  ::close(master);
  EXPECT_EQ(seen, "stdout is a tty\n33 101\na\nb\r\n\033[32mgreen\033[0m\n");
}

TEST_F(RunCli, WhenOurStdoutClosesTheJobSeesItsOutputClosed) {
  // `npu-doctor run -- yes | head -n 2`: without npu-doctor, `yes` dies of SIGPIPE; with it too.
  const std::string cmd = "'" + std::string(NPU_DOCTOR_BINARY) + "' run --no-plog -- yes | head -n 2";
  LiveChild c({"run", "--no-plog", "--", "sh", "-c", cmd + "; echo \"exit=$?\""}, env());
  EXPECT_EQ(c.wait_exit(std::chrono::seconds(120)), 0) << c.err();
  EXPECT_EQ(c.out(), "y\ny\nexit=0\n");
}

}  // namespace
}  // namespace npu_doctor::live
