// npu-doctor isolate -- CMD ...: the single-card isolation method, automated (docs/isolate.md).
// Finds the devices, runs the command per card and card set with a timeout, and maps the
// verdict to the documented exit codes.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "checks/visible_devices.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "cli/finding_report_output.hpp"
#include "command_runner.hpp"
#include "device_list.hpp"
#include "isolate_report.hpp"
#include "net/units.hpp"
#include "npu_doctor/probe.hpp"

namespace npu_doctor::cli {
namespace {

using namespace npu_doctor::isolate;

struct IsolateArgs {
  std::vector<std::string> command;
  std::string devices;
  std::chrono::milliseconds timeout{300000};
  std::string strategy = "grow";
  std::string log_dir;
  bool no_diagnose = false;
  std::size_t max_runs = 200;
  bool quiet = false;
  std::string format = "text";
  std::string output = "-";
};

int run(const GlobalOptions& g, const IsolateArgs& a) {
  IsolateReport report;
  if (a.command.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_isolate_no_command) << "\n";
    return kUsage;
  }
  const char* path = std::getenv("PATH");
  if (!find_on_path(a.command.front(), path != nullptr ? path : "")) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_not_executable, fmt::arg("command", "isolate"), fmt::arg("program", a.command.front()))
              << "\n";
    return kUsage;
  }
  std::vector<int> devices;
  if (!a.devices.empty()) {
    auto ids = checks::parse_container_visible_devices(a.devices);
    if (!ids || ids->empty()) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_isolate_bad_devices, fmt::arg("value", a.devices)) << "\n";
      return kUsage;
    }
    devices = *ids;
    report.device_source = "--devices";
  } else {
    CommandOptions co;
    co.timeout = std::chrono::milliseconds(20000);
    std::string why;
    auto listed = devices_from_npu_smi(SystemProbe("/", co), why);
    if (!listed) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_isolate_no_device_list, fmt::arg("why", why)) << "\n";
      return kUsage;
    }
    devices = std::move(listed->devices);
    report.device_names = std::move(listed->names);
    report.device_source = "npu-smi info";
  }
  if (!a.log_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.log_dir, ec);
    if (ec || ::access(a.log_dir.c_str(), W_OK) != 0) {
      std::cerr << "npu-doctor: "
                << msg(ui::Key::error_isolate_log_dir, fmt::arg("path", a.log_dir),
                       fmt::arg("why", ec ? ec.message() : std::string(std::strerror(errno))))
                << "\n";
      return kUsage;
    }
  }
  auto kb = load_kb(g, std::cerr);
  std::unique_ptr<Diagnoser> diagnoser;
  if (!a.no_diagnose) {
    std::vector<KbProblem> problems;
    diagnoser = std::make_unique<Diagnoser>(*kb, problems, cache_dir());
  }
  CommandRunnerOptions ro;
  ro.command = a.command;
  ro.timeout = a.timeout;
  ro.log_dir = a.log_dir;
  ro.diagnoser = diagnoser.get();
  Runner real = make_command_runner(ro);
  std::size_t n = 0;
  Runner with_progress = [&](const std::vector<int>& devs, Phase phase) {
    if (!a.quiet) {
      std::cerr << "npu-doctor isolate: "
                << msg(ui::Key::status_isolate_run, fmt::arg("n", ++n), fmt::arg("phase", to_string(phase)),
                       fmt::arg("devices", device_list(devs)))
                << std::flush;
    }
    RunOutcome o = real(devs, phase);
    if (!a.quiet) std::cerr << (o.passed ? msg(ui::Key::status_isolate_pass) : o.describe) << "\n";
    return o;
  };
  IsolateOptions io;
  io.strategy = *parse_strategy(a.strategy);
  io.max_runs = a.max_runs;
  report.kb_version = kb->version();
  report.command = a.command;
  report.strategy = io.strategy;
  report.timeout_ms = a.timeout.count();
  report.log_dir = a.log_dir;
  report.result = run_isolation(devices, io, with_progress);
  if (report.result.not_started) {
    std::cerr << "npu-doctor: "
              << msg(ui::Key::error_cannot_run, fmt::arg("command", "isolate"), fmt::arg("program", a.command.front()),
                     fmt::arg("why", report.result.runs.back().outcome.describe))
              << "\n";
    return kUsage;
  }
  add_findings(report, *kb);
  return write_finding_report(g, a.output, a.format, report, &render_isolate_json, &render_isolate_text);
}

}  // namespace

void setup_isolate(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<IsolateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "isolate", help_text(ui::Key::help_isolate_about));
  cmd->add_option("command", args->command, help_text(ui::Key::help_isolate_command))
      ->required();
  cmd->add_option("--devices", args->devices, help_text(ui::Key::help_isolate_devices))
      ->type_name("LIST");
  add_duration_option(cmd, "--timeout", args->timeout, help_text(ui::Key::help_isolate_timeout),
                      {std::chrono::milliseconds(10)});
  cmd->add_option("--strategy", args->strategy, help_text(ui::Key::help_isolate_strategy))
      ->check(CLI::IsMember({"grow", "pairs", "single"}));
  cmd->add_option("--log-dir", args->log_dir, help_text(ui::Key::help_isolate_log_dir))->type_name("DIR");
  cmd->add_flag("--no-diagnose", args->no_diagnose, help_text(ui::Key::help_isolate_no_diagnose));
  cmd->add_option("--max-runs", args->max_runs, help_text(ui::Key::help_isolate_max_runs))->check(CLI::Range(1, 100000));
  cmd->add_flag("-q,--quiet", args->quiet, help_text(ui::Key::help_isolate_quiet));
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_isolate_format))->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_isolate_output))->type_name("FILE");
  cmd->footer(help_text(ui::Key::help_isolate_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
