#pragma once
// The wrapped job: started in a session of its own (so its whole process tree is one
// process group we can signal, and the terminal's Ctrl-C reaches us, not it), its stdout
// and stderr on pipes, or on pseudo-terminals where ours are terminals (progress bars and
// colours behave as without us). Output bytes are never translated (the pseudo-terminal
// has output processing off), so they reach our stdout exactly as the job wrote them.
#include <sys/types.h>

#include <string>
#include <vector>

namespace npu_doctor::live {

struct JobSpec {
  std::vector<std::string> argv;  // argv[0] is searched on PATH
  bool pty_stdout = false;        // a pseudo-terminal like our stdout (window size, settings)
  bool pty_stderr = false;
};

class JobProcess {
 public:
  JobProcess() = default;
  ~JobProcess();
  JobProcess(const JobProcess&) = delete;
  JobProcess& operator=(const JobProcess&) = delete;

  // Starts the job. False with `error` when it could not (not found: `exec_errno` ENOENT,
  // not executable: EACCES ...).
  bool start(const JobSpec& spec, std::string& error, int& exec_errno);

  pid_t pid() const { return pid_; }
  int out_fd() const { return out_; }  // non-blocking; -1 once closed
  int err_fd() const { return err_; }
  bool out_is_pty() const { return out_pty_; }
  bool err_is_pty() const { return err_pty_; }
  void close_out();
  void close_err();

  // Sends `sig` to the job's process group (its session's processes that kept it).
  void signal_group(int sig) const;
  // Reaps the job without blocking; true once it has ended (status as waitpid gives it).
  bool reap(int& status);
  bool ended() const { return ended_; }

  // Copies our terminal's window size to the job's pseudo-terminals (SIGWINCH).
  void copy_window_size() const;

 private:
  pid_t pid_ = -1;
  int out_ = -1;
  int err_ = -1;
  bool out_pty_ = false;
  bool err_pty_ = false;
  bool ended_ = false;
};

}  // namespace npu_doctor::live
