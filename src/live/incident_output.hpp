#pragma once
// What `watch` writes for an incident: a text block (its time, then the diagnosis as
// `diagnose` prints it), one JSON line (npu-doctor/incident/v1), and the --exec hook that
// gets that JSON on its stdin.
#include <chrono>
#include <ostream>
#include <string>

#include "live/watcher.hpp"
#include "npu_doctor/render_options.hpp"

namespace npu_doctor::live {

void render_incident_text(const WatchIncident& incident, const RenderOptions& options, std::ostream& out);

// One line: the diagnosis JSON with `schema` "npu-doctor/incident/v1", `incident` (its
// number), `detected_at` (UTC, ISO 8601) and `host` added.
std::string incident_json_line(const WatchIncident& incident, const RenderOptions& options, const std::string& host);

// Runs `command` with /bin/sh, the incident's JSON on stdin and in the file named by
// $NPU_DOCTOR_INCIDENT_JSON, NPU_DOCTOR_INCIDENT, NPU_DOCTOR_RULE and NPU_DOCTOR_CATEGORY
// set; killed with its process group after `timeout`. False (with the reason on `err`)
// when it failed.
bool run_incident_hook(const std::string& command, const WatchIncident& incident, const std::string& json,
                       std::chrono::milliseconds timeout, std::ostream& err);

// "2025-03-02T10:55:14Z"
std::string utc_iso8601(std::chrono::system_clock::time_point t);

}  // namespace npu_doctor::live
