#pragma once
// `npu-doctor bundle` as a library call: collect the bug-report checklist of this
// machine (or a tree standing in for it), redacted, into one .tar.gz with a manifest.
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bundle/log_selection.hpp"
#include "checks/identity.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/vocabulary.hpp"

namespace npu_doctor::bundle {

inline constexpr const char* kBundleSchema = "npu-doctor/bundle/v1";
inline constexpr const char* kManifestSchema = "npu-doctor/bundle-manifest/v1";

struct BundleOptions {
  std::string output;                       // the .tar.gz to write
  std::string root = "/";                   // files under this root (tests: a fixture tree)
  std::vector<std::string> log_paths;       // --logs
  bool default_logs = true;                 // also the default Ascend log locations
  std::optional<std::int64_t> since_seconds;  // --since: logs modified within this many seconds
  std::uint64_t max_size = 200ull << 20;    // --max-size: uncompressed bytes of all members
  std::chrono::milliseconds timeout{10000};  // per external command
  bool anonymize = false;
  bool run_check = true;
  bool run_diagnose = true;
  std::map<std::string, std::string> environment;  // the process environment to report
  checks::Identity identity;                        // who the check is made for
  Lang lang = Lang::en;
  std::string cache_dir;                    // compiled pattern cache for the diagnosis
};

struct BundleResult {
  bool written = false;
  std::string error;                   // why it was not written (output not writable ...)
  std::string path;                    // the archive
  std::size_t members = 0;
  std::uint64_t uncompressed_bytes = 0;
  std::uint64_t archive_bytes = 0;
  std::vector<SkippedItem> skipped;
  std::map<std::string, std::size_t> redactions;  // per rule
  double seconds = 0;
};

// Never throws for anything the machine returns; a missing tool, an unreadable file or a
// hung command is a `skipped` item and the bundle still completes.
BundleResult collect_bundle(const BundleOptions& options, const KnowledgeBase& kb);

// The variables worth reporting for an NPU job (ASCEND_*, HCCL_*, RANK, MASTER_* ...).
bool relevant_variable(const std::string& name);

}  // namespace npu_doctor::bundle
