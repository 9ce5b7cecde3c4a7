#include "live/watcher.hpp"

#include <poll.h>
#include <signal.h>

#include <algorithm>
#include <cerrno>
#include <climits>

#include "live/live_sources.hpp"
#include "live/signal_pipe.hpp"

namespace npu_doctor::live {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> error_keys(const DiagnosisReport& r) {
  std::vector<std::string> keys;
  for (const auto& f : r.findings) {
    if (effective_severity(f) >= Severity::error) keys.push_back(finding_key(f));
  }
  return keys;
}

}  // namespace

WatchEnd run_watch(const WatchSettings& s, const KbMatcher& matcher, const KnowledgeBase& kb,
                   std::unique_ptr<IncidentPolicy> policy) {
  if (!policy) policy = std::make_unique<SettleIncidentPolicy>(s.settle, s.max_wait, s.quiet_gap);
  SignalPipe signals({SIGINT, SIGTERM, SIGHUP});
  FileFollower follower(s.follow);
  follower.start();
  LiveSources sources(matcher, s.scan);
  sources.set_expected(s.expected);
  if (s.on_ready) s.on_ready(follower);
  std::size_t number = 0;

  // Reports the open incident; false when watching should stop.
  auto report_incident = [&]() -> bool {
    sources.flush_all(false);
    WatchIncident inc;
    inc.report = sources.report(kb, s.cluster, {}, true);
    const auto now = Clock::now();
    policy->reported(error_keys(inc.report), now);
    sources.reset_findings();
    if (!inc.report.root) return true;  // only errors that cannot be a root cause (hints)
    inc.number = ++number;
    inc.detected = std::chrono::system_clock::now();
    const bool go_on = !s.on_incident || s.on_incident(inc);
    return go_on && !s.until_root_cause;
  };

  for (;;) {
    int timeout = follower.timeout_ms();
    if (const auto d = policy->deadline()) {
      const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(*d - Clock::now()).count() + 1;
      const int until = static_cast<int>(std::clamp<long long>(ms, 0, INT_MAX));
      timeout = timeout < 0 ? until : std::min(timeout, until);
    }
    pollfd fds[2] = {{signals.fd(), POLLIN, 0}, {follower.fd(), POLLIN, 0}};
    const nfds_t n = follower.fd() >= 0 ? 2 : 1;
    const int ready = ::poll(fds, n, timeout);
    if (ready < 0 && errno != EINTR) return WatchEnd::error;
    if (!signals.take().empty()) {
      // Stopping: what is open is reported first, so nothing seen is lost.
      follower.process(sources, false);
      sources.flush_all(false);
      policy->observe(sources.new_error_keys(), Clock::now());
      if (policy->deadline()) report_incident();
      return WatchEnd::signal;
    }
    const bool events = n == 2 && ready > 0 && (fds[1].revents & POLLIN) != 0;
    follower.process(sources, events);
    sources.flush_all(false);
    policy->observe(sources.new_error_keys(), Clock::now());
    if (policy->discard()) {
      sources.reset_findings();
      policy->discarded();
    } else if (!policy->deadline()) {
      sources.prune_ended();  // rotated-away files with nothing to report
    }
    if (policy->due(Clock::now()) && !report_incident()) return WatchEnd::root_cause;
  }
}

}  // namespace npu_doctor::live
