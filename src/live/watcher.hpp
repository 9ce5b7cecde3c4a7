#pragma once
// `npu-doctor watch PATH...`: follows growing logs and folders and reports each new
// incident's diagnosis as soon as it is complete (docs/run-watch.md). One thread, one
// poll() loop over inotify and the signal pipe; polling roots and the incident's settle
// time are poll timeouts.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "core/kb_matcher.hpp"
#include "live/file_follower.hpp"
#include "live/incidents.hpp"
#include "live/incremental_scan.hpp"
#include "diagnosis/diagnosis.hpp"

namespace npu_doctor::live {

struct WatchIncident {
  std::size_t number = 0;                            // 1, 2, ... since watch started
  std::chrono::system_clock::time_point detected;    // when it was reported
  DiagnosisReport report;                            // the files that took part and their findings
};

struct WatchSettings {
  FollowOptions follow;
  IncrementalScanOptions scan;
  ClusterOptions cluster;
  std::shared_ptr<const ExpectedErrors> expected;  // --expected: never an incident, never the root cause
  std::chrono::milliseconds settle{1000};
  std::chrono::milliseconds max_wait{10000};
  std::chrono::milliseconds quiet_gap{600000};
  bool until_root_cause = false;  // stop at the first incident
  // Every incident with a root cause; false stops watching.
  std::function<bool(const WatchIncident&)> on_incident;
  // The baseline is taken and the watches are set ("watching N files (inotify)").
  std::function<void(const FileFollower&)> on_ready;
};

enum class WatchEnd { signal, root_cause, error };

// Runs until SIGINT, SIGTERM or SIGHUP (or the first incident with until_root_cause).
WatchEnd run_watch(const WatchSettings& settings, const KbMatcher& matcher, const KnowledgeBase& kb,
                   std::unique_ptr<IncidentPolicy> policy = nullptr);

}  // namespace npu_doctor::live
