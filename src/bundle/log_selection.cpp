#include "bundle/log_selection.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <cctype>
#include <set>
#include <string_view>

#include "core/snapshot_io.hpp"
#include "npu_doctor/external_sort.hpp"

namespace fs = std::filesystem;

namespace npu_doctor::bundle {

std::vector<std::string> default_log_locations(const std::map<std::string, std::string>& env) {
  std::vector<std::string> out;
  auto get = [&](const char* name) -> std::string {
    auto it = env.find(name);
    return it == env.end() ? std::string() : it->second;
  };
  if (auto p = get("ASCEND_PROCESS_LOG_PATH"); !p.empty()) out.push_back(p);
  if (auto p = get("ASCEND_WORK_PATH"); !p.empty()) out.push_back(p + "/log");
  if (auto p = get("HOME"); !p.empty()) out.push_back(p + "/ascend/log");
  for (const char* p : {"/root/ascend/log", "/var/log/npu/slog", "/var/log/npu"}) out.push_back(p);
  // Keep the first of duplicates; drop locations inside another one (walked anyway).
  std::vector<std::string> unique;
  for (auto& p : out) {
    const std::string n = fs::path(p).lexically_normal().string();
    if (std::find(unique.begin(), unique.end(), n) == unique.end()) unique.push_back(n);
  }
  std::vector<std::string> kept;
  for (const auto& p : unique) {
    const bool inside = std::any_of(unique.begin(), unique.end(), [&](const std::string& q) {
      return q != p && p.starts_with(q.ends_with('/') ? q : q + "/");
    });
    if (!inside) kept.push_back(p);
  }
  return kept;
}

namespace {

std::string join_root(const std::string& root, const std::string& path) {
  if (root.empty() || root == "/") return path;
  return root + (path.starts_with('/') ? "" : "/") + path;
}

using FileId = std::pair<dev_t, ino_t>;

FileId id_of(const struct stat& st) { return {st.st_dev, st.st_ino}; }

// A candidate's place in the newest-first order: newer first, then in the order found.
struct Candidate {
  std::int64_t mtime;
  std::uint64_t seq;  // in the candidates' spool
};

bool newest_first(const Candidate& a, const Candidate& b) {
  return a.mtime != b.mtime ? a.mtime > b.mtime : a.seq < b.seq;
}

using CandidateOrder = ExternalSorter<Candidate, bool (*)(const Candidate&, const Candidate&)>;

// A symbolic link to a file met in a walked directory, decided after the walk: its target is
// usually taken under its own name already.
struct LinkedFile {
  LogFile file;
  FileId target;
  bool target_has_links = false;  // st_nlink > 1: then `seen` knows whether it was taken
  std::optional<FileId> target_dir;
};

struct Walker {
  explicit Walker(LogSelection& selection) : sel(selection) {}

  LogSelection& sel;
  // A file can be reached twice only through a second directory entry (a hard link, a
  // symbolic link), through its directory walked twice (overlapping locations), or by being
  // named on the command line as well. So directories walked are kept by device and inode,
  // and files only when one of those can happen, not every file (a million logs): memory
  // goes with directories and links, not with files.
  std::set<FileId> dirs_walked;
  std::set<FileId> named;  // the files given as paths themselves
  std::set<FileId> seen;   // files taken that may be reached again
  std::vector<LinkedFile> links;
  LogFiles candidates;     // packed, by seq
  CandidateOrder order{std::size_t{1} << 16, &newest_first};

  void take(LogFile f) {
    order.push({f.mtime, candidates.size()});
    candidates.push_back(f);
  }

  void file(const std::string& path, const std::string& shown, bool link) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      sel.skipped.push_back({shown, std::string("cannot read: ") + std::strerror(errno)});
      return;
    }
    const FileId id = id_of(st);
    if (!S_ISREG(st.st_mode)) {
      if (!seen.insert(id).second) return;
      sel.skipped.push_back({shown, "not a regular file"});
      return;
    }
    LogFile f{path == shown ? std::string() : path, shown, static_cast<std::uint64_t>(st.st_size),
              static_cast<std::int64_t>(st.st_mtime)};
    if (link) {
      LinkedFile l{std::move(f), id, st.st_nlink > 1, std::nullopt};
      if (char* real = ::realpath(path.c_str(), nullptr)) {
        struct stat dir {};
        if (::stat(fs::path(real).parent_path().c_str(), &dir) == 0) l.target_dir = id_of(dir);
        std::free(real);
      }
      links.push_back(std::move(l));
      return;
    }
    if ((st.st_nlink > 1 || named.count(id) != 0) && !seen.insert(id).second) return;
    if (!readable(path, shown)) return;
    take(std::move(f));
  }

  bool readable(const std::string& path, const std::string& shown) {
    if (::access(path.c_str(), R_OK) == 0) return true;
    sel.skipped.push_back({shown, std::string("cannot read: ") + std::strerror(errno)});
    return false;
  }

