#include "live/job_run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <fstream>
#include <map>

#include "live/file_follower.hpp"
#include "live/live_sources.hpp"
#include "live/run_findings.hpp"
#include "live/signal_pipe.hpp"

namespace npu_doctor::live {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr std::size_t kReadBytes = 64u << 10;     // one read from the job
constexpr std::size_t kReadsPerTurn = 16;         // then the other stream, signals, files get a turn

int ms_until(Clock::time_point t, Clock::time_point now) {
  if (t <= now) return 0;
  const auto ms = std::chrono::duration_cast<milliseconds>(t - now).count() + 1;
  return static_cast<int>(std::min<long long>(ms, INT_MAX));
}

// Keeps the last `cap` bytes written to it (cap 0: nothing).
struct Tail {
  std::size_t cap = 0;
  std::string bytes;
  void add(std::string_view b) {
    if (cap == 0) return;
    bytes.append(b);
    if (bytes.size() > 2 * cap) bytes.erase(0, bytes.size() - cap);
  }
  std::string take() {
    if (bytes.size() > cap) bytes.erase(0, bytes.size() - cap);
    return std::move(bytes);
  }
};

// One of the job's streams: read from it, written through to ours, scanned.
struct Stream {
  int our_fd;             // STDOUT_FILENO / STDERR_FILENO
  std::size_t source;     // index in LiveSources
  bool open = true;
  bool ours_closed = false;  // our side is gone (EPIPE): the job's output is not passed on
  Tail tail;
};

}  // namespace

