#pragma once
// Follows growing logs: files and directory trees (new plog files, files that grow, are
// truncated, renamed away or replaced by a new file of the same name), with inotify, and
// by polling where inotify cannot see changes (network file systems, no inotify, out of
// watches) or when asked to. Nothing is read twice: files are known by device and inode,
// so a rotated file keeps its offset under its new name.
//
// Never blocks: the owner polls fd() for readability with timeout_ms() and calls
// process(); work is bounded per call (read_budget bytes per file), the rest is left for
// the next call (timeout_ms() is then 0).
#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace npu_doctor::live {

struct FollowOptions {
  std::vector<std::string> roots;   // files or directories (followed recursively); may not exist yet
  bool from_start = false;          // files there at start: read whole (true) or only what they gain
  bool polling = false;             // never use inotify
  std::chrono::milliseconds poll_interval{1000};
  std::size_t read_budget = 4u << 20;  // bytes read per file per process() call
  // Which files to follow (by path); null = all regular files not compressed.
  std::function<bool(const std::string& path)> accept;
};

// Receives what the follower reads. Ids are never reused.
class FollowSink {
 public:
  virtual ~FollowSink() = default;
  // A file to follow; `first_line` is the line number of the first byte to come.
  virtual void opened(std::size_t id, const std::string& path, uint64_t first_line) = 0;
  virtual void data(std::size_t id, std::string_view bytes) = 0;
  // Nothing more comes under `id`: deleted, truncated (it comes back under a new id) or
  // replaced by a new file of the same name.
  virtual void closed(std::size_t id) = 0;
};

class FileFollower {
 public:
  explicit FileFollower(FollowOptions options);
  ~FileFollower();
  FileFollower(const FileFollower&) = delete;
  FileFollower& operator=(const FileFollower&) = delete;

  // Takes the baseline (the files there now and their sizes) and sets up the watches.
  void start();
  // The inotify descriptor to poll for input, or -1.
  int fd() const { return inotify_fd_; }
  // Milliseconds until process() has work without an event: 0 now, -1 never.
  int timeout_ms() const;
  // Handles inotify events (when `readable`), a due poll, files with unread bytes. True
  // when a byte was read or a file appeared, disappeared or was truncated.
  bool process(FollowSink& sink, bool readable);
  // At the end: looks at every root again and reads every file to its current end.
  bool drain(FollowSink& sink);

  // "inotify", "polling" or "inotify and polling" (some roots on network file systems).
  std::string mode() const;
  std::size_t files_followed() const;
  // Every file read from (for --bundle-on-failure), in the order they were opened.
  const std::vector<std::string>& paths_read() const { return paths_read_; }

 private:
  using Key = std::pair<dev_t, ino_t>;
  using Clock = std::chrono::steady_clock;
  struct Tracked {
    std::string path;
    uint64_t offset = 0;       // bytes consumed (or skipped: the baseline)
    int fd = -1;
    std::size_t id = 0;
    bool opened = false;       // announced to the sink
    bool backlog = false;      // bytes left for the next call
  };
  struct Root {
    std::string path;
    bool polled = false;
  };

  void setup_root(Root& root, bool baseline);
  void walk(const std::string& path, bool baseline, bool watch, std::set<Key>* seen);
  void consider(const std::string& path, bool baseline, std::set<Key>* seen);
  void add_watch(const std::string& dir);
  void watch_ancestor(const std::string& missing);
  bool read_events();
  bool check(const Key& key, FollowSink& sink);
  bool rescan(bool polled_only);  // marks what to look at; check() reads
  bool under_root(const std::string& path) const;
  bool announce(Tracked& t, FollowSink& sink);
  void finish(Tracked& t, FollowSink& sink);
  void close_fd(Tracked& t);
  bool wanted(const std::string& path) const;

  FollowOptions options_;
  std::vector<Root> roots_;
  int inotify_fd_ = -1;
  std::unordered_map<int, std::string> watches_;  // watch descriptor -> directory
  std::set<int> ancestor_watches_;                // directories above a root that does not exist yet
  std::map<Key, Tracked> files_;
  std::unordered_map<std::string, Key> by_path_;
  std::set<std::string> dirty_;                   // paths inotify named since the last call
  std::vector<std::string> new_dirs_;             // directories created since the last call
  std::set<Key> to_check_;                        // files to look at in this call
  bool watch_failed_ = false;                     // out of inotify watches
  bool roots_changed_ = false;                    // a missing root may exist now
  bool overflow_ = false;                         // inotify lost events: look at everything
  Clock::time_point next_poll_{};
  std::size_t next_id_ = 0;
  std::size_t open_fds_ = 0;
  std::vector<std::string> paths_read_;
};

// True for file systems whose changes inotify does not see (NFS, SMB/CIFS, Ceph,
// Lustre, GPFS, 9p, FUSE): such roots are polled.
bool is_network_file_system(const std::string& path);

}  // namespace npu_doctor::live
