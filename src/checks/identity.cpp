#include "checks/identity.hpp"

#include <algorithm>

#include <sys/types.h>
#include <unistd.h>

#include "checks/proc_files.hpp"
#include "core/text_util.hpp"

namespace npu_doctor::checks {
namespace {

std::optional<unsigned> id_number(std::string_view s) {
  const auto v = to_integer(s);
  if (!v || *v < 0 || *v > 0xffffffffLL) return std::nullopt;
  return static_cast<unsigned>(*v);
}

}  // namespace

std::vector<PasswdEntry> parse_passwd(std::string_view text) {
  std::vector<PasswdEntry> out;
  for (std::string_view line : split(text, '\n')) {
    if (line.empty() || line.front() == '#') continue;
    const auto f = split(line, ':');
    if (f.size() < 4 || f[0].empty()) continue;
    const auto uid = id_number(f[2]);
    const auto gid = id_number(f[3]);
    if (uid && gid) out.push_back({std::string(f[0]), *uid, *gid});
  }
  return out;
}

std::vector<GroupEntry> parse_group(std::string_view text) {
  std::vector<GroupEntry> out;
  for (std::string_view line : split(text, '\n')) {
    if (line.empty() || line.front() == '#') continue;
    const auto f = split(line, ':');
    if (f.size() < 3 || f[0].empty()) continue;
    const auto gid = id_number(f[2]);
    if (!gid) continue;
    GroupEntry g{std::string(f[0]), *gid, {}};
    if (f.size() >= 4) {
      for (std::string_view m : split(trim(f[3]), ',')) {
        m = trim(m);
        if (!m.empty()) g.members.emplace_back(m);
      }
    }
    out.push_back(std::move(g));
  }
  return out;
}

bool Identity::in_group(unsigned g) const {
  return gid == g || std::find(groups.begin(), groups.end(), g) != groups.end();
}

bool can_read_write(const FileInfo& file, const Identity& who) {
  if (!file.exists) return false;
  if (who.is_root()) return true;
  unsigned bits = file.mode & 07;  // others
  if (file.uid == who.uid) {
    bits = (file.mode >> 6) & 07;
  } else if (who.in_group(file.gid)) {
    bits = (file.mode >> 3) & 07;
  }
  return (bits & 06) == 06;
}

Identity current_process_identity() {
  Identity who;
  who.uid = ::geteuid();  // the kernel checks file access with the effective ids
  who.gid = ::getegid();
  const int n = ::getgroups(0, nullptr);
  if (n > 0) {
    std::vector<gid_t> groups(static_cast<std::size_t>(n));
    const int got = ::getgroups(n, groups.data());
    for (int i = 0; i < got; ++i) who.groups.push_back(groups[static_cast<std::size_t>(i)]);
  }
  who.origin = "current process";
  return who;
}

std::optional<Identity> identity_of_user(const Probe& probe, const std::string& name) {
  const auto passwd = parse_passwd(probe.read_file("/etc/passwd").value_or(""));
  const auto it = std::find_if(passwd.begin(), passwd.end(), [&](const PasswdEntry& p) { return p.name == name; });
  if (it == passwd.end()) return std::nullopt;
  Identity who;
  who.uid = it->uid;
  who.gid = it->gid;
  who.user = name;
  who.origin = "user " + name;
  for (const auto& g : parse_group(probe.read_file("/etc/group").value_or(""))) {
    if (std::find(g.members.begin(), g.members.end(), name) != g.members.end()) who.groups.push_back(g.gid);
  }
  return who;
}

std::optional<Identity> identity_of_process(const Probe& probe, long pid) {
  const auto text = probe.read_file("/proc/" + std::to_string(pid) + "/status");
  if (!text) return std::nullopt;
  const ProcStatus st = parse_proc_status(*text);
  if (!st.euid || !st.egid) return std::nullopt;
  Identity who;
  who.uid = *st.euid;  // the kernel checks file access with the effective ids
  who.gid = *st.egid;
  who.groups = st.groups;
  who.origin = "process " + std::to_string(pid);
  name_identity(probe, who);
  return who;
}

void name_identity(const Probe& probe, Identity& who) {
  if (!who.user.empty()) return;
  for (const auto& p : parse_passwd(probe.read_file("/etc/passwd").value_or(""))) {
    if (p.uid == who.uid) {
      who.user = p.name;
      return;
    }
  }
}

}  // namespace npu_doctor::checks
