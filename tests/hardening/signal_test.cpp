// Ctrl-C and SIGTERM sent to the real binary (issue 9): a long scan ends at once with
// 130 / 143, the -o report keeps its previous content (never half-written, no temporary
// file left), a hung tool is killed with it; `mem watch` keeps every sample it wrote.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "hardening/bounded_run.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

// A writer that sends a few log lines into a FIFO and then keeps it open without
// writing: the scan waits for more, as on a log still being written over a slow pipe.
class SlowFifo {
 public:
  explicit SlowFifo(fs::path p) : path_(std::move(p)) {
    if (::mkfifo(path_.c_str(), 0644) != 0) throw std::runtime_error("mkfifo");
    thread_ = std::thread([this] {
      // O_RDWR: a writer end that exists before any reader (Linux), so the reader never
      // sees "no writer yet" as the end of the stream.
      const int fd = ::open(path_.c_str(), O_RDWR | O_CLOEXEC);
      if (fd < 0) return;
      const std::string lines =
          "[ERROR] RUNTIME(1,python):2024-11-21-16:06:59.417.072 [api_c_memory.cc:28]1 rtMalloc:[INIT][DEFAULT]"
          "ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016\n";
      [[maybe_unused]] const ssize_t w = ::write(fd, lines.data(), lines.size());
      opened_.store(true);
      while (!stop_.load()) std::this_thread::sleep_for(10ms);
      ::close(fd);
    });
  }
  ~SlowFifo() {
    stop_.store(true);
    thread_.join();
  }
  bool opened() const { return opened_.load(); }

 private:
  fs::path path_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> opened_{false};
  std::thread thread_;
};

// A while_running action: waits until the stand-in tool has written its pid to `pids` (it is
// hanging now), then sends `sig` to npu-doctor.
std::function<void(pid_t)> signal_once_tool_hangs(const fs::path& pids, int sig) {
  return [pids, sig](pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (!fs::exists(pids) && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(200ms);
    ::kill(pid, sig);
  };
}

// Exists and is not a zombie (a killed child whose parent exited may wait for a reaper).
bool running(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  const std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  const auto paren = stat.rfind(')');
  return paren == std::string::npos || paren + 2 >= stat.size() || stat[paren + 2] != 'Z';
}

bool any_temporary_left(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp.") != std::string::npos) return true;
  }
  return false;
}

