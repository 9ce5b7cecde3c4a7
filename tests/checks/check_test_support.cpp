#include "checks/check_test_support.hpp"

#include <cstdlib>
#include <fstream>

#include "support/test_support.hpp"

namespace npu_doctor::checks::testing {

std::string fixture_dir(const std::string& machine) {
  if (machine.starts_with('/')) return machine;
  return std::string(NPU_DOCTOR_CHECK_FIXTURES) + "/" + machine;
}

std::string copy_machine(const std::string& machine, const std::filesystem::path& dest) {
  namespace fs = std::filesystem;
  const fs::path from = fixture_dir(machine);
  fs::copy(from, dest, fs::copy_options::recursive | fs::copy_options::copy_symlinks | fs::copy_options::overwrite_existing);
  for (const auto& e : fs::directory_iterator(dest / "bin")) {
    if (!e.is_symlink()) continue;
    const fs::path target = fs::read_symlink(e.path());
    if (target.is_absolute()) continue;
    fs::remove(e.path());
    fs::create_symlink(fs::weakly_canonical(from / "bin" / target), e.path());
  }
  return dest.string();
}
std::string machine_root(const std::string& machine) { return fixture_dir(machine) + "/root"; }
std::string machine_bin(const std::string& machine) { return fixture_dir(machine) + "/bin"; }

std::map<std::string, std::string> machine_env(const std::string& machine) {
  std::map<std::string, std::string> env;
  std::ifstream in(fixture_dir(machine) + "/env");
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (eq != std::string::npos) env[line.substr(0, eq)] = line.substr(eq + 1);
  }
  env["PATH"] = machine_bin(machine) + ":/usr/bin:/bin";
  return env;
}

const std::vector<std::string>& check_variables() {
  static const std::vector<std::string> vars = {
      "ASCEND_TOOLKIT_HOME", "ASCEND_HOME_PATH", "ASCEND_OPP_PATH", "LD_LIBRARY_PATH", "ASCEND_RT_VISIBLE_DEVICES",
      "ASCEND_VISIBLE_DEVICES", "HOME", "PATH"};
  return vars;
}

SystemProbe machine_probe(const std::string& machine, std::chrono::milliseconds timeout) {
  CommandOptions o;
  o.timeout = timeout;
  SystemProbe probe(machine_root(machine), o);
  const auto env = machine_env(machine);
  for (const auto& v : check_variables()) {
    const auto it = env.find(v);
    probe.set_env(v, it == env.end() ? std::nullopt : std::optional<std::string>(it->second));
  }
  for (const auto& [k, v] : env) probe.set_env(k, v);
  return probe;
}

CheckReport check_machine(const std::string& machine, CheckOptions options, std::chrono::milliseconds timeout) {
  const SystemProbe probe = machine_probe(machine, timeout);
  options.timeout = timeout;
  if (options.identity.origin.empty()) options.identity.origin = "test (root)";
  return run_checks(probe, npu_doctor::testing::builtin_kb(), CompatibilityTable::builtin(), options);
}

FileInfo StatOverrideProbe::stat(const std::string& path) const {
  if (auto it = stats_.find(path); it != stats_.end()) return it->second;
  return base_.stat(path);
}

ScopedEnv::ScopedEnv(const std::map<std::string, std::optional<std::string>>& vars) {
  for (const auto& [k, v] : vars) {
    const char* old = std::getenv(k.c_str());
    saved_[k] = old != nullptr ? std::optional<std::string>(old) : std::nullopt;
    if (v) ::setenv(k.c_str(), v->c_str(), 1);
    else ::unsetenv(k.c_str());
  }
}

ScopedEnv::~ScopedEnv() {
  for (const auto& [k, v] : saved_) {
    if (v) ::setenv(k.c_str(), v->c_str(), 1);
    else ::unsetenv(k.c_str());
  }
}

std::map<std::string, std::optional<std::string>> machine_process_env(const std::string& machine) {
  std::map<std::string, std::optional<std::string>> vars;
  for (const auto& v : check_variables()) vars[v] = std::nullopt;
  for (const auto& [k, v] : machine_env(machine)) vars[k] = v;
  return vars;
}

std::vector<std::string> finding_ids(const StepResult& step) {
  std::vector<std::string> ids;
  for (const auto& f : step.findings) ids.push_back(f.entry->id);
  return ids;
}

const StepResult* step_of(const CheckReport& report, StepId id) {
  for (const auto& s : report.steps) {
    if (s.id == id) return &s;
  }
  return nullptr;
}

}  // namespace npu_doctor::checks::testing
