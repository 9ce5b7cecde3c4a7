#include "isolate/command_runner.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "npu_doctor/probe.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::isolate {
namespace {

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
  return s;
}

// A directory removed when the last run that needed it is done.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "npu-doctor-isolate-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) != nullptr) path = tmpl;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

}  // namespace

std::vector<std::string> expand_placeholders(const std::vector<std::string>& argv, const std::vector<int>& devices) {
  std::vector<std::string> out;
  for (const auto& a : argv) {
    std::string s = replace_all(a, "{devices}", device_list(devices));
    s = replace_all(s, "{n}", std::to_string(devices.size()));
    s = replace_all(s, "{first}", devices.empty() ? "" : std::to_string(devices.front()));
    out.push_back(std::move(s));
  }
  return out;
}

std::string last_lines(const std::string& text, std::size_t n) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = sanitize_line(utf8_prefix(std::string_view(text).substr(start, end - start), 400));
    if (!line.empty()) lines.push_back(std::move(line));
    start = end + 1;
  }
  std::string out;
  for (std::size_t i = lines.size() > n ? lines.size() - n : 0; i < lines.size(); ++i) out += lines[i] + "\n";
  return out;
}

Runner make_command_runner(CommandRunnerOptions options) {
  auto scratch = std::make_shared<ScratchDir>();
  auto counter = std::make_shared<int>(0);
  return [options = std::move(options), scratch, counter](const std::vector<int>& devices, Phase phase) {
    RunOutcome o;
    CommandOptions co;
    co.timeout = options.timeout;
    co.env["ASCEND_RT_VISIBLE_DEVICES"] = device_list(devices);
    const CommandResult res = run_command(expand_placeholders(options.command, devices), co);
    o.started = res.started;
    o.passed = res.ok();
    o.timed_out = res.timed_out;
    o.exit_code = res.exit_code;
    o.signal = res.signal;
    o.seconds = res.seconds;
    o.describe = res.describe();
    const std::string combined = res.out + (res.out.empty() || res.err.empty() ? "" : "\n") + res.err;
    o.tail = last_lines(combined, options.tail_lines);
    if (!res.started) return o;
    ++*counter;
    // Keep the whole output where the user asked, or briefly where the diagnosis can read it.
    std::string dir = options.log_dir;
    if (dir.empty() && !o.passed && options.diagnoser != nullptr) dir = scratch->path;
    if (dir.empty()) return o;
    char name[64];
    std::snprintf(name, sizeof name, "run-%02d-%s-", *counter, std::string(to_string(phase)).c_str());
    std::string devs = device_list(devices);
    for (auto& c : devs) c = c == ',' ? '_' : c;
    const std::string path = dir + "/" + name + devs + ".log";
    errno = 0;
    std::ofstream saved(path, std::ios::binary);
    saved << "# " << "ASCEND_RT_VISIBLE_DEVICES=" << device_list(devices) << "  " << o.describe << "\n" << combined;
    saved.close();
    if (!saved) {
      // The run's verdict stands; say why its output is not where the user will look.
      o.describe += " (its output could not be saved to " + path + ": " + std::strerror(errno ? errno : EIO) + ")";
      return o;
    }
    if (!options.log_dir.empty()) o.log_path = path;
    if (!o.passed && options.diagnoser != nullptr) {
      DiagnoseOptions d;
      d.paths = {path};
      d.jobs = 1;
      const DiagnosisReport report = options.diagnoser->run(d);
      if (const Finding* f = report.root_finding()) {
        o.diagnosis = f->entry;
        o.diagnosis_code = f->code;
      }
    }
    if (options.log_dir.empty()) std::filesystem::remove(path);
    return o;
  };
}

}  // namespace npu_doctor::isolate
