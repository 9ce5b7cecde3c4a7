#pragma once
// Families every `-f prometheus` report has, with the same HELP and labels whatever the
// command, so that node_exporter can merge the files of several commands: the run's
// versions, its time, and its findings by category and severity.
#include <span>
#include <string>
#include <string_view>

#include "npu_doctor/finding.hpp"
#include "render/prometheus/prometheus_writer.hpp"

namespace npu_doctor::prometheus {

// `-f prometheus` (the node_exporter textfile-collector format, docs/prometheus.md): when
// and by which command the report ran.
struct RunInfo {
  std::string command;           // the `command` label: diagnose, cluster, merge, check, mem
  double timestamp_seconds = 0;  // when the report was made, Unix time
};

// The current time as Unix seconds (milliseconds kept), for RunInfo.
double now_seconds();

// npu_doctor_info and npu_doctor_last_run_timestamp_seconds.
void write_run_families(Writer& w, const RunInfo& run, std::string_view kb_version);

// npu_doctor_findings{command,category,severity}: every category and severity, 0 when
// none, so that alerts see a value rather than nothing.
void write_findings_family(Writer& w, const RunInfo& run, std::span<const Finding* const> findings);

// A 0/1 gauge per state: the Prometheus "state set" (one series is 1).
void write_state_set(Writer& w, Labels labels, std::string_view label, std::span<const std::string_view> states,
                     std::string_view current);

}  // namespace npu_doctor::prometheus
