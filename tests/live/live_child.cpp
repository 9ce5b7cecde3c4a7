#include "live/live_child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace npu_doctor::testing {

LiveChild::LiveChild(const std::vector<std::string>& args, const std::vector<std::string>& env, int stdout_fd) {
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  if ((stdout_fd < 0 && ::pipe2(out, O_CLOEXEC) != 0) || ::pipe2(err, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
  std::vector<std::string> argv_s = {NPU_DOCTOR_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  auto overridden = [&](const char* kv) {
    const char* eq = std::strchr(kv, '=');
    const std::size_t n = eq == nullptr ? std::strlen(kv) : static_cast<std::size_t>(eq - kv) + 1;
    for (const auto& e : env) {
      if (e.compare(0, n, kv, n) == 0) return true;
    }
    return std::strncmp(kv, "NPU_DOCTOR_KB_PATH=", 19) == 0 || std::strncmp(kv, "LANG=", 5) == 0 ||
           std::strncmp(kv, "LC_ALL=", 7) == 0;
  };
  for (char** e = environ; *e != nullptr; ++e) {
    if (!overridden(*e)) env_s.emplace_back(*e);
  }
  env_s.insert(env_s.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork");
  if (pid_ == 0) {
    const int devnull = ::open("/dev/null", O_RDONLY);
    ::dup2(devnull, 0);
    ::dup2(stdout_fd >= 0 ? stdout_fd : out[1], 1);
    ::dup2(err[1], 2);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  if (stdout_fd < 0) {
    ::close(out[1]);
    out_fd_ = out[0];
    ::fcntl(out_fd_, F_SETFL, O_NONBLOCK);
  }
  ::close(err[1]);
  err_fd_ = err[0];
  ::fcntl(err_fd_, F_SETFL, O_NONBLOCK);
}

LiveChild::~LiveChild() {
  if (!reaped_ && pid_ > 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  if (out_fd_ >= 0) ::close(out_fd_);
  if (err_fd_ >= 0) ::close(err_fd_);
}

void LiveChild::read_some(int timeout_ms) {
  pollfd fds[2];
  nfds_t n = 0;
  if (out_fd_ >= 0) fds[n++] = {out_fd_, POLLIN, 0};
  if (err_fd_ >= 0) fds[n++] = {err_fd_, POLLIN, 0};
  if (n == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(timeout_ms));
    return;
  }
  ::poll(fds, n, timeout_ms);
  char buf[65536];
  for (auto [fd, into] : {std::pair<int*, std::string*>{&out_fd_, &out_}, {&err_fd_, &err_}}) {
    while (*fd >= 0) {
      const ssize_t r = ::read(*fd, buf, sizeof buf);
      if (r > 0) {
        into->append(buf, static_cast<std::size_t>(r));
        continue;
      }
      if (r == 0) {
        ::close(*fd);
        *fd = -1;
      }
      break;
    }
  }
}

bool LiveChild::wait_for(const std::function<bool(const std::string&, const std::string&)>& done,
                         std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  for (;;) {
    if (done(out_, err_)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    if (out_fd_ < 0 && err_fd_ < 0 && reaped_) return done(out_, err_);
    read_some(50);
    if (!reaped_ && out_fd_ < 0 && err_fd_ < 0) {
      int st = 0;
      if (::waitpid(pid_, &st, WNOHANG) == pid_) {
        reaped_ = true;
        status_ = st;
      }
    }
  }
}

bool LiveChild::wait_for_err(const std::string& needle, std::chrono::milliseconds limit) {
  return wait_for([&](const std::string&, const std::string& e) { return e.find(needle) != std::string::npos; }, limit);
}

bool LiveChild::wait_for_out(const std::string& needle, std::chrono::milliseconds limit) {
  return wait_for([&](const std::string& o, const std::string&) { return o.find(needle) != std::string::npos; }, limit);
}

int LiveChild::wait_exit(std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!reaped_) {
    read_some(20);
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      reaped_ = true;
      status_ = st;
      break;
    }
    if (std::chrono::steady_clock::now() >= deadline) return -1;
  }
  while (out_fd_ >= 0 || err_fd_ >= 0) {
    read_some(20);
    if (std::chrono::steady_clock::now() >= deadline) break;
  }
  if (WIFEXITED(status_)) return WEXITSTATUS(status_);
  if (WIFSIGNALED(status_)) return 128 + WTERMSIG(status_);
  return -1;
}

void LiveChild::signal(int sig) const {
  if (!reaped_ && pid_ > 0) ::kill(pid_, sig);
}

std::vector<std::string> live_env(const std::string& plog_dir) {
  return {"ASCEND_PROCESS_LOG_PATH=" + plog_dir, "NO_COLOR=1"};
}

bool eventually(const std::function<bool()>& done, std::chrono::milliseconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace npu_doctor::testing
