#pragma once
// How npu-doctor reads a machine: files under a root ("/", a fixture tree or an unpacked
// bundle), directory listings, environment variables, and external commands run without
// a shell and with a hard timeout. Checks use only this interface, so tests run on any
// machine with a fixture root and stand-in tools; what a probe returns is parsed by pure
// functions tested on fixture text.
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace npu_doctor {

struct CommandResult {
  bool started = false;    // false: not found on PATH, not executable, or spawn failed
  bool timed_out = false;  // killed (with its process group) after the timeout
  int exit_code = -1;      // when it exited normally
  int signal = 0;          // when a signal ended it (9 after a timeout)
  std::string out;
  std::string err;
  bool truncated = false;  // output beyond the cap was discarded
  std::string error;       // why it did not start, in plain words
  double seconds = 0;

  bool ok() const { return started && !timed_out && signal == 0 && exit_code == 0; }
  // "exit status 2", "killed by signal 9", "timed out after 10 s", "not found on PATH"...
  std::string describe() const;
};

struct CommandOptions {
  std::chrono::milliseconds timeout{10000};
  std::size_t max_output = 16u << 20;                // per stream
  std::map<std::string, std::string> env;            // added to / replacing the inherited environment
  std::string path;                                  // PATH to search; empty = the process's PATH
};

// Runs argv[0] (searched on PATH unless it contains '/') in its own process group with
// LC_ALL=C, stdin from /dev/null, capturing stdout and stderr. Never hangs past the
// timeout and never throws.
CommandResult run_command(const std::vector<std::string>& argv, const CommandOptions& options);

// Kills (SIGKILL) the process group of every command run_command is waiting for. Safe
// to call from a signal handler: Ctrl-C or SIGTERM must not leave a hung tool behind
// (its own process group does not get the terminal's signal).
void kill_running_commands() noexcept;

// The absolute path of `name` on `path` (colon-separated), or nullopt.
std::optional<std::string> find_on_path(const std::string& name, const std::string& path);

struct FileInfo {
  bool exists = false;
  bool is_directory = false;
  bool is_char_device = false;
  unsigned mode = 0;  // permission bits
  unsigned uid = 0;
  unsigned gid = 0;
};

class Probe {
 public:
  virtual ~Probe() = default;
  // Paths are absolute as on the real machine ("/usr/local/Ascend/driver/version.info");
  // a probe with another root reads them under that root.
  virtual std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes = 1u << 20) const = 0;
  virtual std::vector<std::string> list_dir(const std::string& path) const = 0;  // sorted names
  virtual FileInfo stat(const std::string& path) const = 0;
  virtual std::optional<std::string> env(const std::string& name) const = 0;
  virtual CommandResult run(const std::vector<std::string>& argv) const = 0;
  virtual std::string describe_root() const = 0;  // "/" or the fixture/bundle directory
  // Where `name` would be found on this probe's PATH (a bundle answers from its record).
  virtual std::optional<std::string> find_program(const std::string& name) const;
};

// The real machine, or a directory standing in for its file system. Commands always
// run on this host (tests put stand-in executables first on PATH).
class SystemProbe final : public Probe {
 public:
  explicit SystemProbe(std::string root = "/", CommandOptions command_options = {});

  std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes = 1u << 20) const override;
  std::vector<std::string> list_dir(const std::string& path) const override;
  FileInfo stat(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  CommandResult run(const std::vector<std::string>& argv) const override;
  std::string describe_root() const override { return root_; }

  // Environment overrides (for tests and for checking another process's environment).
  void set_env(const std::string& name, std::optional<std::string> value);

 private:
  std::string map(const std::string& path) const;
  std::string root_;
  CommandOptions command_options_;
  std::map<std::string, std::optional<std::string>> env_overrides_;
};

}  // namespace npu_doctor
