// External commands with a hard timeout: posix_spawn in a new process group, both
// output pipes drained with poll() so a chatty tool cannot block, the whole group killed
// when the deadline passes. Used for npu-smi, hccn_tool, python probes.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <sstream>

#include "npu_doctor/probe.hpp"

extern char** environ;

namespace npu_doctor {

std::string CommandResult::describe() const {
  if (!started) return error.empty() ? "did not start" : error;
  std::ostringstream s;
  if (timed_out) {
    s << "timed out after " << static_cast<int>(seconds + 0.5) << " s and was killed";
  } else if (signal != 0) {
    s << "killed by signal " << signal;
  } else {
    s << "exit status " << exit_code;
  }
  if (truncated) s << " (output truncated)";
  return s.str();
}

std::optional<std::string> find_on_path(const std::string& name, const std::string& path) {
  if (name.find('/') != std::string::npos) {
    return ::access(name.c_str(), X_OK) == 0 ? std::optional<std::string>(name) : std::nullopt;
  }
  std::stringstream ss(path);
  for (std::string dir; std::getline(ss, dir, ':');) {
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    struct stat st {};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return std::nullopt;
}

namespace {

using Clock = std::chrono::steady_clock;

// Process groups of the commands being waited for, for kill_running_commands (lock-free
// atomics: read from a signal handler). More concurrent commands than slots are simply
// not tracked.
constexpr std::size_t kTrackedCommands = 64;
std::atomic<pid_t> g_running[kTrackedCommands];
static_assert(std::atomic<pid_t>::is_always_lock_free);

// Remembers `pid` while it lives; forgets it when destroyed.
class RunningCommand {
 public:
  explicit RunningCommand(pid_t pid) {
    for (auto& slot : g_running) {
      pid_t expected = 0;
      if (slot.compare_exchange_strong(expected, pid)) {
        slot_ = &slot;
        return;
      }
    }
  }
  ~RunningCommand() {
    if (slot_ != nullptr) slot_->store(0);
  }
  RunningCommand(const RunningCommand&) = delete;
  RunningCommand& operator=(const RunningCommand&) = delete;

 private:
  std::atomic<pid_t>* slot_ = nullptr;
};

void set_nonblocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

// Reads what is available; false at end of stream.
bool drain(int fd, std::string& into, std::size_t cap, bool& truncated) {
  char buf[65536];
  for (;;) {
    const ssize_t r = ::read(fd, buf, sizeof buf);
    if (r > 0) {
      const std::size_t room = into.size() < cap ? cap - into.size() : 0;
      const auto n = static_cast<std::size_t>(r);
      into.append(buf, std::min(room, n));
      if (n > room) truncated = true;
      continue;
    }
    if (r == 0) return false;
    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR;
  }
}

std::vector<std::string> environment(const CommandOptions& o) {
  std::map<std::string, std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  env["LC_ALL"] = "C";  // tool output is parsed: keep it in English
  for (const auto& [k, v] : o.env) env[k] = v;
  if (!o.path.empty()) env["PATH"] = o.path;
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

}  // namespace

void kill_running_commands() noexcept {
  for (auto& slot : g_running) {
    const pid_t pid = slot.load();
    if (pid > 0) ::kill(-pid, SIGKILL);
  }
}

CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options) {
  CommandResult r;
  if (argv.empty()) {
    r.error = "no command";
    return r;
  }
  const char* env_path = std::getenv("PATH");
  const std::string search = !options.path.empty() ? options.path : (env_path != nullptr ? env_path : "/usr/bin:/bin");
  const auto exe = find_on_path(argv[0], search);
  if (!exe) {
    r.error = argv[0] + " not found on PATH";
    return r;
  }
  int out_pipe[2] = {-1, -1};
  int err_pipe[2] = {-1, -1};
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) {
    r.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) {
      if (fd >= 0) ::close(fd);
    }
    return r;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group, so a timeout kills its children too
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &none);

  std::vector<std::string> args = argv;
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  std::vector<std::string> env = environment(options);
  std::vector<char*> cenv;
  for (auto& e : env) cenv.push_back(e.data());
  cenv.push_back(nullptr);

  const auto start = Clock::now();
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe->c_str(), &actions, &attr, cargs.data(), cenv.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    r.error = "cannot run " + *exe + ": " + std::strerror(rc);
    return r;
  }
  r.started = true;
  const RunningCommand tracked(pid);
  set_nonblocking(out_pipe[0]);
  set_nonblocking(err_pipe[0]);

  const auto deadline = start + options.timeout;
  bool out_open = true, err_open = true;
  int status = 0;
  bool reaped = false;
  while (!reaped) {
    const auto now = Clock::now();
    if (now >= deadline) {
      ::kill(-pid, SIGKILL);
      ::kill(pid, SIGKILL);
      r.timed_out = true;
      break;
    }
    const int wait_ms = static_cast<int>(
        std::min<long long>(50, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1));
    if (out_open || err_open) {
      pollfd fds[2];
      nfds_t n = 0;
      if (out_open) fds[n++] = {out_pipe[0], POLLIN, 0};
      if (err_open) fds[n++] = {err_pipe[0], POLLIN, 0};
      ::poll(fds, n, wait_ms);
      if (out_open) out_open = drain(out_pipe[0], r.out, options.max_output, r.truncated);
      if (err_open) err_open = drain(err_pipe[0], r.err, options.max_output, r.truncated);
    } else {
      ::usleep(static_cast<useconds_t>(std::min(wait_ms, 10)) * 1000u);
    }
    const pid_t w = ::waitpid(pid, &status, WNOHANG);
    if (w == pid) reaped = true;
  }
  if (!reaped) ::waitpid(pid, &status, 0);
  // Whatever the finished process left in the pipes.
  if (!r.timed_out) {
    if (out_open) drain(out_pipe[0], r.out, options.max_output, r.truncated);
    if (err_open) drain(err_pipe[0], r.err, options.max_output, r.truncated);
  }
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace npu_doctor
