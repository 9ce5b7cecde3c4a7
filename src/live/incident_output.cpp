#include "live/incident_output.hpp"

#include <unistd.h>

#include <cstdlib>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/temp_files.hpp"
#include "diagnosis/render.hpp"
#include "npu_doctor/probe.hpp"
#include "render/terminal_style.hpp"
#include "npu_doctor/ui_words.hpp"

namespace npu_doctor::live {

std::string utc_iso8601(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void render_incident_text(const WatchIncident& incident, const RenderOptions& options, std::ostream& out) {
  const render_detail::TerminalStyle st{options.color};
  std::string files;
  for (const auto& in : incident.report.inputs) files += (files.empty() ? "" : ", ") + in.path;
  out << st.bold("== " + std::string(ui::word(ui::Key::incident_heading, options.lang)) + " " +
                 std::to_string(incident.number) + "  " + utc_iso8601(incident.detected))
      << "  " << st.dim(files) << "\n";
  render_diagnosis_text(incident.report, options, out);
  out << "\n";
}

std::string incident_json_line(const WatchIncident& incident, const RenderOptions& options, const std::string& host) {
  std::ostringstream doc;
  render_diagnosis_json(incident.report, RenderOptions{options.lang, false}, doc);
  const auto diagnosis = nlohmann::ordered_json::parse(doc.str());
  nlohmann::ordered_json j;
  j["schema"] = "npu-doctor/incident/v1";
  j["incident"] = incident.number;
  j["detected_at"] = utc_iso8601(incident.detected);
  j["host"] = host;
  for (const auto& [k, v] : diagnosis.items()) {
    if (k != "schema") j[k] = v;
  }
  return j.dump();
}

bool run_incident_hook(const std::string& command, const WatchIncident& incident, const std::string& json,
                       std::chrono::milliseconds timeout, std::ostream& err) {
  std::string path = temporary_directory() + "/npu-doctor-incident-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd < 0) {
    err << "npu-doctor: watch: --exec: cannot create a temporary file in " << path << "\n";
    return false;
  }
  ::close(fd);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << json << "\n";
  CommandOptions o;
  o.timeout = timeout;
  o.env["NPU_DOCTOR_INCIDENT_JSON"] = path;
  o.env["NPU_DOCTOR_INCIDENT"] = std::to_string(incident.number);
  if (const Finding* root = incident.report.root_finding()) {
    o.env["NPU_DOCTOR_RULE"] = root->entry->id;
    o.env["NPU_DOCTOR_CATEGORY"] = std::string(to_string(root->entry->category));
  }
  // The shell reads the command after pointing its stdin at the incident.
  const CommandResult r = run_command({"/bin/sh", "-c", "exec <\"$NPU_DOCTOR_INCIDENT_JSON\" || exit 126\n" + command}, o);
  ::unlink(path.c_str());
  if (r.ok()) return true;
  err << "npu-doctor: watch: --exec for incident " << incident.number << ": " << r.describe();
  const std::string first = r.err.substr(0, r.err.find('\n'));
  if (!first.empty()) err << ": " << first.substr(0, 300);
  err << "\n";
  return false;
}

}  // namespace npu_doctor::live
