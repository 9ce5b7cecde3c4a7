#pragma once
// `hccl env`: the environments of a job's nodes or ranks side by side. Finds variables
// that must agree and do not (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, HCCL settings),
// duplicate, missing and out-of-range RANKs (the seed's 210001 "rank configuration"
// case), values HCCL refuses at init, and timeouts set too low.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env_file.hpp"
#include "hccl_vars.hpp"
#include "npu_doctor/finding.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::hccl {

struct EnvFileSummary {
  std::string path;
  EnvFormat format = EnvFormat::env;
  std::string host;  // capture header or HOSTNAME
  std::size_t variables = 0;
  std::string rank;  // RANK (or RANK_ID) as written, empty when unset
};

// The files that share one value of a variable.
struct EnvValueGroup {
  std::string value;        // comparable form; empty when unset without a default
  bool set = true;          // false: unset in these files (value is the default, if any)
  std::vector<std::size_t> files;  // indexes into EnvReport::files
};

struct EnvVariableRow {
  std::string name;
  VarScope scope = VarScope::job;
  std::string default_value;
  std::vector<EnvValueGroup> groups;  // the most common value first
  bool agree() const { return groups.size() <= 1; }
};

// How the files cover one rank variable (RANK of WORLD_SIZE, RANK_ID of RANK_SIZE,
// NODE_RANK of NNODES).
struct RankCoverage {
  std::string variable;
  std::string size_variable;
  std::optional<long long> size;        // the agreed size, when every file says the same
  std::size_t files_with = 0;
  std::size_t files_without = 0;
  std::vector<long long> duplicates;    // ranks given by two or more files
  std::vector<long long> missing;       // ranks of [0, size) no file gives
  std::vector<long long> out_of_range;  // ranks >= size
};

struct InputProblem {
  std::string path;
  std::string error;
};

struct EnvReport {
  std::string kb_version;
  std::vector<EnvFileSummary> files;
  std::vector<InputProblem> unreadable;  // filled by the caller
  std::vector<EnvVariableRow> variables; // job- and node-wide variables set in any file, by name
  std::vector<RankCoverage> ranks;
  std::vector<Finding> findings;         // errors first
};

// Thresholds npu-doctor uses (docs/hccl.md).
inline constexpr long long kMinSensibleExecTimeout = 600;  // below: a checkpoint save on one rank times the others out

EnvReport check_env_files(const std::vector<EnvFile>& files, const KnowledgeBase& kb);
// The variables check_env_files reads (parse_env_file's `keep`): HCCL's and the launchers'
// (compared, validated, rank coverage) and HOSTNAME; the rest of a dump is only counted.
bool is_checked_variable(std::string_view name);

// "0-3,5,7-9"
std::string format_ranges(std::vector<long long> values);

}  // namespace npu_doctor::hccl
