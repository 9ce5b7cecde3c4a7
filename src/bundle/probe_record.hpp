#pragma once
// Record and replay of a Probe, so that `check` on a bundle gives the verdict it gave on
// the live host by construction: bundle runs the real check steps through a
// RecordingProbe (every file read, directory listing, stat, variable, program lookup
// and command, redacted before anything is kept), and `check --root BUNDLE` answers the
// same questions from the record with a ReplayProbe. A question the record cannot
// answer gets "missing" / "not found".
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bundle/redaction.hpp"
#include "checks/identity.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::bundle {

inline constexpr const char* kProbeRecordSchema = "npu-doctor/probe-record/v1";

struct ProbeRecord {
  std::string root = "/";       // the live probe's root (what describe_root() said)
  checks::Identity identity;    // who the check was made for
  std::map<std::string, std::optional<std::string>> files;  // path -> content read (nullopt: missing)
  std::map<std::string, std::vector<std::string>> dirs;
  std::map<std::string, FileInfo> stats;
  std::map<std::string, std::optional<std::string>> env;
  std::map<std::string, std::optional<std::string>> programs;  // find_program answers
  std::map<std::vector<std::string>, CommandResult> commands;

  // JSON with file contents left out (they live under sysroot/<path> in the bundle).
  std::string to_json() const;
  // From the JSON and a directory holding sysroot/; nullopt and `error` when malformed.
  static std::optional<ProbeRecord> from_json(const std::string& json, const std::string& bundle_dir, std::string& error);
};

class RecordingProbe final : public Probe {
 public:
  RecordingProbe(const Probe& live, const Redactor& redactor) : live_(live), redactor_(redactor) {
    raw_.root = live.describe_root();
  }

  std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes = 1u << 20) const override;
  std::vector<std::string> list_dir(const std::string& path) const override;
  FileInfo stat(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  CommandResult run(const std::vector<std::string>& argv) const override;
  std::string describe_root() const override { return live_.describe_root(); }
  std::optional<std::string> find_program(const std::string& name) const override;

  // The record, redacted now, paths too (with --anonymize the replayed check builds its
  // paths from the redacted $HOME and must find them). Answers are kept raw until then:
  // bundle records the hardware and network commands before it has learned every
  // identifier to anonymize (host names and addresses come from their output). The live
  // answers go back to the caller unredacted: the live verdict is the normal one.
  ProbeRecord redacted_record() const;

 private:
  const Probe& live_;
  const Redactor& redactor_;
  mutable ProbeRecord raw_;
};

class ReplayProbe final : public Probe {
 public:
  explicit ReplayProbe(ProbeRecord record) : record_(std::move(record)) {}

  std::optional<std::string> read_file(const std::string& path, std::size_t max_bytes = 1u << 20) const override;
  std::vector<std::string> list_dir(const std::string& path) const override;
  FileInfo stat(const std::string& path) const override;
  std::optional<std::string> env(const std::string& name) const override;
  CommandResult run(const std::vector<std::string>& argv) const override;
  std::string describe_root() const override { return record_.root; }
  std::optional<std::string> find_program(const std::string& name) const override;

  const ProbeRecord& record() const { return record_; }

 private:
  ProbeRecord record_;
};

}  // namespace npu_doctor::bundle