// diagnose on a FIFO that never ends, -o over an existing report, then `sig`.
void interrupt_diagnose(int sig, int expected_exit) {
  TempDir d;
  SlowFifo fifo(d.path() / "live.log");
  const fs::path report = d.path() / "out" / "report.json";
  fs::create_directories(report.parent_path());
  std::ofstream(report) << "previous report\n";
  BoundedRun run;
  run.args = {"diagnose", (d.path() / "live.log").string(), "-f", "json", "-o", report.string()};
  run.timeout = 60s;
  run.while_running = [&](pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (!fifo.opened() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(500ms);  // the scan has read the lines and waits for more
    ::kill(pid, sig);
  };
  const BoundedResult r = run_bounded(run);
  ASSERT_FALSE(r.timed_out) << "a signal must end a scan that waits for input";
  EXPECT_EQ(r.signal, 0) << "it exits, it is not killed: " << describe(r);
  EXPECT_EQ(r.exit_code, expected_exit) << r.err;
  EXPECT_NE(r.err.find("no report was written"), std::string::npos) << r.err;
  EXPECT_EQ(read_file(report), "previous report\n") << "the old report stays, never a half-written one";
  EXPECT_FALSE(any_temporary_left(report.parent_path()));
}

TEST(SignalDiagnose, CtrlCDuringScanExits130AndKeepsThePreviousReport) { interrupt_diagnose(SIGINT, 130); }
TEST(SignalDiagnose, SigtermDuringScanExits143AndKeepsThePreviousReport) { interrupt_diagnose(SIGTERM, 143); }

TEST(SignalDiagnose, SigtermWhileReadingStdinWritesNoReport) {
  TempDir d;
  SlowFifo fifo(d.path() / "stdin.fifo");
  BoundedRun run;
  run.args = {"diagnose", "-"};
  run.stdin_file = d.path() / "stdin.fifo";
  run.timeout = 60s;
  run.while_running = [&](pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + 30s;
    while (!fifo.opened() && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(10ms);
    std::this_thread::sleep_for(500ms);
    ::kill(pid, SIGTERM);
  };
  const BoundedResult r = run_bounded(run);
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 143) << describe(r) << r.err;
  EXPECT_EQ(r.out, "") << "no report that looks complete on stdout";
}

// A stand-in npu-smi that hangs: Ctrl-C ends `check` at once and takes the tool with it.
TEST(SignalCheck, CtrlCWhileAToolHangsKillsTheToolAndExits130) {
  TempDir d;
  const fs::path bin = d.path() / "bin";
  fs::create_directories(bin);
  fs::create_directories(d.path() / "root");
  std::ofstream(bin / "npu-smi") << "#!/bin/sh\necho $$ >> \"$(dirname \"$0\")/pids\"\nexec sleep 1000\n";
  fs::permissions(bin / "npu-smi", fs::perms::owner_all);
  BoundedRun run;
  run.args = {"check", "--root", (d.path() / "root").string(), "--only", "driver", "--timeout", "300"};
  run.path_prefix = bin.string();
  run.timeout = 60s;
  run.while_running = signal_once_tool_hangs(bin / "pids", SIGINT);
  const BoundedResult r = run_bounded(run);
  ASSERT_FALSE(r.timed_out) << "Ctrl-C must not wait for the tool's 300 s timeout";
  EXPECT_LT(r.seconds, 30.0);
  EXPECT_EQ(r.exit_code, 130) << describe(r) << r.err;
  std::istringstream pids(read_file(bin / "pids"));
  std::this_thread::sleep_for(100ms);
  for (pid_t p; pids >> p;) EXPECT_FALSE(running(p)) << "the hung npu-smi " << p << " was left running";
}

// mem watch: two good polls, then npu-smi hangs; SIGTERM stops it at once, every line
// written so far is whole, the hung tool is killed.
TEST(SignalMemWatch, SigtermWhileAPollHangsKeepsEverySample) {
  TempDir d;
  const fs::path bin = d.path() / "bin";
  fs::create_directories(bin);
  const std::string info = fixtures_dir() + "/npu-smi/info-910b4.txt";
  std::ofstream(bin / "npu-smi") << "#!/bin/sh\n"
                                 << "dir=$(dirname \"$0\")\n"
                                 << "n=$(cat \"$dir/count\" 2>/dev/null || echo 0)\n"
                                 << "echo $((n + 1)) > \"$dir/count\"\n"
                                 << "if [ \"$n\" -lt 2 ]; then cat '" << info << "'; exit 0; fi\n"
                                 << "echo $$ >> \"$dir/pids\"\n"
                                 << "exec sleep 1000\n";
  fs::permissions(bin / "npu-smi", fs::perms::owner_all);
  const fs::path samples = d.path() / "samples.jsonl";
  BoundedRun run;
  run.args = {"mem", "watch", "--interval", "100ms", "--timeout", "300s", "-o", samples.string()};
  run.path_prefix = bin.string();
  run.timeout = 60s;
  run.while_running = signal_once_tool_hangs(bin / "pids", SIGTERM);
  const BoundedResult r = run_bounded(run);
  ASSERT_FALSE(r.timed_out) << "SIGTERM must not wait for the hung poll's 300 s timeout";
  EXPECT_LT(r.seconds, 30.0);
  EXPECT_EQ(r.exit_code, 0) << "mem watch documents a signal as its normal stop: " << describe(r) << r.err;
  const std::string text = read_file(samples);
  ASSERT_FALSE(text.empty()) << r.err;
  EXPECT_EQ(text.back(), '\n') << "the last line is whole";
  std::istringstream lines(text);
  int n = 0;
  for (std::string line; std::getline(lines, line); ++n) {
    EXPECT_TRUE(nlohmann::json::accept(line)) << line;
  }
  EXPECT_GT(n, 0);
  std::istringstream pids(read_file(bin / "pids"));
  std::this_thread::sleep_for(100ms);
  for (pid_t p; pids >> p;) EXPECT_FALSE(running(p)) << "the hung npu-smi " << p << " was left running";
}

}  // namespace
}  // namespace npu_doctor::testing
