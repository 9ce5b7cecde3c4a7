#pragma once
// Everything one live run or watch scans: named sources (the job's stdout and stderr, each
// followed file), each an incremental scan, and the diagnosis over all of them at any
// moment (at exit, on a hang, when watch reports an incident).
#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/kb_matcher.hpp"
#include "core/scanner.hpp"
#include "live/file_follower.hpp"
#include "live/incremental_scan.hpp"
#include "diagnosis/diagnosis.hpp"

namespace npu_doctor::live {

class LiveSources final : public FollowSink {
 public:
  LiveSources(const KbMatcher& matcher, IncrementalScanOptions options);

  // A stream that is not a file ("(stdout)"); returns its index.
  std::size_t add_stream(std::string name, std::string kind);
  void feed(std::size_t index, std::string_view bytes);
  // The stream ended: its unfinished last line is scanned too.
  void end(std::size_t index);
  // Scans every whole line waiting (before a report), or everything (`end_of_streams`).
  void flush_all(bool end_of_streams);

  // FollowSink: each followed file becomes a source.
  void opened(std::size_t id, const std::string& path, uint64_t first_line) override;
  void data(std::size_t id, std::string_view bytes) override;
  void closed(std::size_t id) override;

  std::size_t size() const { return sources_.size(); }
  const SourceScan& source(std::size_t index) const { return *sources_[index].scan; }
  std::size_t files_opened() const { return files_opened_; }

  // The diagnosis of everything scanned so far, with findings no line states (`extra`:
  // a hang, a signal) added before the root cause is chosen. `only_with_findings` leaves
  // out inputs that have none (watch: an incident lists the files that took part).
  DiagnosisReport report(const KnowledgeBase& kb, const ClusterOptions& cluster, std::vector<Finding> extra = {},
                         bool only_with_findings = false) const;

  // watch: the error-level findings that are new since the last call, as "key" strings
  // (the key of a finding, and how many times it was seen in that source).
  std::vector<std::string> new_error_keys();
  // watch, after an incident: forget findings, and drop files that ended.
  void reset_findings();
  // The user's expected errors (--expected): marked in reports, never a new error for watch.
  void set_expected(std::shared_ptr<const ExpectedErrors> expected) { expected_ = std::move(expected); }
  // watch, from time to time: drop files that ended without a finding (rotated away).
  void prune_ended();

 private:
  struct Source {
    std::unique_ptr<SourceScan> scan;
    bool ended = false;
    std::size_t follow_id = static_cast<std::size_t>(-1);  // the follower's id (files only)
    std::map<std::string, uint64_t> seen;  // error finding key -> count already reported by new_error_keys
  };
  void reindex();

  IncrementalScanOptions options_;
  Scanner scanner_;
  std::vector<Source> sources_;
  std::map<std::size_t, std::size_t> by_id_;  // follower id -> index in sources_
  std::size_t files_opened_ = 0;
  std::shared_ptr<const ExpectedErrors> expected_;
};

}  // namespace npu_doctor::live
