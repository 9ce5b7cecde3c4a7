#pragma once
// What the readers of the profiling files add up while streaming rows; the analyzer turns
// it into a ProfileReport. Sizes grow with operator types, devices and ranks only.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/input_source.hpp"

#include "profile.hpp"

namespace npu_doctor::profile_detail {

// Time span and idle gaps of the tasks of one device in one file, for the time split
// derived from task rows (only exact while the rows come in start-time order).
struct DeviceSpan {
  double first_start = 0;
  double last_start = 0;
  double min_start = 0;
  double max_end = 0;
  double busy_end = 0;   // end of the busy interval covering the last rows
  double gaps = 0;       // idle time between busy intervals
  bool started = false;
  bool ordered = true;
};

// Operator rows of one kind of file (op_summary, kernel_details or op_statistic).
struct OpTable {
  std::map<std::pair<std::string, std::string>, OpStat> by_type;  // (type, task type)
  std::map<std::string, DeviceSpan> spans;                        // "<file>#<device>"
  double compute_us = 0;
  double communication_us = 0;
  uint64_t dynamic_tasks = 0;
  uint64_t static_tasks = 0;
  uint64_t files = 0;
};

struct StepTotals {
  double computing = 0, communication = 0, overlapped = 0, free = 0;
  uint64_t steps = 0;
};

struct CommTotals {
  double wait_ms = 0, transit_ms = 0, sync_ms = 0;
};

struct Accumulator {
  std::map<std::string, OpTable> tables;  // by kind
  std::optional<StepTotals> step_trace;   // step_trace_time.csv (all files summed)
  std::map<std::string, RankTime> ranks;  // cluster_step_trace_time.csv, by rank id
  std::map<std::string, CommTotals> comm_total_op;  // cluster_communication.json "Total Op Info"
  std::map<std::string, CommTotals> comm_ops;       // the same summed over single operators
  CompileSigns compile;
  std::vector<ColumnProblem> column_problems;
};

// Normalized task type: upper case, blanks to '_' ("AI Core" -> "AI_CORE"), "HCCL" and
// "COMMUNICATION" kept; empty -> "UNKNOWN".
std::string normalize_task_type(std::string_view raw);

// Collects cells that could not be read, one ColumnProblem per (file, column, problem).
class ColumnIssues {
 public:
  ColumnIssues(std::string path, std::vector<ColumnProblem>& sink) : path_(std::move(path)), sink_(sink) {}
  void missing(const std::string& column);
  void bad(const std::string& column, uint64_t line, std::string_view cell);
  void short_row(uint64_t line, std::size_t fields, std::size_t expected);
  void flush();  // appends the bad-cell and short-row problems to the sink

 private:
  std::string path_;
  std::vector<ColumnProblem>& sink_;
  std::map<std::string, ColumnProblem> bad_;
  ColumnProblem short_{};
};

// The readers: each streams one file into the accumulator and fills the report's
// status/note/rows. `path` is the display path.
void read_op_rows(ByteStream& in, const std::string& path, const std::string& kind, Accumulator& acc,
                  ProfileInput& input);
void read_op_statistic(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input);
void read_step_trace(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input);
void read_cluster_step_trace(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input);
void read_cluster_communication(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input);
void read_api_statistic(ByteStream& in, const std::string& path, Accumulator& acc, ProfileInput& input);

}  // namespace npu_doctor::profile_detail
