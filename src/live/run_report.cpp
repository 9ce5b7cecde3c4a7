#include "live/run_report.hpp"

#include <cmath>
#include <nlohmann/json.hpp>
#include <sstream>

#include "incident_page/html_report.hpp"

namespace npu_doctor::live {
namespace {

std::string seconds_text(double s) {
  std::ostringstream o;
  o.precision(s < 10 ? 2 : 3);
  o << s << " s";
  return o.str();
}

}  // namespace

std::string shell_words(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    const bool plain = !a.empty() && a.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;!#~") == std::string::npos;
    if (plain) {
      out += a;
      continue;
    }
    out += '\'';
    for (char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string describe_ending(const std::vector<std::string>& command, const RunOutcome& o) {
  std::string s = "`" + shell_words(command) + "` ";
  if (o.killed_on_hang) {
    s += "looked hung and was ended";
    if (o.signal != 0) s += " (" + signal_name(o.signal) + ")";
  } else if (o.signal != 0) {
    s += "was killed by " + signal_name(o.signal);
  } else {
    s += "exited with status " + std::to_string(o.exit_code.value_or(0));
  }
  return s + " after " + seconds_text(o.seconds);
}

void render_run_report(const std::vector<std::string>& command, const RunOutcome& o, const std::string& format,
                       const RenderOptions& options, std::ostream& out) {
  if (format == "json") {
    std::ostringstream doc;
    render_diagnosis_json(o.report, options, doc);
    auto j = nlohmann::ordered_json::parse(doc.str());
    nlohmann::ordered_json job;
    job["command"] = command;
    job["exit_code"] = o.exit_code ? nlohmann::ordered_json(*o.exit_code) : nlohmann::ordered_json(nullptr);
    job["signal"] = o.signal != 0 ? nlohmann::ordered_json(signal_name(o.signal)) : nlohmann::ordered_json(nullptr);
    job["exit_status"] = o.exit_status();
    job["hung"] = o.hung;
    job["killed_on_hang"] = o.killed_on_hang;
    job["seconds"] = std::round(o.seconds * 1000) / 1000;
    job["plog_files"] = o.files_read;
    j["job"] = job;
    out << j.dump(2) << "\n";
  } else if (format == "markdown") {
    render_diagnosis_markdown(o.report, options, out);
  } else if (format == "html") {
    render_incident_html(o.report, HtmlAttachments{}, RenderOptions{options.lang, false}, out);
  } else {
    out << "npu-doctor: " << describe_ending(command, o) << "\n";
    render_diagnosis_text(o.report, options, out);
  }
}

}  // namespace npu_doctor::live