  // `location`: a path named on the command line or a default location, followed when it is
  // a symbolic link (~/ascend/log is often one); links met inside are not (no loops).
  void walk(const std::string& path, const std::string& shown, bool location = false) {
    std::error_code ec;
    const auto status = location ? fs::status(path, ec) : fs::symlink_status(path, ec);
    if (ec || !fs::is_directory(status)) {
      file(path, shown, false);
      return;
    }
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0 && !dirs_walked.insert(id_of(st)).second) return;  // walked already
    // Sorted, symlinked directories not followed (no loops), unreadable directories said.
    std::vector<fs::directory_entry> entries;
    fs::directory_iterator it(path, ec);
    if (ec) {
      sel.skipped.push_back({shown, "cannot list: " + ec.message()});
      return;
    }
    for (fs::directory_iterator end; it != end; it.increment(ec)) {
      if (ec) break;
      entries.push_back(*it);
    }
    std::sort(entries.begin(), entries.end());
    for (const auto& e : entries) {
      const std::string name = e.path().filename().string();
      const std::string child_shown = shown + (shown.ends_with('/') ? "" : "/") + name;
      const bool link = e.is_symlink(ec);
      if (link && e.is_directory(ec)) {
        sel.skipped.push_back({child_shown, "symbolic link to a directory (not followed)"});
        continue;
      }
      if (link) {
        file(e.path().string(), child_shown, true);
        continue;
      }
      walk(e.path().string(), child_shown);
    }
  }

  // After the walk: a link whose target sits in a walked directory was taken under the
  // target's own name (with several names, `seen` says whether one was taken).
  void take_links() {
    for (auto& l : links) {
      const bool target_walked = l.target_dir && dirs_walked.count(*l.target_dir) != 0;
      const bool taken_by_its_name = target_walked && !l.target_has_links && named.count(l.target) == 0;
      if (taken_by_its_name || !seen.insert(l.target).second) continue;
      if (!readable(l.file.open_path(), l.file.shown)) continue;
      take(std::move(l.file));
    }
    links.clear();
  }
};

// Files left out for their age or the size cap: the first of each kind listed, the rest
// counted in one item at the end.
class LeftOut {
 public:
  explicit LeftOut(std::string kind) : kind_(std::move(kind)) {}
  void add(LogSelection& sel, const std::string& item, std::string reason) {
    if (++count_ <= LogSelection::kListedOfAKind) sel.skipped.push_back({item, std::move(reason)});
  }
  void finish(LogSelection& sel) const {
    if (count_ <= LogSelection::kListedOfAKind) return;
    sel.skipped.push_back({std::to_string(count_ - LogSelection::kListedOfAKind) + " more files", kind_});
  }

 private:
  std::string kind_;
  std::size_t count_ = 0;
};

}  // namespace

void LogFiles::push_back(const LogFile& f) {
  snapshot_io::Writer w;
  w.str(f.path);
  w.str(f.shown);
  w.i64(static_cast<std::int64_t>(f.size));
  w.i64(f.mtime);
  records_.push_back(w.take());
}

LogFile LogFiles::operator[](std::size_t i) const {
  const std::string record = records_[i];
  snapshot_io::Reader r(record);
  LogFile f;
  f.path = r.str();
  f.shown = r.str();
  f.size = static_cast<std::uint64_t>(r.i64());
  f.mtime = r.i64();
  return f;
}

LogSelection select_logs(const std::vector<std::string>& explicit_paths, const std::vector<std::string>& defaults,
                         const std::string& root, std::optional<std::int64_t> newer_than, std::uint64_t budget) {
  LogSelection sel;
  Walker w{sel};
  std::vector<std::string> given;
  for (const auto& p : explicit_paths) {
    std::error_code ec;
    given.push_back(fs::absolute(p, ec).lexically_normal().string());
    struct stat st {};
    if (::stat(given.back().c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) w.named.insert(id_of(st));
  }
  for (const auto& abs : given) {
    std::error_code ec;
    sel.searched.push_back(abs);
    if (!fs::exists(fs::symlink_status(abs, ec)) || ec) {
      sel.skipped.push_back({abs, "no such file or directory"});
      continue;
    }
    w.walk(abs, abs, true);
  }
  for (const auto& d : defaults) {
    const std::string real = join_root(root, d);
    std::error_code ec;
    if (!fs::exists(real, ec)) continue;
    sel.searched.push_back(d);
    w.walk(real, d, true);
  }
  w.take_links();
  std::uint64_t used = 0;
  LeftOut too_old("older than --since"), over_cap("over the size cap (--max-size)");
  w.order.for_each_sorted([&](const Candidate& c) {
    LogFile f = w.candidates[c.seq];
    if (newer_than && f.mtime < *newer_than) {
      too_old.add(sel, f.shown, "older than --since");
      return;
    }
    if (used + f.size > budget) {
      over_cap.add(sel, f.shown, "over the size cap (--max-size): " + std::to_string(f.size) + " bytes");
      return;
    }
    used += f.size;
    sel.files.push_back(f);
  });
  too_old.finish(sel);
  over_cap.finish(sel);
  return sel;
}

}  // namespace npu_doctor::bundle

namespace npu_doctor::bundle {

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && ((text[i] >= '0' && text[i] <= '9') || text[i] == '.')) ++i;
  if (i == 0) return std::nullopt;
  double number = 0;
  try {
    std::size_t used = 0;
    number = std::stod(std::string(text.substr(0, i)), &used);
    if (used != i) return std::nullopt;
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::string unit(text.substr(i));
  for (auto& c : unit) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (unit.ends_with("IB")) unit.resize(unit.size() - 2);
  else if (unit.size() > 1 && unit.ends_with("B")) unit.pop_back();
  else if (unit == "B") unit.clear();
  double scale = 1;
  if (unit == "K") scale = 1024.0;
  else if (unit == "M") scale = 1024.0 * 1024;
  else if (unit == "G") scale = 1024.0 * 1024 * 1024;
  else if (unit == "T") scale = 1024.0 * 1024 * 1024 * 1024;
  else if (!unit.empty()) return std::nullopt;
  const double bytes = number * scale;
  if (!(bytes >= 0) || bytes > 1.8e19) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

}  // namespace npu_doctor::bundle
