#include "live/signal_pipe.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace npu_doctor::live {
namespace {

// One pipe per process: a handler has no other way to find it.
int g_pipe[2] = {-1, -1};

extern "C" void on_signal(int sig) {
  const int saved_errno = errno;
  const auto byte = static_cast<unsigned char>(sig);
  // Non-blocking: with the pipe full, the signal is already waiting to be read.
  [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
  errno = saved_errno;
}

}  // namespace

SignalPipe::SignalPipe(std::initializer_list<int> signals, std::initializer_list<int> always) {
  if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0) return;
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking write to our stdout returns EINTR so signals are seen
  auto install = [&](int sig, bool keep_ignored) {
    struct sigaction old {};
    if (sigaction(sig, nullptr, &old) != 0 || (keep_ignored && old.sa_handler == SIG_IGN)) return;
    sigaction(sig, &sa, nullptr);
    saved_.emplace_back(sig, old);
  };
  for (int sig : signals) install(sig, true);
  for (int sig : always) install(sig, false);
}

SignalPipe::~SignalPipe() {
  for (const auto& [sig, old] : saved_) sigaction(sig, &old, nullptr);
}

int SignalPipe::fd() const { return g_pipe[0]; }

std::vector<int> SignalPipe::take() {
  std::vector<int> out;
  unsigned char buf[256];
  for (;;) {
    const ssize_t n = ::read(g_pipe[0], buf, sizeof buf);
    if (n <= 0) break;
    out.insert(out.end(), buf, buf + n);
  }
  return out;
}

bool SignalPipe::caught(int sig) const {
  return std::any_of(saved_.begin(), saved_.end(), [&](const auto& s) { return s.first == sig; });
}

}  // namespace npu_doctor::live
