#pragma once
// Helpers for the hccl, net and isolate tests: their fixtures, a scoped change of this
// process's environment (PATH with stand-in tools first), and executable stand-in scripts.
#include <filesystem>
#include <optional>
#include <string>

#include "npu_doctor/finding.hpp"

namespace npu_doctor::hccl::testing {

// tests/hccl/fixtures/<relative>
std::string fixture(const std::string& relative);

// Sets (or unsets, with nullopt) a variable of this process until the object goes away.
class ScopedEnvVar {
 public:
  ScopedEnvVar(std::string name, std::optional<std::string> value);
  ~ScopedEnvVar();
  ScopedEnvVar(const ScopedEnvVar&) = delete;
  ScopedEnvVar& operator=(const ScopedEnvVar&) = delete;

 private:
  std::string name_;
  std::optional<std::string> old_;
};

// PATH with `dir` in front, for stand-in tools (the spawned npu-doctor inherits it).
class ScopedPathPrefix {
 public:
  explicit ScopedPathPrefix(const std::filesystem::path& dir);

 private:
  ScopedEnvVar path_;
};

// Writes an executable shell script `dir/name` with `body` (a "#!/bin/sh" line is added).
std::filesystem::path write_script(const std::filesystem::path& dir, const std::string& name, const std::string& body);

// The number of findings of `rule` in a JSON report's "findings".
template <typename Json>
std::size_t count_rule(const Json& report, const std::string& rule) {
  std::size_t n = 0;
  for (const auto& f : report["findings"]) {
    if (f["rule"] == rule) ++n;
  }
  return n;
}

// The finding of entry `id` in a report's findings (EnvReport, HccnReport, HcclTestReport...),
// or nullptr.
template <typename Report>
const Finding* find(const Report& r, const std::string& id) {
  for (const auto& f : r.findings) {
    if (f.entry->id == id) return &f;
  }
  return nullptr;
}

// The value `key` captured in `e`, or "" when it has none.
std::string capture(const Evidence& e, const std::string& key);

}  // namespace npu_doctor::hccl::testing
