#pragma once
// Signals as bytes on a pipe (the self-pipe trick), so one poll() waits for output,
// inotify events, timers and signals alike, and nothing but write() runs in a handler.
#include <signal.h>

#include <initializer_list>
#include <utility>
#include <vector>

namespace npu_doctor::live {

class SignalPipe {
 public:
  // Catches `signals`; one that was ignored when we started (nohup) stays ignored unless
  // it is in `always`.
  SignalPipe(std::initializer_list<int> signals, std::initializer_list<int> always = {});
  ~SignalPipe();  // restores the previous handlers
  SignalPipe(const SignalPipe&) = delete;
  SignalPipe& operator=(const SignalPipe&) = delete;

  int fd() const;
  // The signals received since the last call, in order.
  std::vector<int> take();
  // Whether `sig` is caught (false: it was ignored at start and stays so).
  bool caught(int sig) const;

 private:
  std::vector<std::pair<int, struct sigaction>> saved_;  // signal, its previous handler
};

}  // namespace npu_doctor::live
