// npu-doctor check: the environment doctor (driver, firmware, CANN, torch_npu, devices,
// NUMA). Resolves who and what to check (root, process, user, interpreter), runs the
// steps and maps the result to the documented exit codes.
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>

#include "bundle/bundle_archive.hpp"
#include "check_runner.hpp"
#include "identity.hpp"
#include "proc_files.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "check_render.hpp"
#include "checks/check_prometheus.hpp"

extern char** environ;

namespace npu_doctor::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> only;
  std::vector<std::string> skip;
  std::string root = "/";
  std::chrono::milliseconds timeout{10000};
  std::string python;
  long pid = -1;
  std::string user;
  bool probe_device = false;
  std::string format = "text";
  std::string output = "-";
};


// The checked process's environment replaces this one's for every variable either has,
// except PATH: tools (npu-smi, python3) are still found the way this shell finds them.
void use_environment_of(SystemProbe& probe, std::map<std::string, std::string> env) {
  env.erase("PATH");
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    const std::string name = kv.substr(0, eq);
    if (eq != std::string::npos && name != "PATH" && env.count(name) == 0) probe.set_env(name, std::nullopt);
  }
  for (const auto& [k, v] : env) probe.set_env(k, v);
}

int run(const GlobalOptions& g, const CheckArgs& a) {
  checks::CheckOptions opts;
  if (!a.only.empty()) {
    opts.steps.clear();
    for (const auto& s : a.only) opts.steps.push_back(*checks::parse_step_id(s));
  }
  for (const auto& s : a.skip) std::erase(opts.steps, *checks::parse_step_id(s));
  if (opts.steps.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_check_no_step) << "\n";
    return kUsage;
  }
  // A bundle (archive or unpacked): the checks replay what `bundle` recorded on its host.
  std::optional<bundle::ReplayProbe> replay;
  if (bundle::is_bundle(a.root)) {
    if (a.pid >= 0 || !a.user.empty() || !a.python.empty() || a.probe_device) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_check_bundle_options) << "\n";
      return kUsage;
    }
    std::string error;
    auto record = bundle::read_probe_record(a.root, error);
    if (!record) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_root_bundle, fmt::arg("command", "check"), fmt::arg("why", error))
                << "\n";
      return kUsage;
    }
    opts.identity = record->identity;
    replay.emplace(std::move(*record));
  }
  std::error_code ec;
  const std::filesystem::path root = std::filesystem::absolute(replay ? "/" : a.root, ec);
  if (ec || !std::filesystem::is_directory(root, ec)) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_root_not_directory, fmt::arg("command", "check"), fmt::arg("path", a.root))
              << "\n";
    return kUsage;
  }
  opts.timeout = a.timeout;
  CommandOptions command_options;
  command_options.timeout = opts.timeout;
  SystemProbe probe(root.lexically_normal().string(), command_options);

  if (!replay) opts.identity = checks::current_process_identity();
  if (a.pid >= 0) {
    opts.pid = a.pid;
    auto who = checks::identity_of_process(probe, a.pid);
    if (!who) {
      std::cerr << "npu-doctor: "
                << msg(ui::Key::error_check_no_process, fmt::arg("pid", a.pid), fmt::arg("root", probe.describe_root()))
                << "\n";
      return kUsage;
    }
    opts.identity = *who;
    if (auto environ_text = probe.read_file("/proc/" + std::to_string(a.pid) + "/environ")) {
      use_environment_of(probe, checks::parse_environ(*environ_text));
    } else {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_check_no_environ, fmt::arg("pid", a.pid)) << "\n";
    }
  }
  if (!a.user.empty()) {
    auto who = checks::identity_of_user(probe, a.user);
    if (!who) {
      std::cerr << "npu-doctor: "
                << msg(ui::Key::error_check_no_user, fmt::arg("user", a.user), fmt::arg("root", probe.describe_root()))
                << "\n";
      return kUsage;
    }
    opts.identity = *who;
  }
  if (!a.python.empty()) {
    if (!find_on_path(a.python, probe.env("PATH").value_or(""))) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_check_no_python, fmt::arg("python", a.python)) << "\n";
      return kUsage;
    }
    opts.python = a.python;
  }
  opts.probe_device = a.probe_device;

  auto kb = load_kb(g, std::cerr);
  const Probe& checked = replay ? static_cast<const Probe&>(*replay) : probe;
  const checks::CheckReport report = checks::run_checks(checked, *kb, checks::CompatibilityTable::builtin(), opts);
  const RenderOptions ro = render_options(g, a.output == "-" && a.format == "text");
  const bool ok = write_output(
      a.output,
      [&](std::ostream& out) {
        if (a.format == "json") checks::render_check_json(report, ro, out);
        else if (a.format == "markdown") checks::render_check_markdown(report, ro, out);
        else if (a.format == "prometheus") prometheus::render_check(report, {g.command, prometheus::now_seconds()}, out);
        else checks::render_check_text(report, ro, out);
      },
      std::cerr);
  if (!ok) return kUsage;
  const checks::StepStatus s = report.status();
  return s == checks::StepStatus::pass || s == checks::StepStatus::skip ? kOk : kFindings;
}

}  // namespace

void setup_check(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check", help_text(ui::Key::help_check_about));
  const std::vector<std::string> steps = {"driver", "cann", "devices", "numa"};
  cmd->add_option("--only", args->only, help_text(ui::Key::help_check_only))
      ->delimiter(',')
      ->check(CLI::IsMember(steps))
      ->type_name("STEP");
  cmd->add_option("--skip", args->skip, help_text(ui::Key::help_check_skip))
      ->delimiter(',')
      ->check(CLI::IsMember(steps))
      ->type_name("STEP");
  cmd->add_option("--root", args->root, help_text(ui::Key::help_check_root))
      ->type_name("DIR");
  add_duration_option(cmd, "--timeout", args->timeout, help_text(ui::Key::help_check_timeout),
                      {std::chrono::milliseconds(50), std::chrono::hours(1)});
  cmd->add_option("--python", args->python, help_text(ui::Key::help_check_python))
      ->type_name("PATH");
  cmd->add_option("--pid", args->pid, help_text(ui::Key::help_check_pid))
      ->check(CLI::Range(1L, 4194304L))
      ->type_name("N");
  cmd->add_option("--user", args->user, help_text(ui::Key::help_check_user))
      ->type_name("NAME");
  cmd->add_flag("--probe-device", args->probe_device, help_text(ui::Key::help_check_probe_device));
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_check_format))
      ->check(CLI::IsMember({"text", "json", "markdown", "prometheus"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_check_output))->type_name("FILE");
  cmd->footer(help_text(ui::Key::help_check_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
