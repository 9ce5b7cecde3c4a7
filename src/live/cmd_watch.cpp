// npu-doctor watch PATH...: follow growing logs and folders and report each new
// incident's root cause as soon as it appears (docs/run-watch.md).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "incident_output.hpp"
#include "watcher.hpp"
#include "diagnosis/diagnosis.hpp"
#include "cli/expected_option.hpp"
#include "live/watch_prometheus.hpp"

namespace npu_doctor::cli {
namespace {

struct WatchArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output;
  bool until_root_cause = false;
  std::string exec;
  std::chrono::milliseconds exec_timeout{30000};
  bool from_start = false;
  bool poll = false;
  std::chrono::milliseconds poll_interval{1000};
  std::chrono::milliseconds settle{1000};
  std::chrono::milliseconds quiet_gap{std::chrono::minutes(10)};
  std::size_t before = 8;
  std::size_t after = 4;
  std::optional<std::size_t> context;
  std::size_t max_evidence = 3;
  std::vector<std::string> expected;  // files of expected errors
};

std::string host_name() {
  char buf[HOST_NAME_MAX + 1] = {};
  if (::gethostname(buf, sizeof buf - 1) != 0) return {};
  return buf;
}

int run(const GlobalOptions& g, const WatchArgs& a) {
  if (a.format == "prometheus" && (a.output.empty() || a.output == "-")) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_watch_prometheus_needs_file) << "\n";
    return kUsage;
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  // Text and JSON go to stdout or are appended to -o FILE; prometheus rewrites FILE.
  std::ofstream appended;
  if (!a.output.empty() && a.output != "-" && a.format != "prometheus") {
    appended.open(a.output, std::ios::binary | std::ios::app);
    if (!appended) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_watch_cannot_write, fmt::arg("path", a.output)) << "\n";
      return kUsage;
    }
  } else if (a.format == "prometheus") {
    const fs::path parent = fs::absolute(a.output, ec).parent_path();
    if (!fs::is_directory(parent, ec)) {
      std::cerr << "npu-doctor: "
                << msg(ui::Key::error_output_dir_missing, fmt::arg("command", "watch"), fmt::arg("option", "-o"),
                       fmt::arg("path", a.output), fmt::arg("dir", parent.string()))
                << "\n";
      return kUsage;
    }
  }
  // An incident leaves in one write, so a reader of a pipe never sees half a JSON line.
  bool out_ok = true;
  auto emit = [&](const std::string& text) {
    if (appended.is_open()) {
      appended << text;
      appended.flush();
      out_ok = static_cast<bool>(appended);
      return;
    }
    for (std::string_view rest = text; !rest.empty() && out_ok;) {
      const ssize_t w = ::write(STDOUT_FILENO, rest.data(), rest.size());
      if (w > 0) {
        rest.remove_prefix(static_cast<std::size_t>(w));
      } else if (w < 0 && errno != EINTR) {
        out_ok = false;
      }
    }
  };

  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(*kb, problems, cache_dir());
  for (const auto& p : problems) print_problem(p, std::cerr);

  live::WatchSettings s;
  if (!load_expected_option(a.expected, s.expected)) return kUsage;
  s.follow.roots = a.paths;
  s.follow.from_start = a.from_start;
  s.follow.polling = a.poll;
  s.follow.poll_interval = a.poll_interval;
  // Our own report file is never one of the logs we follow.
  const fs::path own = a.output.empty() || a.output == "-" ? fs::path() : fs::weakly_canonical(a.output, ec);
  s.follow.accept = [own](const std::string& path) {
    if (own.empty()) return true;
    std::error_code e;
    const fs::path p = fs::weakly_canonical(path, e);
    return p != own && p.string() != own.string() + ".tmp." + std::to_string(getpid());
  };
  s.scan = live::live_scan_options(a.context.value_or(a.before), a.context.value_or(a.after), a.max_evidence);
  s.settle = a.settle;
  s.max_wait = std::max(std::chrono::milliseconds(10000), 5 * a.settle);
  s.quiet_gap = a.quiet_gap;
  s.until_root_cause = a.until_root_cause;

  const RenderOptions ro = render_options(g, !appended.is_open() && a.format == "text");
  const std::string host = host_name();
  prometheus::WatchState metrics;
  metrics.kb_version = kb->version();
  std::optional<DiagnosisReport> last;
  const live::FileFollower* follower = nullptr;
  auto write_metrics = [&] {
    if (a.format != "prometheus") return;
    metrics.files_followed = follower != nullptr ? follower->files_followed() : 0;
    metrics.last = last ? &*last : nullptr;
    write_output(
        a.output, [&](std::ostream& o) { prometheus::render_watch(metrics, {"watch", prometheus::now_seconds()}, o); },
        std::cerr);
  };

  s.on_ready = [&](const live::FileFollower& f) {
    follower = &f;
    std::string paths;
    for (const auto& p : a.paths) {
      paths += " " + p;
      if (!fs::exists(p, ec)) paths += msg(ui::Key::status_watch_not_there_yet);
    }
    std::cerr << "npu-doctor: "
              << msg(ui::Key::status_watch_watching, fmt::arg("paths", paths), fmt::arg("n", f.files_followed()),
                     fmt::arg("mode", f.mode()))
              << "\n";
    write_metrics();
  };
  s.on_incident = [&](const live::WatchIncident& inc) {
    std::string json;
    if (a.format == "json" || !a.exec.empty()) json = live::incident_json_line(inc, ro, host);
    if (a.format == "json") {
      emit(json + "\n");
    } else if (a.format == "text") {
      std::ostringstream text;
      live::render_incident_text(inc, ro, text);
      emit(text.str());
    } else {
      const Finding* root = inc.report.root_finding();
      std::cerr << "npu-doctor: "
                << msg(ui::Key::status_watch_incident, fmt::arg("n", inc.number),
                       fmt::arg("id", root->entry->id + (root->code.empty() ? "" : " " + root->code)),
                       fmt::arg("title", root->entry->title.get(ro.lang)),
                       fmt::arg("where", root->first().path + ":" + std::to_string(root->first().line)))
                << "\n";
    }
    ++metrics.incidents;
    metrics.last_incident_seconds = prometheus::now_seconds();
    last = inc.report;
    write_metrics();
    if (!a.exec.empty()) live::run_incident_hook(a.exec, inc, json, a.exec_timeout, std::cerr);
    return out_ok;  // stdout closed: nobody reads us any more
  };

  const live::WatchEnd end = live::run_watch(s, diagnoser.matcher(), *kb);
  if (end == live::WatchEnd::root_cause) return kFindings;
  if (end == live::WatchEnd::error) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_watch_events_failed) << "\n";
    return kInternal;
  }
  return kOk;
}

}  // namespace

