#pragma once
// What the steps share while `check` runs: the probe, the knowledge base, the
// compatibility table and the options; files and command output read once (a tool that
// timed out is not asked again, so a hung driver costs one timeout, not one per query);
// the machine facts several steps need (driver files, npu-smi info); and the way a step
// raises a finding (by knowledge-base id).
#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "checks/check_report.hpp"
#include "checks/compatibility.hpp"
#include "checks/identity.hpp"
#include "core/text_util.hpp"
#include "checks/version_files.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/parse/npu_smi.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::checks {

struct CheckOptions {
  std::vector<StepId> steps = all_steps();
  // --python: the interpreter whose packages are checked. Empty: `python3` on PATH when
  // the root is "/"; with another root, site-packages directories in the tree are read.
  std::string python;
  std::optional<long> pid;     // --pid: the job to check (CPUs, environment, devices)
  Identity identity;           // who must be able to use the device nodes
  bool probe_device = false;   // --probe-device: run the small torch_npu program
  std::chrono::milliseconds timeout{10000};  // per command (also set on the probe)
};

// `npu-smi info`, run once.
struct NpuSmiView {
  bool on_path = false;       // false: npu-smi not found
  CommandResult result;
  std::optional<NpuSmiInfo> info;
  std::string parse_error;
  bool usable() const { return info.has_value(); }
};

// A version file as read: where, its text, and what it says.
template <typename T>
struct ReadFile {
  std::string path;
  std::optional<std::string> text;  // nullopt: missing or unreadable
  std::optional<T> parsed;          // nullopt: missing or not such a file
  std::string error;                // why it did not parse
};

class CheckContext {
 public:
  CheckContext(const Probe& probe, const KnowledgeBase& kb, const CompatibilityTable& table, const CheckOptions& options);

  const Probe& probe() const { return probe_; }
  const CompatibilityTable& table() const { return table_; }
  const CheckOptions& options() const { return options_; }
  bool real_root() const { return probe_.describe_root() == "/" || probe_.describe_root().empty(); }

  // A file under the root, read once (at most 1 MiB).
  const std::optional<std::string>& file(const std::string& path);
  // A command run once. A tool that timed out before is not started again.
  const CommandResult& run(const std::vector<std::string>& argv);

  // Where the driver and firmware are installed (/etc/ascend_install.info, else
  // /usr/local/Ascend).
  std::string driver_dir();
  std::string firmware_dir();
  const ReadFile<DriverVersionInfo>& driver_file();
  const ReadFile<FirmwareVersionInfo>& firmware_file();
  const NpuSmiView& npu_smi();
  // The driver version from version.info, else from npu-smi's header.
  std::optional<Version> driver_version();
  // Any sign of an installed driver: its version file, a working npu-smi, the
  // management device node, or a loaded driver module.
  bool driver_present();
  // /dev/davinci<N> numbers, sorted.
  std::vector<int> davinci_nodes();
  // Loaded kernel module names; nullopt when /proc/modules is unreadable.
  const std::optional<std::vector<std::string>>& modules();
  // The environment of the checked process (the probe's environment).
  std::optional<std::string> env(const std::string& name) const { return probe_.env(name); }

  // Adds the finding of knowledge-base entry `id` to `step` (KnowledgeBase::entry()).
  void raise(StepResult& step, EntryId id, Evidence evidence);
  void raise(StepResult& step, EntryId id, std::vector<Evidence> evidence);  // first is the main one

 private:
  const Probe& probe_;
  const KnowledgeBase& kb_;
  const CompatibilityTable& table_;
  const CheckOptions& options_;
  std::map<std::string, std::optional<std::string>> files_;
  std::map<std::vector<std::string>, CommandResult> commands_;
  std::set<std::string> hung_tools_;
  std::optional<AscendInstallInfo> install_info_;
  std::optional<ReadFile<DriverVersionInfo>> driver_file_;
  std::optional<ReadFile<FirmwareVersionInfo>> firmware_file_;
  std::optional<NpuSmiView> npu_smi_;
  std::optional<std::optional<std::vector<std::string>>> modules_;
};

// Evidence of what was read. `where` is a file path, a command line or "$NAME".
Evidence evidence_line(std::string where, std::size_t line, std::string text);
Evidence evidence_at(std::string where, const NumberedLine& line);
// A variable as the checked process has it: "NAME=value" or "NAME (unset)".
Evidence evidence_env(const std::string& name, const std::optional<std::string>& value);
// A command that did not give usable output: its state and the first line it printed.
Evidence evidence_command_failure(const std::string& command, const CommandResult& r);
// Evidence with named values ("driver" -> "24.1.rc2", "fix" -> "usermod -aG ...").
Evidence with(Evidence e, std::vector<std::pair<std::string, std::string>> captures);

// "npu-smi info -t board -i 0"
std::string command_text(const std::vector<std::string>& argv);

}  // namespace npu_doctor::checks
