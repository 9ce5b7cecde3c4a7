#pragma once
// When `watch` reports an incident: the interim definition, behind a small interface so
// that issue 18's split of a log into failing runs can replace it (IncidentPolicy).
//
// An incident opens with the first error-level finding that is new: a (rule, code) not
// in the previous incident, or any error once the logs were free of errors for
// `quiet_gap`. It is reported once no new error has arrived for `settle` (a failure
// writes its lines into several files within moments, and the cause is not always the
// first line seen), or `max_wait` after it opened when errors keep coming. Errors that
// only repeat the previous incident's within `quiet_gap` are the same incident going on
// and are not reported again.
#include <chrono>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npu_doctor::live {

class IncidentPolicy {
 public:
  using Clock = std::chrono::steady_clock;
  virtual ~IncidentPolicy() = default;
  // Error-level findings (their keys) seen for the first time, or again, at `now`.
  virtual void observe(const std::vector<std::string>& keys, Clock::time_point now) = 0;
  // An incident is open and complete: report it now.
  virtual bool due(Clock::time_point now) const = 0;
  // When due() turns true without anything new (for poll's timeout).
  virtual std::optional<Clock::time_point> deadline() const = 0;
  // Nothing is open and what was observed only repeats what was reported: forget it.
  virtual bool discard() const = 0;
  // The open incident was reported (with these finding keys) or found to have no root cause.
  virtual void reported(const std::vector<std::string>& keys, Clock::time_point now) = 0;
  // Called after discard() was acted on.
  virtual void discarded() = 0;
};

class SettleIncidentPolicy final : public IncidentPolicy {
 public:
  SettleIncidentPolicy(std::chrono::milliseconds settle, std::chrono::milliseconds max_wait,
                       std::chrono::milliseconds quiet_gap)
      : settle_(settle), max_wait_(max_wait), quiet_gap_(quiet_gap) {}

  void observe(const std::vector<std::string>& keys, Clock::time_point now) override;
  bool due(Clock::time_point now) const override;
  std::optional<Clock::time_point> deadline() const override;
  bool discard() const override { return !open_ && repeats_; }
  void reported(const std::vector<std::string>& keys, Clock::time_point now) override;
  void discarded() override { repeats_ = false; }

 private:
  std::chrono::milliseconds settle_;
  std::chrono::milliseconds max_wait_;
  std::chrono::milliseconds quiet_gap_;
  bool open_ = false;
  bool repeats_ = false;
  Clock::time_point opened_{};
  Clock::time_point last_new_{};
  std::optional<Clock::time_point> last_error_;  // the last error seen, reported or not
  std::set<std::string> previous_;               // keys of the last incident
};

}  // namespace npu_doctor::live
