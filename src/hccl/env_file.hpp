#pragma once
// One process's or node's environment as a user hands it to `hccl env`: `env` output
// (NAME=value lines), shell exports (`export NAME=value`, `declare -x NAME="value"`),
// /proc/<pid>/environ (NUL-separated), or a capture written by `hccl env --capture`.
// Pure: text in, variables with their line numbers out.
#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace npu_doctor::hccl {

enum class EnvFormat { env, exports, environ, capture };
std::string_view to_string(EnvFormat f);

struct EnvVar {
  std::string name;
  std::string value;
  std::size_t line = 0;  // 1-based line (environ: entry number)
  std::string text;      // the line as written, for evidence
};

struct EnvFile {
  std::string path;
  EnvFormat format = EnvFormat::env;
  std::vector<EnvVar> vars;       // in file order; a name assigned twice keeps the last
  std::size_t others = 0;         // assignments of variables left out by parse_env_file's `keep`
  std::string host;               // from a capture header ("host=node-1"), else empty
  std::size_t skipped_lines = 0;  // lines that are neither assignments nor comments

  const EnvVar* find(std::string_view name) const;
  // The variables the file assigns: those kept, and the assignments of the others.
  std::size_t variable_count() const { return vars.size() + others; }
};

// nullopt (with `error`) when the text has no assignment at all or is binary. `keep` (when
// given) says which variables to keep; the others are only counted, so a dump of hundreds of
// thousands of variables costs no more memory than the few a check reads.
std::optional<EnvFile> parse_env_file(std::string path, std::string_view text, std::string* error = nullptr,
                                      const std::function<bool(std::string_view)>& keep = nullptr);

// The variables `hccl env --capture` keeps: what launchers and HCCL read (HCCL_*,
// ASCEND_*, RANK*, WORLD_SIZE, MASTER_*, LOCAL_*, NODE_RANK ...); nothing else, so that
// secrets in the environment never end up in a shared file.
bool is_captured_variable(std::string_view name);

// The capture file: a header naming host, source and time, then NAME=value lines (sorted;
// values with newlines are escaped as in `declare -x`).
std::string format_env_capture(const std::map<std::string, std::string>& env, const std::string& host,
                               const std::string& source, const std::string& time);

}  // namespace npu_doctor::hccl
