#pragma once
// Who the device nodes must be usable by: a user id with its groups, resolved from the
// current process, from another process (/proc/<pid>/status) or from a user name
// (/etc/passwd and /etc/group under the probe's root). Access is decided from these
// ids and the nodes' owner, group and mode, never from the checking process's own
// credentials, so tests (which run as root) can check any user.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/probe.hpp"

namespace npu_doctor::checks {

struct PasswdEntry {
  std::string name;
  unsigned uid = 0;
  unsigned gid = 0;
};
struct GroupEntry {
  std::string name;
  unsigned gid = 0;
  std::vector<std::string> members;
};
std::vector<PasswdEntry> parse_passwd(std::string_view text);
std::vector<GroupEntry> parse_group(std::string_view text);

struct Identity {
  unsigned uid = 0;
  unsigned gid = 0;               // primary group
  std::vector<unsigned> groups;   // supplementary groups
  std::string user;               // name when known ("" otherwise)
  std::string origin;             // "current process", "process 4242", "user alice"

  bool is_root() const { return uid == 0; }
  bool in_group(unsigned g) const;
};

// Read and write permission on a file with this owner, group and mode for `who`
// (root may always open device nodes).
bool can_read_write(const FileInfo& file, const Identity& who);

// The user `name` as /etc/passwd and /etc/group under `probe` describe it (the groups a
// new login would have). nullopt when the user is unknown.
// This process's effective ids and groups (what the kernel checks file access with).
Identity current_process_identity();

std::optional<Identity> identity_of_user(const Probe& probe, const std::string& name);

// The credentials of process `pid` from /proc/<pid>/status. nullopt when unreadable.
std::optional<Identity> identity_of_process(const Probe& probe, long pid);

// Fills `user` from /etc/passwd when it is empty.
void name_identity(const Probe& probe, Identity& who);

}  // namespace npu_doctor::checks