std::string signal_name(int sig) {
  static const std::map<int, const char*> kNames = {
      {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"},
      {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
      {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
      {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"}};
  const auto it = kNames.find(sig);
  return it != kNames.end() ? it->second : "signal " + std::to_string(sig);
}

int RunOutcome::exit_status() const {
  if (!started) return exec_errno == ENOENT ? 127 : 126;
  if (signal != 0) return 128 + signal;
  return exit_code.value_or(0);
}

bool plog_of_session(const std::string& path, long session) {
  const auto slash = path.find_last_of('/');
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::size_t digits = 0;
  for (const char* prefix : {"plog-", "device-"}) {
    if (name.starts_with(prefix)) digits = std::strlen(prefix);
  }
  if (digits == 0) return true;
  std::size_t end = digits;
  while (end < name.size() && name[end] >= '0' && name[end] <= '9') ++end;
  if (end == digits || end - digits > 9 || end >= name.size() || name[end] != '_') return true;
  const long pid = std::stol(name.substr(digits, end - digits));
  if (pid == session) return true;
  // /proc/PID/stat: "pid (comm) state ppid pgrp session ..."; comm may hold spaces and parentheses.
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat;
  if (!in || !std::getline(in, stat)) return true;  // gone: cannot tell, keep it
  const auto close = stat.rfind(')');
  if (close == std::string::npos) return true;
  char state = 0;
  long ppid = 0, pgrp = 0, sid = 0;
  if (std::sscanf(stat.c_str() + close + 1, " %c %ld %ld %ld", &state, &ppid, &pgrp, &sid) != 4) return true;
  return sid == session;
}

RunOutcome run_job(const RunSettings& s, const KbMatcher& matcher, const KnowledgeBase& kb) {
  RunOutcome result;
  auto note = [&](const std::string& text) {
    if (s.note) s.note(text);
  };
  // Ctrl-C, SIGTERM, SIGHUP, SIGQUIT are for the job; SIGTSTP stops it with us. SIGPIPE is
  // caught so that a closed stdout of ours is an error we handle (and the job keeps its own).
  SignalPipe signals({SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP, SIGPIPE}, {SIGCHLD, SIGWINCH, SIGCONT});

  // The plog folders' baseline before the job can write: only what this run adds is read.
  long session = -1;
  std::map<std::string, bool> verdicts;  // path -> plog_of_session, decided once
  FollowOptions fo;
  fo.roots = s.plog_roots;
  fo.polling = s.poll;
  fo.poll_interval = s.poll_interval;
  fo.accept = [&](const std::string& path) {
    if (auto it = verdicts.find(path); it != verdicts.end()) return it->second;
    const bool ours = plog_of_session(path, session);
    // Another job's file stays another job's; an unknown one may be decided later.
    if (!ours || session > 0) verdicts.emplace(path, ours);
    return ours;
  };
  FileFollower follower(fo);
  follower.start();
  result.follow_mode = follower.mode();

  LiveSources sources(matcher, s.scan);
  sources.set_expected(s.expected);
  Stream out{STDOUT_FILENO, sources.add_stream("(stdout)", "job stdout"), true, false, {s.keep_output_bytes, {}}};
  Stream err{STDERR_FILENO, sources.add_stream("(stderr)", "job stderr"), true, false, {s.keep_output_bytes, {}}};
  constexpr std::size_t kStreams = 2;

  JobProcess job;
  const auto started = Clock::now();
  if (!job.start(s.job, result.error, result.exec_errno)) return result;
  result.started = true;
  session = job.pid();

  auto last_activity = Clock::now();
  bool hang_reported = false;
  Clock::time_point hang_reported_at{};
  // SIGKILL after the grace period (a time and a flag: GCC 12 warns on optional<time_point>).
  Clock::time_point kill_at{};
  bool kill_pending = false;
  std::optional<Clock::time_point> ended_at;
  Clock::time_point linger_until{};
  int wait_status = 0;

  auto handle_signals = [&] {
    for (int sig : signals.take()) {
      switch (sig) {
        case SIGCHLD:
          if (!ended_at && job.reap(wait_status)) {
            ended_at = Clock::now();
            linger_until = *ended_at + s.linger;
          }
          break;
        case SIGWINCH:
          job.copy_window_size();
          break;
        case SIGTSTP:
          // Its process group is orphaned (its parent, us, is in another session): only
          // SIGSTOP stops it. Then we stop, as Ctrl-Z asked.
          job.signal_group(SIGSTOP);
          ::kill(::getpid(), SIGSTOP);
          break;
        case SIGCONT:
          job.signal_group(SIGCONT);
          last_activity = Clock::now();  // stopped is not hung
          break;
        case SIGPIPE:
          break;
        default:
          job.signal_group(sig);
          result.forwarded_signal = sig;
          break;
      }
    }
  };

  // Writes all of `data` to our fd; signals that interrupt a blocked write are handled
  // at once (a Ctrl-C reaches the job even while our reader is stalled).
  auto pass_on = [&](Stream& st, std::string_view data) {
    while (!data.empty() && !st.ours_closed) {
      const ssize_t w = ::write(st.our_fd, data.data(), data.size());
      if (w > 0) {
        data.remove_prefix(static_cast<std::size_t>(w));
        continue;
      }
      if (w < 0 && errno == EINTR) {
        handle_signals();
        continue;
      }
      if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        pollfd p[2] = {{st.our_fd, POLLOUT, 0}, {signals.fd(), POLLIN, 0}};
        ::poll(p, 2, -1);
        if ((p[1].revents & POLLIN) != 0) handle_signals();
        continue;
      }
      // Our side is closed (a pipe to `head`): stop reading, so the job sees its output
      // closed as it would without us.
      st.ours_closed = true;
    }
  };

  // Reads one stream; false at its end.
  auto pump = [&](Stream& st, int fd) -> bool {
    char buf[kReadBytes];
    for (std::size_t turn = 0; turn < kReadsPerTurn; ++turn) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n > 0) {
        const std::string_view data(buf, static_cast<std::size_t>(n));
        pass_on(st, data);
        sources.feed(st.source, data);
        st.tail.add(data);
        last_activity = Clock::now();
        if (ended_at) linger_until = std::max(linger_until, last_activity + s.linger);
        if (st.ours_closed) return false;
        continue;
      }
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return true;
      if (n < 0 && errno == EINTR) continue;
      return false;  // end of stream (a pseudo-terminal says EIO once the last writer closed it)
    }
    return true;
  };

  for (;;) {
    handle_signals();
    const auto now = Clock::now();
    if (ended_at && ((!out.open && !err.open) || now >= linger_until || now >= *ended_at + 5 * s.linger)) break;

    // The hang: no output and no plog growth for --hang-after while the job runs.
    if (s.hang_after && !ended_at && !hang_reported && now - last_activity >= *s.hang_after) {
      hang_reported = true;
      hang_reported_at = now;
      result.hung = true;
      sources.flush_all(false);
      const auto silent = std::chrono::duration_cast<milliseconds>(now - last_activity);
      std::vector<Finding> extra;
      if (auto f = hang_finding(kb, sources, kStreams, silent)) extra.push_back(std::move(*f));
      RunSettings::StreamTails tails;
      for (std::size_t i = 0; i < kStreams; ++i) tails.emplace_back(sources.source(i).path(), sources.source(i).last_lines());
      if (s.on_hang) s.on_hang(sources.report(kb, s.cluster, std::move(extra)), silent, tails);
      if (s.kill_on_hang) {
        note("ending the job (SIGTERM to its process group" +
             std::string(s.kill_grace.count() > 0 ? ", SIGKILL after " + human_duration(s.kill_grace) : "") + ")");
        result.killed_on_hang = true;
        job.signal_group(SIGTERM);
        kill_at = now + s.kill_grace;
        kill_pending = true;
      }
    }
    if (kill_pending && now >= kill_at) {
      job.signal_group(SIGKILL);
      kill_pending = false;
    }

    int timeout = follower.timeout_ms();
    auto sooner = [&](int ms) { timeout = timeout < 0 ? ms : std::min(timeout, ms); };
    if (s.hang_after && !ended_at && !hang_reported) sooner(ms_until(last_activity + *s.hang_after, now));
    if (kill_pending) sooner(ms_until(kill_at, now));
    if (ended_at) sooner(ms_until(std::min(linger_until, *ended_at + 5 * s.linger), now));

    pollfd fds[4];
    nfds_t n = 0;
    fds[n++] = {signals.fd(), POLLIN, 0};
    const nfds_t out_at = out.open ? n : 99;
    if (out.open) fds[n++] = {job.out_fd(), POLLIN, 0};
    const nfds_t err_at = err.open ? n : 99;
    if (err.open) fds[n++] = {job.err_fd(), POLLIN, 0};
    const nfds_t inotify_at = follower.fd() >= 0 ? n : 99;
    if (follower.fd() >= 0) fds[n++] = {follower.fd(), POLLIN, 0};
    const int ready = ::poll(fds, n, timeout);
    if (ready < 0 && errno != EINTR) {
      result.error = std::string("poll failed: ") + std::strerror(errno);
      job.signal_group(SIGKILL);
      break;
    }

    auto readable = [&](nfds_t at) { return at < n && ready > 0 && (fds[at].revents & (POLLIN | POLLHUP | POLLERR)) != 0; };
    if (readable(out_at) && !pump(out, job.out_fd())) {
      out.open = false;
      job.close_out();
      sources.end(out.source);
    }
    if (readable(err_at) && !pump(err, job.err_fd())) {
      err.open = false;
      job.close_err();
      sources.end(err.source);
    }
    const bool events = readable(inotify_at);
    if (events || follower.timeout_ms() == 0) {
      if (follower.process(sources, events)) last_activity = Clock::now();
    }
    if (hang_reported && !result.killed_on_hang && last_activity > hang_reported_at) {
      hang_reported = false;  // it moves again: not hung after all
      result.hung = false;
      note("the job is making progress again");
    }
  }

  // Whatever it printed last and the plogs written up to now.
  if (out.open) pump(out, job.out_fd());
  if (err.open) pump(err, job.err_fd());
  if (!ended_at) {
    // The streams stayed open past the linger time: the job is gone, its children keep them.
    ::waitpid(job.pid(), &wait_status, 0);
  }
  follower.drain(sources);
  sources.flush_all(true);
  result.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  if (WIFEXITED(wait_status)) result.exit_code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) result.signal = WTERMSIG(wait_status);

  std::vector<Finding> extra;
  if (result.hung || result.killed_on_hang) {
    const auto silent = std::chrono::duration_cast<milliseconds>(Clock::now() - last_activity);
    if (auto f = hang_finding(kb, sources, kStreams, std::max(silent, s.hang_after.value_or(milliseconds(0))))) {
      extra.push_back(std::move(*f));
    }
  } else if (result.signal != 0 && result.signal != result.forwarded_signal) {
    if (auto f = killed_finding(kb, sources, kStreams, result.signal, result.seconds)) extra.push_back(std::move(*f));
  }
  result.report = sources.report(kb, s.cluster, std::move(extra));
  result.files_read = follower.paths_read();
  result.our_stdout_closed = out.ours_closed;
  result.stdout_tail = out.tail.take();
  result.stderr_tail = err.tail.take();
  return result;
}

}  // namespace npu_doctor::live
