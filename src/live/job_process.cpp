#include "live/job_process.hpp"

#include <fcntl.h>
#include <pty.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace npu_doctor::live {
namespace {

void set_flags(int fd, bool nonblocking) {
  ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  if (nonblocking) ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

// A pseudo-terminal shaped like `like` (our terminal): its settings and window size, but
// no output processing, so the job's bytes arrive untranslated ("\n" stays "\n").
bool open_pty(int like, int& master, int& slave) {
  struct termios t {};
  struct winsize ws {};
  const bool have_t = ::tcgetattr(like, &t) == 0;
  const bool have_ws = ::ioctl(like, TIOCGWINSZ, &ws) == 0;
  if (have_t) t.c_oflag &= ~static_cast<tcflag_t>(OPOST);
  if (::openpty(&master, &slave, nullptr, have_t ? &t : nullptr, have_ws ? &ws : nullptr) != 0) return false;
  if (!have_t) {
    struct termios s {};
    if (::tcgetattr(slave, &s) == 0) {
      s.c_oflag &= ~static_cast<tcflag_t>(OPOST);
      ::tcsetattr(slave, TCSANOW, &s);
    }
  }
  set_flags(master, true);
  set_flags(slave, false);
  return true;
}

void close_fd(int& fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

}  // namespace

JobProcess::~JobProcess() {
  close_out();
  close_err();
}

void JobProcess::close_out() { close_fd(out_); }
void JobProcess::close_err() { close_fd(err_); }

bool JobProcess::start(const JobSpec& spec, std::string& error, int& exec_errno) {
  exec_errno = 0;
  if (spec.argv.empty()) {
    error = "no command given";
    return false;
  }
  int out_r = -1, out_w = -1, err_r = -1, err_w = -1;
  auto give_up = [&](const char* what) {
    error = std::string(what) + ": " + std::strerror(errno);
    for (int* fd : {&out_r, &out_w, &err_r, &err_w}) close_fd(*fd);
    return false;
  };
  if (spec.pty_stdout) {
    if (!open_pty(STDOUT_FILENO, out_r, out_w)) return give_up("cannot open a pseudo-terminal");
    out_pty_ = true;
  } else {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return give_up("cannot create a pipe");
    out_r = p[0];
    out_w = p[1];
    set_flags(out_r, true);
  }
  if (spec.pty_stderr) {
    if (!open_pty(STDERR_FILENO, err_r, err_w)) return give_up("cannot open a pseudo-terminal");
    err_pty_ = true;
  } else {
    int p[2];
    if (::pipe2(p, O_CLOEXEC) != 0) return give_up("cannot create a pipe");
    err_r = p[0];
    err_w = p[1];
    set_flags(err_r, true);
  }
  int status_pipe[2];  // the child writes errno here when exec fails; closed by a successful exec
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) return give_up("cannot create a pipe");

  // Everything the child needs, prepared before fork: after it only async-signal-safe calls.
  std::vector<std::string> args = spec.argv;
  std::vector<char*> cargs;
  for (auto& a : args) cargs.push_back(a.data());
  cargs.push_back(nullptr);
  const int ctty = out_pty_ ? out_w : (err_pty_ ? err_w : -1);

  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(status_pipe[0]);
    ::close(status_pipe[1]);
    return give_up("cannot start the job");
  }
  if (pid == 0) {
    ::setsid();
    if (ctty >= 0) ::ioctl(ctty, TIOCSCTTY, 0);
    ::dup2(out_w, STDOUT_FILENO);
    ::dup2(err_w, STDERR_FILENO);
    // Handlers we installed are reset by exec, what was ignored before us stays ignored:
    // the job gets the signal dispositions it would have without us. Only the mask is ours.
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::execvp(cargs[0], cargs.data());
    const int e = errno;
    [[maybe_unused]] const ssize_t w = ::write(status_pipe[1], &e, sizeof e);
    ::_exit(127);
  }
  pid_ = pid;
  ::close(status_pipe[1]);
  close_fd(out_w);
  close_fd(err_w);
  out_ = out_r;
  err_ = err_r;
  int child_errno = 0;
  ssize_t n;
  do {
    n = ::read(status_pipe[0], &child_errno, sizeof child_errno);
  } while (n < 0 && errno == EINTR);
  ::close(status_pipe[0]);
  if (n == static_cast<ssize_t>(sizeof child_errno)) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    ended_ = true;
    exec_errno = child_errno;
    error = spec.argv[0] + ": " + std::strerror(child_errno);
    close_out();
    close_err();
    return false;
  }
  return true;
}

void JobProcess::signal_group(int sig) const {
  if (pid_ <= 0) return;
  // The group outlives its leader; if it is gone as well, the leader if not yet reaped.
  if (::kill(-pid_, sig) != 0 && !ended_) ::kill(pid_, sig);
}

bool JobProcess::reap(int& status) {
  if (ended_ || pid_ <= 0) return ended_;
  for (;;) {
    const pid_t w = ::waitpid(pid_, &status, WNOHANG);
    if (w == pid_) {
      ended_ = true;
      return true;
    }
    if (w < 0 && errno == EINTR) continue;
    return false;
  }
}

void JobProcess::copy_window_size() const {
  struct winsize ws {};
  if (out_pty_ && out_ >= 0 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) ::ioctl(out_, TIOCSWINSZ, &ws);
  if (err_pty_ && err_ >= 0 && ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0) ::ioctl(err_, TIOCSWINSZ, &ws);
}

}  // namespace npu_doctor::live
