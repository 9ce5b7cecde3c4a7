#pragma once
// Incidents: a log folder (~/ascend/log/debug/plog, /var/log/npu, a colleague's tarball)
// holds many runs. An incident is one failing run: the inputs of its processes and ranks,
// close in time. `diagnose` concludes a root cause per incident and never compares ranks
// across incidents (docs/incidents.md).
//
// The split needs only what the scan left per input (path, rank, host, time span), so it
// is a small library call that `diagnose`, `run` and `watch` share:
//   inputs (with their timelines) in, incidents out.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "npu_doctor/input_report.hpp"
#include "npu_doctor/input_store.hpp"
#include "npu_doctor/line_info.hpp"
#include "member_list.hpp"

namespace npu_doctor {

struct IncidentOptions {
  // Inputs further apart than this (end of one to start of the next) are separate runs.
  // Longer than HCCL's default execution timeout (1836 s), so the ranks that time out
  // waiting for a failed rank stay in its incident.
  int64_t gap_us = 3600LL * 1'000'000;
  // Inputs whose facts are sorted in memory (40 bytes each); more go through a temporary
  // file in sorted runs (ExternalSorter). Tests set it low to take that path.
  std::size_t facts_in_memory = std::size_t{1} << 16;
};

struct Incident {
  MemberList inputs;                     // indices into the inputs given, in input order (runs: member_list.hpp)
  std::optional<Timestamp> first_time;   // earliest dated line or plog start time
  std::optional<Timestamp> last_time;    // latest dated line
  std::vector<long> pids;                // from plog file names, sorted
  std::vector<int> ranks;                // sorted
  std::string job;                       // a job-* / job_* directory the inputs are under, if any
};

// Splits the scanned inputs (status ok or partial) into incidents, oldest first; inputs
// that were not scanned belong to none. Rules, in order:
//  1. inputs under different job directories (job-1234/, job_a/) are different incidents;
//  2. dated inputs (time stamps in their lines, or a plog file name's start time) are
//     swept in time order: one joins the current incident when it starts within `gap_us`
//     of the incident's end, unless the incident already holds the same rank on the same
//     host in another process (pid): that is the same job started again;
//  3. an input without any date joins the incident whose inputs share most of its
//     directory (the latest on a tie); with no dated incident, the undated inputs of a
//     job form one incident.
// One incident for all scanned inputs when nothing tells runs apart (a single log, a
// cluster's logs of one job).
std::vector<Incident> split_incidents(const InputStore& inputs, const IncidentOptions& options = {});

// A CANN log file name: plog-<pid>_<YYYYMMDDhhmmssmmm>.log (also device-<pid>_...).
struct PlogName {
  long pid = 0;
  std::optional<Timestamp> start;  // the process's log start, local time as the lines
};
std::optional<PlogName> parse_plog_name(std::string_view path);

// "2025-05-14 10:22:31" (seconds, no zone: the logs' own local time).
std::string format_time(const Timestamp& t);

}  // namespace npu_doctor
