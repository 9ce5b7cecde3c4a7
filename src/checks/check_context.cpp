#include "checks/check_context.hpp"

#include <algorithm>

#include "checks/proc_files.hpp"

namespace npu_doctor::checks {

CheckContext::CheckContext(const Probe& probe, const KnowledgeBase& kb, const CompatibilityTable& table,
                           const CheckOptions& options)
    : probe_(probe), kb_(kb), table_(table), options_(options) {}

const std::optional<std::string>& CheckContext::file(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) it = files_.emplace(path, probe_.read_file(path)).first;
  return it->second;
}

const CommandResult& CheckContext::run(const std::vector<std::string>& argv) {
  auto it = commands_.find(argv);
  if (it != commands_.end()) return it->second;
  CommandResult r;
  if (!argv.empty() && hung_tools_.count(argv[0]) != 0) {
    r.error = argv[0] + " was not run again: it did not answer before";
  } else {
    r = probe_.run(argv);
    if (r.timed_out && !argv.empty()) hung_tools_.insert(argv[0]);
  }
  return commands_.emplace(argv, std::move(r)).first->second;
}

namespace {

std::string under(std::string base, std::string_view leaf) {
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  return base + "/" + std::string(leaf);
}

}  // namespace

std::string CheckContext::driver_dir() {
  if (!install_info_) install_info_ = parse_ascend_install_info(file("/etc/ascend_install.info").value_or(""));
  const std::string& base = install_info_->driver_install_path;
  return under(base.starts_with('/') ? base : "/usr/local/Ascend", "driver");
}

std::string CheckContext::firmware_dir() {
  if (!install_info_) install_info_ = parse_ascend_install_info(file("/etc/ascend_install.info").value_or(""));
  std::string base = install_info_->firmware_install_path;
  if (!base.starts_with('/')) base = install_info_->driver_install_path;
  return under(base.starts_with('/') ? base : "/usr/local/Ascend", "firmware");
}

const ReadFile<DriverVersionInfo>& CheckContext::driver_file() {
  if (!driver_file_) {
    ReadFile<DriverVersionInfo> f;
    f.path = driver_dir() + "/version.info";
    f.text = file(f.path);
    if (f.text) f.parsed = parse_driver_version_info(*f.text, &f.error);
    driver_file_ = std::move(f);
  }
  return *driver_file_;
}

const ReadFile<FirmwareVersionInfo>& CheckContext::firmware_file() {
  if (!firmware_file_) {
    ReadFile<FirmwareVersionInfo> f;
    f.path = firmware_dir() + "/version.info";
    f.text = file(f.path);
    if (f.text) f.parsed = parse_firmware_version_info(*f.text, &f.error);
    firmware_file_ = std::move(f);
  }
  return *firmware_file_;
}

const NpuSmiView& CheckContext::npu_smi() {
  if (!npu_smi_) {
    NpuSmiView v;
    const char* tool = "npu-smi";
    v.on_path = probe_.find_program(tool).has_value();
    if (v.on_path) {
      v.result = run({tool, "info"});
      if (v.result.ok()) v.info = parse_npu_smi_info(v.result.out, &v.parse_error);
    }
    npu_smi_ = std::move(v);
  }
  return *npu_smi_;
}

std::optional<Version> CheckContext::driver_version() {
  if (const auto& f = driver_file(); f.parsed) return Version::parse(f.parsed->version);
  if (const auto& smi = npu_smi(); smi.usable() && !smi.info->driver_version.empty()) {
    return Version::parse(smi.info->driver_version);
  }
  return std::nullopt;
}

bool CheckContext::driver_present() {
  if (driver_file().text || npu_smi().usable() || probe_.stat("/dev/davinci_manager").exists) return true;
  if (const auto& m = modules()) {
    return std::any_of(m->begin(), m->end(), [](const std::string& n) { return is_ascend_driver_module(n); });
  }
  return false;
}

std::vector<int> CheckContext::davinci_nodes() {
  std::vector<int> ids;
  for (const auto& name : probe_.list_dir("/dev")) {
    if (!name.starts_with("davinci") || name.size() == 7) continue;
    if (auto n = to_integer(std::string_view(name).substr(7)); n && *n >= 0 && *n < 4096) {
      ids.push_back(static_cast<int>(*n));
    }
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

const std::optional<std::vector<std::string>>& CheckContext::modules() {
  if (!modules_) {
    const auto& text = file("/proc/modules");
    modules_ = text ? std::optional<std::vector<std::string>>(parse_proc_modules(*text)) : std::nullopt;
  }
  return *modules_;
}

void CheckContext::raise(StepResult& step, EntryId id, Evidence evidence) {
  step.findings.push_back(make_finding(kb_.entry(id), std::move(evidence)));
}

void CheckContext::raise(StepResult& step, EntryId id, std::vector<Evidence> evidence) {
  if (evidence.empty()) evidence.emplace_back();
  raise(step, id, evidence.front());
  for (std::size_t i = 1; i < evidence.size(); ++i) step.findings.back().evidence.push_back(std::move(evidence[i]));
}

Evidence evidence_line(std::string where, std::size_t line, std::string text) {
  Evidence e;
  e.path = std::move(where);
  e.line = line;
  e.text = std::move(text);
  return e;
}

Evidence evidence_at(std::string where, const NumberedLine& line) {
  return evidence_line(std::move(where), line.number, line.text);
}

Evidence evidence_env(const std::string& name, const std::optional<std::string>& value) {
  return evidence_line("$" + name, 0, value ? name + "=" + *value : name + " (unset)");
}

Evidence evidence_command_failure(const std::string& command, const CommandResult& r) {
  // The first thing it printed (stderr first) says most about why.
  std::string first;
  for (const std::string* s : {&r.err, &r.out}) {
    for (std::string_view l : split(*s, '\n')) {
      if (!trim(l).empty()) {
        first = std::string(trim(l)).substr(0, 300);
        break;
      }
    }
    if (!first.empty()) break;
  }
  return evidence_line(command, 0, r.describe() + (first.empty() ? "" : ": " + first));
}

Evidence with(Evidence e, std::vector<std::pair<std::string, std::string>> captures) {
  for (auto& c : captures) e.captures.push_back(std::move(c));
  return e;
}

std::string command_text(const std::vector<std::string>& argv) {
  std::string out;
  for (const auto& a : argv) {
    if (!out.empty()) out += ' ';
    out += a.find('\n') != std::string::npos ? "<program>" : a;
  }
  return out;
}

}  // namespace npu_doctor::checks
