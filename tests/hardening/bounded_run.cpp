#include "hardening/bounded_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "support/test_support.hpp"

extern char** environ;

namespace npu_doctor::testing {
namespace {

using Clock = std::chrono::steady_clock;

// Writes `bytes` of 'a' to fd until done, the reader goes away, or `stop` is set.
void feed(int fd, uint64_t bytes, const std::atomic<bool>& stop) {
  static const std::string block(1 << 20, 'a');
  while (bytes > 0 && !stop.load()) {
    const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(bytes, block.size()));
    const ssize_t w = ::write(fd, block.data(), n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;  // EPIPE: the reader stopped
    bytes -= static_cast<uint64_t>(w);
  }
}

std::string read_back(const std::filesystem::path& p) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(p, ec);
  if (ec) return {};
  // 100 MB of stand-in output must not become 100 MB of test log: the head is enough.
  std::string s = read_file(p);
  if (size > (4u << 20)) s.resize(4u << 20);
  return s;
}

}  // namespace

struct FifoFeeder::State {
  std::atomic<bool> stop{false};
  std::thread thread;
};

FifoFeeder::FifoFeeder(std::filesystem::path fifo, uint64_t bytes) : state_(new State) {
  State* st = state_;
  // O_RDWR (Linux): the writer end exists before the command opens the FIFO, so it never
  // reads "no writer" as the end; non-blocking writes with poll(), so that a command that
  // stops reading (or never opens it) cannot hang the test.
  const int fd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error("cannot open the FIFO");
  st->thread = std::thread([st, fd, bytes] {
    static const std::string block(1 << 20, 'a');
    for (uint64_t left = bytes; left > 0 && !st->stop.load();) {
      const ssize_t w = ::write(fd, block.data(), static_cast<std::size_t>(std::min<uint64_t>(left, block.size())));
      if (w > 0) {
        left -= static_cast<uint64_t>(w);
      } else if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
        pollfd p{fd, POLLOUT, 0};
        ::poll(&p, 1, 50);
      } else {
        break;
      }
    }
    ::close(fd);  // the end of the line: the reader sees EOF
  });
}

FifoFeeder::~FifoFeeder() {
  state_->stop.store(true);
  state_->thread.join();
  delete state_;
}

std::string describe(const BoundedResult& r) {
  if (r.timed_out) return "timed out after " + std::to_string(r.seconds) + " s";
  if (r.signal != 0) return "killed by signal " + std::to_string(r.signal);
  return "exit " + std::to_string(r.exit_code);
}

BoundedResult run_bounded(const BoundedRun& run) {
  ::signal(SIGPIPE, SIG_IGN);  // a command that stops reading its generated stdin
  TempDir io;
  const auto out_path = io.path() / "stdout";
  const auto err_path = io.path() / "stderr";

  int in_pipe[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (run.stdin_generated_bytes > 0) {
    if (::pipe2(in_pipe, O_CLOEXEC) != 0) throw std::runtime_error("pipe");
    posix_spawn_file_actions_adddup2(&fa, in_pipe[0], 0);
  } else {
    const std::string in = run.stdin_file ? run.stdin_file->string() : "/dev/null";
    // A FIFO given as stdin must already have a writer (else the open waits for one).
    posix_spawn_file_actions_addopen(&fa, 0, in.c_str(), O_RDONLY, 0);
  }
  posix_spawn_file_actions_addopen(&fa, 1, out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);

  std::vector<std::string> argv_s = run.wrapper;
  argv_s.push_back(NPU_DOCTOR_BINARY);
  argv_s.insert(argv_s.end(), run.args.begin(), run.args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);

  std::vector<std::string> env_s;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::strncmp(*e, "NPU_DOCTOR_KB_PATH=", 19) == 0 || std::strncmp(*e, "LANG=", 5) == 0 ||
        std::strncmp(*e, "LC_ALL=", 7) == 0) {
      continue;
    }
    if (run.path_prefix && std::strncmp(*e, "PATH=", 5) == 0) {
      env_s.push_back("PATH=" + *run.path_prefix + ":" + std::string(*e + 5));
      continue;
    }
    env_s.emplace_back(*e);
  }
  env_s.insert(env_s.end(), run.env.begin(), run.env.end());
  std::vector<char*> envp;
  for (auto& e : env_s) envp.push_back(e.data());
  envp.push_back(nullptr);

  // posix_spawnp: the wrapper (setpriv) is found on PATH; the binary path is absolute.
  pid_t pid = 0;
  const auto start = Clock::now();
  const int rc = posix_spawnp(&pid, argv[0], &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (in_pipe[0] >= 0) ::close(in_pipe[0]);
  if (rc != 0) {
    if (in_pipe[1] >= 0) ::close(in_pipe[1]);
    throw std::runtime_error("cannot start " + argv_s[0] + ": " + std::strerror(rc));
  }

  std::atomic<bool> stop_feeding{false};
  std::thread feeder;
  if (in_pipe[1] >= 0) {
    feeder = std::thread([&] {
      feed(in_pipe[1], run.stdin_generated_bytes, stop_feeding);
      ::close(in_pipe[1]);
    });
  }
  if (run.while_running) run.while_running(pid);

  BoundedResult r;
  int status = 0;
  rusage usage{};
  for (;;) {
    const pid_t w = ::wait4(pid, &status, WNOHANG, &usage);
    if (w == pid) break;
    if (Clock::now() - start > run.timeout) {
      r.timed_out = true;
      ::kill(pid, SIGKILL);
      ::wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  stop_feeding.store(true);
  if (feeder.joinable()) feeder.join();
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.max_rss_kib = usage.ru_maxrss;
  r.out = read_back(out_path);
  r.err = read_back(err_path);
  return r;
}

long memory_bound_kib(long kib) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr bool asan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  constexpr bool asan = true;
#else
  constexpr bool asan = false;
#endif
#else
  constexpr bool asan = false;
#endif
  return asan ? 3 * kib + 256 * 1024 : kib;
}

}  // namespace npu_doctor::testing
