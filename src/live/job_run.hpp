#pragma once
// `npu-doctor run -- CMD`: runs the job, passes its output through unchanged while
// scanning it and the plog files it writes, notices a hang, forwards signals, and ends
// with the diagnosis of this run (docs/run-watch.md). One thread, one poll() loop: the
// job's output, inotify, the signal pipe and the timers (hang, kill grace) are all file
// descriptors or poll timeouts, so nothing spins.
#include <signal.h>

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/kb_matcher.hpp"
#include "live/incremental_scan.hpp"
#include "live/job_process.hpp"
#include "diagnosis/diagnosis.hpp"

namespace npu_doctor::live {

struct RunSettings {
  JobSpec job;
  std::vector<std::string> plog_roots;  // followed for files this run creates or grows
  bool poll = false;                    // poll the plog folders instead of inotify
  std::chrono::milliseconds poll_interval{1000};
  std::optional<std::chrono::milliseconds> hang_after;  // no output and no plog growth this long: a hang
  bool kill_on_hang = false;
  std::chrono::milliseconds kill_grace{10000};  // SIGTERM, then SIGKILL after this
  // After the job ends, output still held open by processes it left behind is passed on
  // until it has been silent this long (at most 5 times this).
  std::chrono::milliseconds linger{2000};
  IncrementalScanOptions scan;
  ClusterOptions cluster;
  std::shared_ptr<const ExpectedErrors> expected;  // --expected: never the root cause
  std::size_t keep_output_bytes = 0;  // the last bytes of each stream kept (for a bundle)
  // The job looks hung: the diagnosis so far (with the hang finding), how long it was
  // silent, and the last lines of each of its streams ("(stdout)", lines).
  using StreamTails = std::vector<std::pair<std::string, std::vector<ContextLine>>>;
  std::function<void(const DiagnosisReport&, std::chrono::milliseconds, const StreamTails&)> on_hang;
  // One-line notes for stderr ("the job looks hung; ending it").
  std::function<void(const std::string&)> note;
};

struct RunOutcome {
  bool started = false;
  std::string error;          // why the job did not start
  int exec_errno = 0;
  std::optional<int> exit_code;  // it exited
  int signal = 0;                // a signal ended it
  bool hung = false;             // it looked hung (and did not recover)
  bool killed_on_hang = false;
  double seconds = 0;
  DiagnosisReport report;
  std::vector<std::string> files_read;  // plog files this run wrote or grew
  std::string stdout_tail;              // the last keep_output_bytes of each stream
  std::string stderr_tail;
  std::string follow_mode;              // "inotify", "polling" ...
  bool our_stdout_closed = false;       // whoever read our stdout stopped (`| head`)
  int forwarded_signal = 0;             // the last signal we passed on to the job (Ctrl-C ...)

  // Our exit status: the job's code, 128 + the signal that ended it, 126/127 when it
  // could not be run (not executable / not found, as a shell says).
  int exit_status() const;
  bool failed() const { return !started || signal != 0 || exit_code.value_or(0) != 0; }
  // A job that died of SIGPIPE because our reader went away (`run -- job | head`) ended
  // as it would have without us: not worth a report.
  bool ended_by_closed_pipe() const { return signal == SIGPIPE && our_stdout_closed; }
  // Ended by a signal someone sent us for it (Ctrl-C, a scheduler's SIGTERM), or exited
  // after it: asked for, not a failure of its own.
  bool ended_as_asked() const { return forwarded_signal != 0 && !killed_on_hang; }
};

RunOutcome run_job(const RunSettings& settings, const KbMatcher& matcher, const KnowledgeBase& kb);

// "SIGKILL", "SIGSEGV" ... ("signal 42" for others).
std::string signal_name(int sig);

// The files under the plog folders whose name says which process wrote them
// (plog-PID_..., device-PID_...): false when that process is alive in another session
// (another job's), true otherwise. `session` is the job's session id (-1: not started).
bool plog_of_session(const std::string& path, long session);

}  // namespace npu_doctor::live
