#pragma once
// Helpers for the check tests: the fixture machines (tests/checks/fixtures/<machine>/:
// root/ is the file system, bin/ holds stand-in tools, env the process environment),
// probes over them, and a scoped change of this process's environment for the CLI tests.
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "checks/check_runner.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::checks::testing {

// A machine is a fixture name ("healthy-910b") or the absolute path of a copy.
std::string fixture_dir(const std::string& machine);  // tests/checks/fixtures/<machine>
std::string machine_root(const std::string& machine);
std::string machine_bin(const std::string& machine);
// The machine's env file, plus PATH = its bin/ first, then /usr/bin:/bin.
std::map<std::string, std::string> machine_env(const std::string& machine);

// Copies a fixture machine into `dest` (stand-in links still work there) so a test can
// change a file; returns the copy's path, usable wherever a machine name is.
std::string copy_machine(const std::string& machine, const std::filesystem::path& dest);

// Every variable the checks read; a machine's probe unsets those its env file lacks, so
// the developer's own ASCEND_* settings never leak into a test.
const std::vector<std::string>& check_variables();

// A SystemProbe over the machine's root with its environment.
SystemProbe machine_probe(const std::string& machine, std::chrono::milliseconds timeout = std::chrono::seconds(10));

// Runs the steps over a machine with the given options (identity: root unless set).
CheckReport check_machine(const std::string& machine, CheckOptions options = {},
                          std::chrono::milliseconds timeout = std::chrono::seconds(10));

// A probe whose stat() answers from a table for some paths (owner, group, mode of device
// nodes cannot be stored in git), and asks the wrapped probe for everything else.
class StatOverrideProbe final : public Probe {
 public:
  StatOverrideProbe(const Probe& base, std::map<std::string, FileInfo> stats) : base_(base), stats_(std::move(stats)) {}
  std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes) const override {
    return base_.read_file(path, max_bytes);
  }
  std::vector<std::string> list_dir(const std::string& path) const override { return base_.list_dir(path); }
  FileInfo stat(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override { return base_.env(name); }
  CommandResult run(const std::vector<std::string>& argv) const override { return base_.run(argv); }
  std::string describe_root() const override { return base_.describe_root(); }

 private:
  const Probe& base_;
  std::map<std::string, FileInfo> stats_;
};

// Sets (or unsets, with nullopt) variables of this process and restores them after.
class ScopedEnv {
 public:
  explicit ScopedEnv(const std::map<std::string, std::optional<std::string>>& vars);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::map<std::string, std::optional<std::string>> saved_;
};

// The process environment of a machine for running the real binary: its env file and
// PATH, every other check variable unset.
std::map<std::string, std::optional<std::string>> machine_process_env(const std::string& machine);

// The ids of the findings of one step, in order.
std::vector<std::string> finding_ids(const StepResult& step);
const StepResult* step_of(const CheckReport& report, StepId id);

}  // namespace npu_doctor::checks::testing
