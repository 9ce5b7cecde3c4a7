#pragma once
// Which logs go into a bundle: the paths given plus the default Ascend log locations,
// walked recursively, newest first, modified within --since, within the byte budget.
// Everything left out is said, with the reason.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/record_spool.hpp"

namespace npu_doctor::bundle {

struct LogFile {
  std::string path;        // what to open on this host; empty when it is `shown` (no --root)
  std::string shown;       // the path on the checked machine (without --root's prefix)
  const std::string& open_path() const { return path.empty() ? shown : path; }
  std::uint64_t size = 0;
  std::int64_t mtime = 0;  // seconds since the epoch
};

struct SkippedItem {
  std::string item;
  std::string reason;
};

// The files taken, as packed records in a RecordSpool (the newest in memory, the rest in a
// temporary file): a folder of a million logs would otherwise hold a hundred megabytes of
// paths. Read back as copies.
class LogFiles {
 public:
  std::size_t size() const { return records_.size(); }
  bool empty() const { return records_.empty(); }
  void push_back(const LogFile& f);
  LogFile operator[](std::size_t i) const;

  using const_iterator = CopyingIterator<LogFiles, LogFile>;
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

 private:
  RecordSpool records_;
};

struct LogSelection {
  LogFiles files;                     // newest first
  // Unreadable, not regular, too old, over the cap. Of the files left out for their age or
  // the cap, the first kListedOfAKind of each kind are listed and one item counts the rest.
  std::vector<SkippedItem> skipped;
  std::vector<std::string> searched;  // the locations looked at (shown paths)
  static constexpr std::size_t kListedOfAKind = 1000;
};

// The default locations on the machine at `root` for this environment:
// $ASCEND_PROCESS_LOG_PATH, $ASCEND_WORK_PATH/log, $HOME/ascend/log, /root/ascend/log,
// /var/log/npu/slog, /var/log/npu (shown paths, not yet under the root).
std::vector<std::string> default_log_locations(const std::map<std::string, std::string>& env);

// `explicit_paths` are paths on this host; `defaults` are under `root`. A missing
// default location is not an error (recorded in `searched` only); a missing explicit
// path is skipped with its reason. `newer_than` (epoch seconds) filters by mtime;
// `budget` is the total bytes the selected files may have.
LogSelection select_logs(const std::vector<std::string>& explicit_paths, const std::vector<std::string>& defaults,
                         const std::string& root, std::optional<std::int64_t> newer_than, std::uint64_t budget);

}  // namespace npu_doctor::bundle

namespace npu_doctor::bundle {

// "200M", "1.5G", "512K", "1000" (bytes; K/M/G/T are powers of 1024, an optional
// trailing B or iB is accepted). nullopt when it is not a size.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

}  // namespace npu_doctor::bundle
