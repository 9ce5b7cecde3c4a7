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

struct LogSelection {
  std::vector<LogFile> files;         // newest first
  std::vector<SkippedItem> skipped;   // unreadable, not regular, too old, over the cap
  std::vector<std::string> searched;  // the locations looked at (shown paths)
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
