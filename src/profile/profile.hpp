#pragma once
// `profile` as a library call: msprof / torch_npu profiler / msprof-analyze CSV outputs ->
// operator hot spots, time split, per-rank communication wait, dynamic-shape and compile
// signs, and findings raised from the knowledge base (kb/compile_profile.yaml).
// Files are streamed row by row; memory grows with the number of operator types and
// ranks, never with the number of rows. The JSON form is docs/json-profile-v1.md.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "npu_doctor/finding.hpp"
#include "npu_doctor/input_report.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor {

struct ProfileOptions {
  std::vector<std::string> paths;  // files, directories (PROF_*, *_ascend_pt, cluster_analysis_output), archives, "-"
  std::size_t top = 10;            // operators listed per ranking
};

// Thresholds, documented in docs/profile.md.
inline constexpr double kWaitRatioThreshold = 0.2;       // communication wait above this: a bottleneck
inline constexpr double kSlowRankSpread = 0.1;           // wait spread between ranks that names one slow rank
inline constexpr double kAiCpuShareThreshold = 0.01;     // AI CPU share of compute time raising a finding
inline constexpr double kFreeShareThreshold = 0.2;       // device idle share raising a finding
inline constexpr double kCompileShareThreshold = 0.05;   // op compile time share raising a finding

// One operator type on one kind of core: the unit of the rankings.
struct OpStat {
  std::string type;       // OP Type / Type
  std::string task_type;  // AI_CORE, AI_VECTOR_CORE, MIX_AIC, MIX_AIV, AI_CPU, COMMUNICATION, ... ("UNKNOWN")
  uint64_t count = 0;
  double total_us = 0;
  double min_us = 0;
  double max_us = 0;
  double share = 0;  // of the total task time of all operators
  double avg_us() const { return count > 0 ? total_us / static_cast<double>(count) : 0; }
  bool is_ai_cpu() const { return task_type == "AI_CPU"; }
  bool is_communication() const;
};

// A column that could not be read in a file (missing, or cells that are not numbers).
struct ColumnProblem {
  std::string path;
  std::string column;   // the name looked for (first alias)
  std::string problem;  // "missing", "non-numeric", "short rows"
  uint64_t rows = 0;    // rows affected
  uint64_t first_line = 0;
  std::string example;  // the first bad cell
};

// One profiling file that was read (or not).
struct ProfileInput {
  InputReport report;        // path, bytes, lines (records), status, note
  std::string kind;          // op_summary, kernel_details, op_statistic, step_trace_time,
                             // cluster_step_trace_time, cluster_communication, api_statistic
  uint64_t rows = 0;         // data rows used
};

// Where the step time goes. From step_trace_time.csv (one rank), the mean of the ranks of
// cluster_step_trace_time.csv, or derived from the operator rows (approximate: compute and
// communication are sums of task durations and may overlap; free is device idle time).
struct TimeSplit {
  std::string source;  // "step_trace_time", "cluster_step_trace_time", "tasks"
  double compute_us = 0;
  double communication_us = 0;  // not overlapped by compute
  double overlapped_us = 0;     // communication hidden under compute
  double free_us = 0;
  double total_us = 0;          // compute + communication (not overlapped) + free
  bool free_known = true;       // false when task rows were not in time order
};

struct RankTime {
  std::string rank;
  std::string path;
  uint64_t line = 0;
  double computing_us = 0;
  double communication_us = 0;  // not overlapped
  double free_us = 0;
  double step_us = 0;
  double exposed_share = 0;              // communication (not overlapped) / step
  std::optional<double> wait_ratio;      // wait / (wait + transit), cluster_communication.json
  std::optional<double> sync_ratio;      // synchronization / (synchronization + transit)
  double wait() const { return wait_ratio.value_or(exposed_share); }
};

struct CommunicationVerdict {
  std::string basis;       // "wait_ratio" (cluster_communication.json) or "exposed_share" (step trace)
  std::string max_rank;    // rank that waits most
  double max_wait = 0;
  std::string min_rank;    // rank that waits least
  double min_wait = 0;
  bool bottleneck = false;  // max_wait > kWaitRatioThreshold
  std::string slow_rank;    // the rank the others wait for (empty when the links are slow)
  bool slow_link = false;   // every rank waits alike: bandwidth or the collective itself
};

struct CompileSigns {
  uint64_t dynamic_tasks = 0;  // OP State = dynamic
  uint64_t static_tasks = 0;   // OP State = static
  uint64_t compile_calls = 0;  // api_statistic rows whose API name has "compile"
  double compile_us = 0;
  std::vector<std::pair<std::string, double>> compile_apis;  // API name -> time
  std::optional<double> compile_share;  // of the step (or task) time
};

struct ProfileReport {
  std::vector<ProfileInput> inputs;
  std::vector<InputReport> skipped;  // paths that are not profiling files we read, and why
  std::vector<ColumnProblem> column_problems;
  std::string ops_source;            // kind the rankings come from
  std::vector<OpStat> ops;           // every (type, task type), by total time, descending
  std::size_t top = 10;
  double total_task_us = 0;
  double compute_us = 0;
  double communication_us = 0;
  double ai_cpu_us = 0;
  std::optional<TimeSplit> time_split;
  std::vector<RankTime> ranks;
  std::optional<CommunicationVerdict> communication;
  CompileSigns compile;
  std::vector<Finding> findings;
  std::string kb_version;

  bool any_data() const;
  std::vector<const OpStat*> top_by_total() const;
  std::vector<const OpStat*> top_by_average() const;
};

// Reads the inputs and raises findings (entries profile.* of `kb`; missing entries are
// skipped, never a crash). Never throws on bad input: problems are in the report.
ProfileReport analyze_profile(const ProfileOptions& options, const KnowledgeBase& kb);

void render_profile_text(const ProfileReport& report, const RenderOptions& options, std::ostream& out);
void render_profile_json(const ProfileReport& report, const RenderOptions& options, std::ostream& out);
// A self-contained page (inline CSS and SVG bar charts, no scripts, no network).
void render_profile_html(const ProfileReport& report, const RenderOptions& options, std::ostream& out);

}  // namespace npu_doctor
