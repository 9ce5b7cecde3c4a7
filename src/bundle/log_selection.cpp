#include "bundle/log_selection.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <cctype>
#include <set>
#include <string_view>

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

struct Walker {
  LogSelection& sel;
  // Files already taken, by device and inode (16 bytes, not the path: 100,000 logs), so a
  // file reached from two searched locations, or by a second name, is taken once.
  std::set<std::pair<dev_t, ino_t>> seen;
  std::vector<LogFile> candidates;

  void file(const std::string& path, const std::string& shown) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      sel.skipped.push_back({shown, std::string("cannot read: ") + std::strerror(errno)});
      return;
    }
    if (!seen.insert({st.st_dev, st.st_ino}).second) return;
    if (!S_ISREG(st.st_mode)) {
      sel.skipped.push_back({shown, "not a regular file"});
      return;
    }
    if (::access(path.c_str(), R_OK) != 0) {
      sel.skipped.push_back({shown, std::string("cannot read: ") + std::strerror(errno)});
      return;
    }
    candidates.push_back({path == shown ? std::string() : path, shown, static_cast<std::uint64_t>(st.st_size),
                          static_cast<std::int64_t>(st.st_mtime)});
  }

  void walk(const std::string& path, const std::string& shown) {
    std::error_code ec;
    const auto status = fs::symlink_status(path, ec);
    if (ec || !fs::is_directory(status)) {
      file(path, shown);
      return;
    }
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
      if (e.is_symlink(ec) && e.is_directory(ec)) {
        sel.skipped.push_back({child_shown, "symbolic link to a directory (not followed)"});
        continue;
      }
      walk(e.path().string(), child_shown);
    }
  }
};

}  // namespace

LogSelection select_logs(const std::vector<std::string>& explicit_paths, const std::vector<std::string>& defaults,
                         const std::string& root, std::optional<std::int64_t> newer_than, std::uint64_t budget) {
  LogSelection sel;
  Walker w{sel, {}, {}};
  for (const auto& p : explicit_paths) {
    std::error_code ec;
    const std::string abs = fs::absolute(p, ec).lexically_normal().string();
    sel.searched.push_back(abs);
    if (!fs::exists(fs::symlink_status(abs, ec)) || ec) {
      sel.skipped.push_back({abs, "no such file or directory"});
      continue;
    }
    w.walk(abs, abs);
  }
  for (const auto& d : defaults) {
    const std::string real = join_root(root, d);
    std::error_code ec;
    if (!fs::exists(real, ec)) continue;
    sel.searched.push_back(d);
    w.walk(real, d);
  }
  std::stable_sort(w.candidates.begin(), w.candidates.end(),
                   [](const LogFile& a, const LogFile& b) { return a.mtime > b.mtime; });
  // The files taken are kept in the candidates' own room (one list of 100,000, not two).
  std::uint64_t used = 0;
  std::size_t kept = 0;
  for (auto& f : w.candidates) {
    if (newer_than && f.mtime < *newer_than) {
      sel.skipped.push_back({f.shown, "older than --since"});
      continue;
    }
    if (used + f.size > budget) {
      sel.skipped.push_back({f.shown, "over the size cap (--max-size): " + std::to_string(f.size) + " bytes"});
      continue;
    }
    used += f.size;
    if (&w.candidates[kept] != &f) w.candidates[kept] = std::move(f);  // never onto itself
    ++kept;
  }
  w.candidates.resize(kept);
  sel.files = std::move(w.candidates);
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
