#pragma once
// The real npu-doctor as a child the test talks to while it runs: its stdout and stderr
// read as they come (or stdout given, e.g. a pseudo-terminal), waits with generous
// deadlines on what it prints instead of fixed sleeps, signals, and its exit status.
#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace npu_doctor::testing {

class LiveChild {
 public:
  // `env`: NAME=value added to (or replacing in) the test's environment. `stdout_fd`: give
  // the child this as its stdout instead of a pipe (out() then stays empty).
  LiveChild(const std::vector<std::string>& args, const std::vector<std::string>& env = {}, int stdout_fd = -1);
  ~LiveChild();  // a child still running is killed
  LiveChild(const LiveChild&) = delete;
  LiveChild& operator=(const LiveChild&) = delete;

  pid_t pid() const { return pid_; }
  // Reads until `done(out, err)` holds (true) or `limit` passes (false).
  bool wait_for(const std::function<bool(const std::string& out, const std::string& err)>& done,
                std::chrono::milliseconds limit = std::chrono::seconds(60));
  bool wait_for_err(const std::string& needle, std::chrono::milliseconds limit = std::chrono::seconds(60));
  bool wait_for_out(const std::string& needle, std::chrono::milliseconds limit = std::chrono::seconds(60));
  // Reads the rest and reaps: the exit code, 128 + the signal, or -1 when it did not end in time.
  int wait_exit(std::chrono::milliseconds limit = std::chrono::seconds(60));
  void signal(int sig) const;
  const std::string& out() const { return out_; }
  const std::string& err() const { return err_; }

 private:
  void read_some(int timeout_ms);
  pid_t pid_ = -1;
  int out_fd_ = -1;
  int err_fd_ = -1;
  bool reaped_ = false;
  int status_ = -1;
  std::string out_;
  std::string err_;
};

// The environment for run tests: plog files under `plog_dir` only.
std::vector<std::string> live_env(const std::string& plog_dir);

// Polls `done` every 20 ms until it holds or `limit` passes.
bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit = std::chrono::seconds(60));

}  // namespace npu_doctor::testing
