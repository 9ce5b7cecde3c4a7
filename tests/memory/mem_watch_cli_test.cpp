// `npu-doctor mem watch` against a stand-in npu-smi (tests/memory/fixtures/bin/npu-smi)
// first on PATH: lines per device and poll, live view, Ctrl-C/SIGTERM, failures.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "memory/mem_sample.hpp"
#include "support/test_support.hpp"

extern char** environ;

namespace npu_doctor::mem {
namespace {

using namespace std::chrono_literals;

std::string stand_in_bin() { return std::string(NPU_DOCTOR_MEM_FIXTURES) + "/bin"; }

// npu-doctor running in the background with stdout and stderr in files.
class Doctor {
 public:
  Doctor(const testing::TempDir& dir, const std::vector<std::string>& args, const std::vector<std::string>& env,
         const std::string& path_dirs)
      : out_(dir.path() / "stdout"), err_(dir.path() / "stderr") {
    std::vector<std::string> argv_s = {NPU_DOCTOR_BINARY};
    argv_s.insert(argv_s.end(), args.begin(), args.end());
    std::vector<std::string> env_s;
    for (char** e = environ; *e != nullptr; ++e) {
      if (std::strncmp(*e, "PATH=", 5) != 0 && std::strncmp(*e, "LANG=", 5) != 0 && std::strncmp(*e, "LC_ALL=", 7) != 0) {
        env_s.emplace_back(*e);
      }
    }
    env_s.push_back("PATH=" + path_dirs);
    env_s.insert(env_s.end(), env.begin(), env.end());
    std::vector<char*> argv, envp;
    for (auto& a : argv_s) argv.push_back(a.data());
    argv.push_back(nullptr);
    for (auto& e : env_s) envp.push_back(e.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (posix_spawn(&pid_, argv[0], &fa, nullptr, argv.data(), envp.data()) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
  }
  ~Doctor() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  // The exit status, or -1 if it did not exit within `limit`.
  int wait(std::chrono::milliseconds limit) {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (std::chrono::steady_clock::now() < until) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(10ms);
    }
    return -1;
  }
  void signal(int sig) const { kill(pid_, sig); }
  std::string out() const { return testing::read_file(out_); }
  std::string err() const { return testing::read_file(err_); }

 private:
  std::filesystem::path out_, err_;
  pid_t pid_ = -1;
  bool exited_ = false;
};

std::string path_with_stand_in() { return stand_in_bin() + ":/usr/bin:/bin"; }

TEST(MemWatchCli, OneLinePerDeviceAndPollThatTheAnalyzerReads) {
  testing::TempDir d;
  const auto file = d.path() / "watch.jsonl";
  Doctor doc(d, {"mem", "watch", "--interval", "50ms", "--count", "3", "-o", file.string()},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string()}, path_with_stand_in());
  ASSERT_EQ(doc.wait(20s), 0) << doc.err();
  const auto lines = testing::lines_of(testing::read_file(file));
  ASSERT_EQ(lines.size(), 6u);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    MemSample s;
    std::string why;
    ASSERT_EQ(parse_sample_line(lines[i], s, why), LineKind::sample) << lines[i] << ": " << why;
    EXPECT_EQ(s.step, static_cast<int64_t>(i / 2));
    EXPECT_EQ(s.device, static_cast<int>(i % 2));
    EXPECT_EQ(s.capacity.value(), 65536ull << 20);
    EXPECT_TRUE(s.time);
  }
  const auto last = nlohmann::json::parse(lines[4]);
  EXPECT_EQ(last["allocated"], (20000ull + 2 * 500) << 20) << "the third poll's figure";
  EXPECT_EQ(last["source"], "npu-smi");
  EXPECT_TRUE(doc.out().empty());
  EXPECT_TRUE(doc.err().empty()) << "no live view when stderr is not a terminal: " << doc.err();
}

TEST(MemWatchCli, SamplesGoToStdoutWithoutOutputFile) {
  testing::TempDir d;
  Doctor doc(d, {"mem", "watch", "--interval", "20ms", "--count", "2"}, {"NPU_SMI_COUNTER=" + (d.path() / "n").string()},
             path_with_stand_in());
  ASSERT_EQ(doc.wait(20s), 0) << doc.err();
  EXPECT_EQ(testing::lines_of(doc.out()).size(), 4u) << doc.out();
}

TEST(MemWatchCli, LiveViewShowsALinePerDevice) {
  testing::TempDir d;
  Doctor doc(d, {"mem", "watch", "--interval", "20ms", "--count", "3", "--live", "always", "-o", (d.path() / "w").string()},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string()}, path_with_stand_in());
  ASSERT_EQ(doc.wait(20s), 0) << doc.err();
  const std::string err = doc.err();
  EXPECT_NE(err.find("NPU 0  "), std::string::npos) << err;
  EXPECT_NE(err.find("NPU 1  "), std::string::npos) << err;
  EXPECT_NE(err.find("20.5 GiB / 64.0 GiB"), std::string::npos) << err;
  EXPECT_NE(err.find("NPU 0  ▃▃▃  20.5 GiB"), std::string::npos) << "a sparkline of the last polls, scaled to the capacity";
  EXPECT_NE(err.find("3 polls, written to"), std::string::npos) << err;
  EXPECT_EQ(err.find('\x1b'), std::string::npos) << "no cursor movement off a terminal";
}

