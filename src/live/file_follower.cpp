#include "live/file_follower.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <memory>

namespace npu_doctor::live {
namespace {

constexpr std::size_t kMaxOpenFiles = 256;  // older idle files are reopened by name when they grow
constexpr std::size_t kReadChunk = 1u << 20;
constexpr uint32_t kDirEvents = IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_MODIFY | IN_CLOSE_WRITE | IN_DELETE |
                                IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

// Rotated copies that are compressed: their text was read while it was the live file.
bool compressed_name(std::string_view name) {
  for (std::string_view ext : {".gz", ".bz2", ".xz", ".zst", ".lz4", ".zip", ".tgz", ".tar"}) {
    if (name.ends_with(ext)) return true;
  }
  return false;
}

std::string parent_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string join(const std::string& dir, std::string_view name) {
  return dir.ends_with('/') ? dir + std::string(name) : dir + "/" + std::string(name);
}

// The path without trailing slashes ("/" stays).
std::string normalized(std::string p) {
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

}  // namespace

bool is_network_file_system(const std::string& path) {
  std::string p = path;
  struct statfs fs {};
  // The nearest existing directory decides (a root that does not exist yet).
  while (::statfs(p.c_str(), &fs) != 0) {
    if (p == "/" || p == "." || p.empty()) return false;
    p = parent_of(p);
  }
  constexpr std::array<unsigned long, 12> kNetwork = {
      0x6969,      // NFS
      0x517B,      // SMB
      0xFF534D42,  // CIFS
      0xFE534D42,  // SMB2
      0x00C36400,  // Ceph
      0x0BD00BD0,  // Lustre
      0x47504653,  // GPFS
      0x01021997,  // 9p
      0x65735546,  // FUSE (sshfs, s3fs, many distributed file systems)
      0x5346414F,  // AFS
      0x013111A8,  // IBRIX
      0x19830326,  // BeeGFS
  };
  const auto type = static_cast<unsigned long>(fs.f_type) & 0xFFFFFFFFul;
  return std::find(kNetwork.begin(), kNetwork.end(), type) != kNetwork.end();
}

FileFollower::FileFollower(FollowOptions options) : options_(std::move(options)) {
  for (auto& r : options_.roots) roots_.push_back({normalized(r), false});
}

FileFollower::~FileFollower() {
  for (auto& [key, t] : files_) close_fd(t);
  if (inotify_fd_ >= 0) ::close(inotify_fd_);
}

bool FileFollower::wanted(const std::string& path) const {
  const auto slash = path.find_last_of('/');
  const std::string_view name = slash == std::string::npos ? std::string_view(path) : std::string_view(path).substr(slash + 1);
  if (compressed_name(name)) return false;
  return !options_.accept || options_.accept(path);
}

void FileFollower::start() {
  if (!options_.polling) inotify_fd_ = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  for (auto& root : roots_) {
    root.polled = inotify_fd_ < 0 || is_network_file_system(root.path);
    setup_root(root, true);
  }
  if (watch_failed_) {
    // Out of inotify watches (fs.inotify.max_user_watches): poll everything.
    for (auto& root : roots_) root.polled = true;
  }
  next_poll_ = Clock::now() + options_.poll_interval;
}

void FileFollower::setup_root(Root& root, bool baseline) {
  struct stat st {};
  if (::lstat(root.path.c_str(), &st) != 0) {
    if (!root.polled) watch_ancestor(root.path);
    return;
  }
  if (S_ISDIR(st.st_mode)) {
    walk(root.path, baseline, !root.polled, nullptr);
  } else {
    if (!root.polled) add_watch(parent_of(root.path));
    consider(root.path, baseline, nullptr);
  }
}

void FileFollower::add_watch(const std::string& dir) {
  if (inotify_fd_ < 0) return;
  const int wd = ::inotify_add_watch(inotify_fd_, dir.c_str(), kDirEvents);
  if (wd < 0) {
    if (errno == ENOSPC || errno == ENOMEM) watch_failed_ = true;
    return;
  }
  watches_[wd] = dir;
  ancestor_watches_.erase(wd);  // the same directory, now watched for its files
}

void FileFollower::watch_ancestor(const std::string& missing) {
  if (inotify_fd_ < 0) return;
  std::string p = parent_of(missing);
  struct stat st {};
  while (::stat(p.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    if (p == "/" || p == ".") return;
    p = parent_of(p);
  }
  const int wd = ::inotify_add_watch(inotify_fd_, p.c_str(), IN_CREATE | IN_MOVED_TO | IN_ONLYDIR);
  if (wd < 0) {
    if (errno == ENOSPC || errno == ENOMEM) watch_failed_ = true;
    return;
  }
  // A directory that is also followed keeps its full watch (inotify merges by inode).
  if (!watches_.contains(wd)) {
    watches_[wd] = p;
    ancestor_watches_.insert(wd);
  }
  // The next directory on the way may have been created after the walk up found it missing
  // but before the watch began: no event will say so, so look once more.
  std::string next = missing;
  while (parent_of(next) != p && next != "/" && next != ".") next = parent_of(next);
  if (::stat(next.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) roots_changed_ = true;
}

void FileFollower::walk(const std::string& path, bool baseline, bool watch, std::set<Key>* seen) {
  if (watch) add_watch(path);
  std::unique_ptr<DIR, int (*)(DIR*)> dir(::opendir(path.c_str()), ::closedir);
  if (!dir) return;
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(dir.get())) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  dir.reset();
  std::sort(names.begin(), names.end());
  for (const auto& name : names) {
    const std::string child = join(path, name);
    struct stat st {};
    if (::lstat(child.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(child, baseline, watch, seen);  // symlinked directories are not followed: no loops
    } else {
      consider(child, baseline, seen);
    }
  }
}

void FileFollower::consider(const std::string& path, bool baseline, std::set<Key>* seen) {
  if (!wanted(path)) return;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return;
  const Key key{st.st_dev, st.st_ino};
  if (seen != nullptr) seen->insert(key);
  if (auto it = files_.find(key); it != files_.end()) {
    Tracked& t = it->second;
    if (t.path != path) {  // renamed (rotation): same file, same offset, new name
      if (auto p = by_path_.find(t.path); p != by_path_.end() && p->second == key) by_path_.erase(p);
      t.path = path;
      by_path_[path] = key;
    }
    to_check_.insert(key);
    return;
  }
  // A file we did not know: there at the start (the baseline), or new.
  if (auto old = by_path_.find(path); old != by_path_.end()) to_check_.insert(old->second);  // replaced
  Tracked t;
  t.path = path;
  t.offset = baseline && !options_.from_start ? static_cast<uint64_t>(st.st_size) : 0;
  files_.emplace(key, std::move(t));
  by_path_[path] = key;
  to_check_.insert(key);
}

bool FileFollower::under_root(const std::string& path) const {
  return std::any_of(roots_.begin(), roots_.end(), [&](const Root& r) {
    return path == r.path || path.starts_with(r.path == "/" ? r.path : r.path + "/");
  });
}

bool FileFollower::read_events() {
  if (inotify_fd_ < 0) return false;
  alignas(inotify_event) char buf[64 * 1024];
  bool any = false;
  for (;;) {
    const ssize_t n = ::read(inotify_fd_, buf, sizeof buf);
    if (n <= 0) break;
    any = true;
    for (ssize_t off = 0; off < n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(buf + off);
      off += static_cast<ssize_t>(sizeof(inotify_event) + ev->len);
      if ((ev->mask & IN_Q_OVERFLOW) != 0) {
        overflow_ = true;
        continue;
      }
      const auto w = watches_.find(ev->wd);
      if (w == watches_.end()) continue;
      if ((ev->mask & IN_IGNORED) != 0) {
        watches_.erase(w);
        ancestor_watches_.erase(ev->wd);
        roots_changed_ = true;  // a followed directory went away: it may come back
        continue;
      }
      if (ancestor_watches_.contains(ev->wd)) {
        roots_changed_ = true;
        continue;
      }
      if ((ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF)) != 0) {
        roots_changed_ = true;
        continue;
      }
      if (ev->len == 0) continue;
      const std::string path = join(w->second, ev->name);
      if ((ev->mask & IN_ISDIR) != 0) {
        if ((ev->mask & (IN_CREATE | IN_MOVED_TO)) != 0) new_dirs_.push_back(path);
      } else {
        dirty_.insert(path);
      }
    }
  }
  return any;
}

int FileFollower::timeout_ms() const {
  if (!to_check_.empty() || !dirty_.empty() || !new_dirs_.empty() || roots_changed_ || overflow_) return 0;
  for (const auto& [key, t] : files_) {
    if (t.backlog) return 0;
  }
  const bool any_polled = std::any_of(roots_.begin(), roots_.end(), [](const Root& r) { return r.polled; });
  if (!any_polled) return -1;
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(next_poll_ - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, INT_MAX));
}

bool FileFollower::process(FollowSink& sink, bool readable) {
  if (readable) read_events();
  bool activity = false;
  if (!new_dirs_.empty()) {
    std::vector<std::string> dirs;
    dirs.swap(new_dirs_);
    for (const auto& d : dirs) {
      if (under_root(d)) walk(d, false, true, nullptr);  // its files were all created after the start
    }
  }
  if (roots_changed_) {
    roots_changed_ = false;
    for (auto& root : roots_) {
      if (!root.polled) setup_root(root, false);
    }
  }
  if (overflow_) {
    overflow_ = false;
    activity = rescan(false) || activity;
  }
  const auto now = Clock::now();
  if (now >= next_poll_) {
    next_poll_ = now + options_.poll_interval;
    activity = rescan(true) || activity;
  }
  if (!dirty_.empty()) {
    std::set<std::string> paths;
    paths.swap(dirty_);
    for (const auto& p : paths) {
      if (auto it = by_path_.find(p); it != by_path_.end()) to_check_.insert(it->second);
      if (under_root(p)) consider(p, false, nullptr);
    }
  }
  for (const auto& [key, t] : files_) {
    if (t.backlog) to_check_.insert(key);
  }
  std::set<Key> keys;
  keys.swap(to_check_);
  for (const auto& key : keys) activity = check(key, sink) || activity;
  return activity;
}

bool FileFollower::rescan(bool polled_only) {
  bool any = false;
  for (auto& root : roots_) {
    if (polled_only && !root.polled) continue;
    any = true;
    struct stat st {};
    if (::lstat(root.path.c_str(), &st) != 0) continue;
    if (S_ISDIR(st.st_mode)) {
      walk(root.path, false, !root.polled, nullptr);
    } else {
      consider(root.path, false, nullptr);
    }
  }
  if (!any) return false;
  // Files that went away are noticed by check(): their name no longer leads to them.
  for (const auto& [key, tracked] : files_) {
    const std::string& path = tracked.path;  // clang 14 cannot capture a structured binding
    if (under_root(path)) {
      const bool polled = std::any_of(roots_.begin(), roots_.end(), [&](const Root& r) {
        return r.polled && (path == r.path || path.starts_with(r.path + "/"));
      });
      if (polled || !polled_only) to_check_.insert(key);
    }
  }
  return false;
}

bool FileFollower::drain(FollowSink& sink) {
  read_events();
  rescan(false);
  bool activity = process(sink, false);
  for (int rounds = 0; rounds < 100000 && timeout_ms() == 0; ++rounds) activity = process(sink, false) || activity;
  return activity;
}

bool FileFollower::announce(Tracked& t, FollowSink& sink) {
  if (t.opened) return false;
  uint64_t first_line = 1;
  if (t.offset > 0 && t.fd >= 0) {
    // Followed from the middle: count the lines before, for line numbers that match the file.
    std::unique_ptr<char[]> buf(new char[kReadChunk]);
    for (uint64_t at = 0; at < t.offset;) {
      const auto want = static_cast<std::size_t>(std::min<uint64_t>(kReadChunk, t.offset - at));
      const ssize_t n = ::pread(t.fd, buf.get(), want, static_cast<off_t>(at));
      if (n <= 0) break;
      first_line += static_cast<uint64_t>(std::count(buf.get(), buf.get() + n, '\n'));
      at += static_cast<uint64_t>(n);
    }
  }
  t.id = next_id_++;
  t.opened = true;
  sink.opened(t.id, t.path, first_line);
  if (std::find(paths_read_.begin(), paths_read_.end(), t.path) == paths_read_.end()) paths_read_.push_back(t.path);
  return true;
}

void FileFollower::close_fd(Tracked& t) {
  if (t.fd < 0) return;
  ::close(t.fd);
  t.fd = -1;
  --open_fds_;
}

void FileFollower::finish(Tracked& t, FollowSink& sink) {
  if (t.opened) sink.closed(t.id);
  t.opened = false;
}

bool FileFollower::check(const Key& key, FollowSink& sink) {
  const auto it = files_.find(key);
  if (it == files_.end()) return false;
  Tracked& t = it->second;
  struct stat ps {};
  const bool at_path = ::stat(t.path.c_str(), &ps) == 0 && Key{ps.st_dev, ps.st_ino} == key;
  bool activity = false;

  auto read_more = [&](bool to_end) {
    std::unique_ptr<char[]> buf(new char[kReadChunk]);
    std::size_t budget = to_end ? SIZE_MAX : options_.read_budget;
    t.backlog = false;
    while (budget > 0) {
      const ssize_t n = ::pread(t.fd, buf.get(), std::min(kReadChunk, budget), static_cast<off_t>(t.offset));
      if (n <= 0) return;
      if (!t.opened) announce(t, sink);
      sink.data(t.id, std::string_view(buf.get(), static_cast<std::size_t>(n)));
      t.offset += static_cast<uint64_t>(n);
      budget -= static_cast<std::size_t>(n);
      activity = true;
    }
    t.backlog = true;  // the budget ran out: the rest next time
  };

  if (!at_path) {
    // Deleted, renamed to a name not followed, or replaced: what is left of it, then done.
    if (t.fd >= 0) read_more(true);
    if (t.opened) activity = true;
    finish(t, sink);
    if (auto p = by_path_.find(t.path); p != by_path_.end() && p->second == key) by_path_.erase(p);
    close_fd(t);
    files_.erase(it);
    return activity;
  }
  const auto size = static_cast<uint64_t>(ps.st_size);
  if (size < t.offset) {
    // Truncated (copytruncate): the file starts again, under a new id.
    finish(t, sink);
    t.offset = 0;
    activity = true;
  }
  if (size <= t.offset && !t.backlog) return activity;
  if (t.fd < 0) {
    if (open_fds_ >= kMaxOpenFiles) {
      for (auto& [k, other] : files_) {
        if (other.fd >= 0 && !other.backlog) {
          close_fd(other);
          break;
        }
      }
    }
    const int fd = ::open(t.path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return activity;
    struct stat fs {};
    if (::fstat(fd, &fs) != 0 || Key{fs.st_dev, fs.st_ino} != key) {
      ::close(fd);
      return activity;
    }
    t.fd = fd;
    ++open_fds_;
  }
  if (!t.opened) announce(t, sink);
  read_more(false);
  return activity;
}

std::string FileFollower::mode() const {
  const auto polled = static_cast<std::size_t>(std::count_if(roots_.begin(), roots_.end(), [](const Root& r) { return r.polled; }));
  if (polled == 0) return "inotify";
  if (polled == roots_.size()) return "polling";
  return "inotify and polling";
}

std::size_t FileFollower::files_followed() const { return files_.size(); }

}  // namespace npu_doctor::live
