#pragma once
// Pure parsers of /proc files: loaded kernel modules, a process's status (credentials,
// allowed CPUs), its environment and its command line.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::checks {

// /proc/modules: the module names, in file order.
std::vector<std::string> parse_proc_modules(std::string_view text);

// True for the Ascend driver's kernel modules: drv_*, asdrv_*, ascend_*, dbl_*, ts_agent
// (old and open-source driver names, ascend-reference.md §5.3).
bool is_ascend_driver_module(std::string_view name);

// /proc/<pid>/status
struct ProcStatus {
  std::string name;                          // Name:
  std::optional<unsigned> uid;               // Uid: real (first field)
  std::optional<unsigned> euid;              // Uid: effective (second field)
  std::optional<unsigned> gid;               // Gid: real
  std::optional<unsigned> egid;              // Gid: effective
  std::vector<unsigned> groups;              // Groups: supplementary
  std::string cpus_allowed_list;             // Cpus_allowed_list: "0-23,48-71"
  std::string mems_allowed_list;             // Mems_allowed_list: "0-1"
};
ProcStatus parse_proc_status(std::string_view text);

// /proc/<pid>/environ: NUL-separated NAME=value.
std::map<std::string, std::string> parse_environ(std::string_view bytes);

// /proc/<pid>/cmdline: NUL-separated arguments.
std::vector<std::string> parse_cmdline(std::string_view bytes);

// Arguments joined for a shell line, quoting those that need it.
std::string shell_join(const std::vector<std::string>& args);

}  // namespace npu_doctor::checks