void stops_cleanly_on(int sig) {
  testing::TempDir d;
  const auto file = d.path() / "watch.jsonl";
  Doctor doc(d, {"mem", "watch", "--interval", "100ms", "-o", file.string()},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string()}, path_with_stand_in());
  const auto until = std::chrono::steady_clock::now() + 20s;
  while (testing::lines_of(testing::read_file(file)).size() < 4 && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_GE(testing::lines_of(testing::read_file(file)).size(), 4u) << doc.err();
  doc.signal(sig);
  EXPECT_EQ(doc.wait(5s), 0) << doc.err();
  const std::string text = testing::read_file(file);
  EXPECT_EQ(text.back(), '\n') << "the last line is whole";
  const auto lines = testing::lines_of(text);
  EXPECT_EQ(lines.size() % 2, 0u) << "both devices of every poll";
  for (const auto& l : lines) {
    MemSample s;
    std::string why;
    EXPECT_EQ(parse_sample_line(l, s, why), LineKind::sample) << l;
  }
}

TEST(MemWatchCli, SigtermStopsCleanlyKeepingEveryLine) { stops_cleanly_on(SIGTERM); }
TEST(MemWatchCli, CtrlCStopsCleanlyKeepingEveryLine) { stops_cleanly_on(SIGINT); }

TEST(MemWatchCli, DurationEndsTheWatch) {
  testing::TempDir d;
  Doctor doc(d, {"mem", "watch", "--interval", "100ms", "--duration", "350ms"},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string()}, path_with_stand_in());
  ASSERT_EQ(doc.wait(20s), 0) << doc.err();
  const auto n = testing::lines_of(doc.out()).size();
  EXPECT_EQ(n, 8u) << "polls at 0, 100, 200 and 300 ms, two devices each";
}

TEST(MemWatchCli, MissingNpuSmiIsAUsageError) {
  testing::TempDir d;
  Doctor doc(d, {"mem", "watch", "--count", "1"}, {}, d.path().string());
  EXPECT_EQ(doc.wait(20s), 2);
  EXPECT_NE(doc.err().find("npu-smi not found"), std::string::npos) << doc.err();
}

TEST(MemWatchCli, FailingFromTheStartIsAUsageError) {
  testing::TempDir d;
  Doctor doc(d, {"mem", "watch", "--count", "3"},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string(), "NPU_SMI_FAIL_AFTER=0"}, path_with_stand_in());
  EXPECT_EQ(doc.wait(20s), 2);
  EXPECT_NE(doc.err().find("exit status 255: dcmi module initialize failed"), std::string::npos) << doc.err();
}

TEST(MemWatchCli, GivesUpAfterFiveFailedPollsKeepingWhatItWrote) {
  testing::TempDir d;
  const auto file = d.path() / "watch.jsonl";
  Doctor doc(d, {"mem", "watch", "--interval", "20ms", "-o", file.string()},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string(), "NPU_SMI_FAIL_AFTER=2"}, path_with_stand_in());
  EXPECT_EQ(doc.wait(20s), 2);
  EXPECT_EQ(testing::lines_of(testing::read_file(file)).size(), 4u);
  const std::string err = doc.err();
  EXPECT_NE(err.find("(continuing)"), std::string::npos) << err;
  EXPECT_EQ(err.find("(continuing)"), err.rfind("(continuing)")) << "the same error is said once";
  EXPECT_NE(err.find("giving up after 5 failed polls"), std::string::npos) << err;
}

TEST(MemWatchCli, HangingNpuSmiTimesOut) {
  testing::TempDir d;
  const auto hang = d.write("bin/npu-smi", "#!/bin/sh\nsleep 30\n");
  std::filesystem::permissions(hang, std::filesystem::perms::owner_all);
  Doctor doc(d, {"mem", "watch", "--timeout", "300ms", "--count", "1"}, {}, (d.path() / "bin").string() + ":/usr/bin:/bin");
  EXPECT_EQ(doc.wait(10s), 2);
  EXPECT_NE(doc.err().find("timed out"), std::string::npos) << doc.err();
}

TEST(MemWatchCli, BadDurationsAreUsageErrors) {
  for (const auto& args : std::vector<std::vector<std::string>>{{"--interval", "0s"},
                                                                {"--interval", "soon"},
                                                                {"--duration", "-3s"},
                                                                {"--timeout", "0"}}) {
    std::vector<std::string> a = {"mem", "watch"};
    a.insert(a.end(), args.begin(), args.end());
    const auto r = testing::run_npu_doctor(a);
    EXPECT_EQ(r.exit_code, 2) << args[0] << " " << args[1];
    EXPECT_NE(r.err.find(args[0]), std::string::npos) << r.err;
  }
}

TEST(MemWatchCli, WatchThenAnalyzeFindsTheGrowingDevice) {
  testing::TempDir d;
  const auto file = d.path() / "watch.jsonl";
  Doctor doc(d, {"mem", "watch", "--interval", "10ms", "--count", "40", "-o", file.string()},
             {"NPU_SMI_COUNTER=" + (d.path() / "n").string()}, path_with_stand_in());
  ASSERT_EQ(doc.wait(60s), 0) << doc.err();
  const auto r = testing::run_npu_doctor({"mem", "analyze", "-f", "json", file.string()});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["devices"].size(), 2u);
  EXPECT_TRUE(j["devices"][0]["leak"]["detected"]) << "500 MB more every poll";
  EXPECT_EQ(j["devices"][0]["leak"]["bytes_per_step"], 500ll << 20);
  EXPECT_EQ(j["devices"][0]["capacity_source"], "samples");
  EXPECT_FALSE(j["devices"][1]["leak"]["detected"]) << "device 1 only wobbles";
}

}  // namespace
}  // namespace npu_doctor::mem