void setup_watch(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<WatchArgs>();
  CLI::App* cmd = app.add_subcommand(
      "watch", help_text(ui::Key::help_watch_about));
  cmd->add_option("paths", args->paths, help_text(ui::Key::help_watch_paths))
      ->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_watch_format))
      ->check(CLI::IsMember({"text", "json", "prometheus"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_watch_output))
      ->type_name("FILE");
  cmd->add_flag("--until-root-cause", args->until_root_cause, help_text(ui::Key::help_watch_until_root_cause));
  cmd->add_option("--exec", args->exec, help_text(ui::Key::help_watch_exec))
      ->type_name("CMD");
  add_duration_option(cmd, "--exec-timeout", args->exec_timeout, help_text(ui::Key::help_watch_exec_timeout));
  cmd->add_flag("--from-start", args->from_start, help_text(ui::Key::help_watch_from_start));
  cmd->add_flag("--poll", args->poll, help_text(ui::Key::help_watch_poll));
  add_duration_option(cmd, "--poll-interval", args->poll_interval, help_text(ui::Key::help_watch_poll_interval),
                      {std::chrono::milliseconds(10)});
  add_duration_option(cmd, "--settle", args->settle, help_text(ui::Key::help_watch_settle));
  add_duration_option(cmd, "--quiet-gap", args->quiet_gap, help_text(ui::Key::help_watch_quiet_gap));
  cmd->add_option("-B,--before-context", args->before, help_text(ui::Key::help_watch_before_context));
  cmd->add_option("-A,--after-context", args->after, help_text(ui::Key::help_watch_after_context));
  cmd->add_option("-C,--context", args->context, help_text(ui::Key::help_watch_context));
  add_expected_option(cmd, args->expected, help_text(ui::Key::help_watch_expected));
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_watch_max_evidence))
      ->check(CLI::Range(1, 1000));
  cmd->footer(help_text(ui::Key::help_watch_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
