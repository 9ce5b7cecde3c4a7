// npu-doctor run [options] -- CMD...: run a job, pass its output through, and when it
// fails or hangs print the diagnosis of this run (docs/run-watch.md).
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "bundle/collector.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/exit_codes.hpp"
#include "job_run.hpp"
#include "plog_locations.hpp"
#include "run_findings.hpp"
#include "run_report.hpp"
#include "diagnosis/diagnosis.hpp"
#include "cli/expected_option.hpp"

extern char** environ;

namespace npu_doctor::cli {
namespace {

struct RunArgs {
  std::vector<std::string> command;
  std::string format = "text";
  std::string output;
  std::string bundle;
  std::optional<std::chrono::milliseconds> hang_after;
  bool kill_on_hang = false;
  std::chrono::milliseconds kill_grace{10000};
  std::vector<std::string> plog_dirs;
  bool no_plog = false;
  bool poll = false;
  std::chrono::milliseconds poll_interval{1000};
  bool no_pty = false;
  std::size_t before = 8;
  std::size_t after = 4;
  std::optional<std::size_t> context;
  std::size_t max_evidence = 3;
  std::size_t tail = 10;
  std::vector<std::string> expected;  // files of expected errors
};

// A report file must be writable before a job of hours starts, not after.
bool writable_target(const std::string& path, const char* option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path parent = fs::absolute(path, ec).parent_path();
  if (!fs::is_directory(parent, ec) || ::access(parent.c_str(), W_OK) != 0) {
    std::cerr << "npu-doctor: "
              << msg(ui::Key::error_run_dir_not_writable, fmt::arg("option", option), fmt::arg("path", path),
                     fmt::arg("dir", parent.string()))
              << "\n";
    return false;
  }
  return true;
}

RenderOptions stderr_render_options(const GlobalOptions& g) {
  RenderOptions o = render_options(g, false);
  if (g.color == "auto") {
    const char* no_color = std::getenv("NO_COLOR");
    const char* term = std::getenv("TERM");
    o.color = isatty(STDERR_FILENO) != 0 && (no_color == nullptr || *no_color == '\0') &&
              !(term != nullptr && std::string(term) == "dumb");
  }
  return o;
}

void write_bundle(const GlobalOptions& g, const RunArgs& a, const live::RunOutcome& o, const KnowledgeBase& kb) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // The job's output goes in as two logs (their last part: what was kept while it ran).
  char tmpl[] = "/tmp/npu-doctor-run-XXXXXX";
  const char* dir = ::mkdtemp(tmpl);
  bundle::BundleOptions b;
  b.output = a.bundle;
  if (dir != nullptr) {
    for (const auto& [name, text] : {std::pair<std::string, const std::string*>{"job-stdout.log", &o.stdout_tail},
                                     {"job-stderr.log", &o.stderr_tail}}) {
      const std::string path = std::string(dir) + "/" + name;
      std::ofstream(path, std::ios::binary) << *text;
      b.log_paths.push_back(path);
    }
  }
  b.log_paths.insert(b.log_paths.end(), o.files_read.begin(), o.files_read.end());
  b.default_logs = false;
  b.identity = checks::current_process_identity();
  b.lang = render_options(g, false).lang;
  b.cache_dir = cache_dir();
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string kv(*e);
    if (const auto eq = kv.find('='); eq != std::string::npos) b.environment[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  const bundle::BundleResult r = bundle::collect_bundle(b, kb);
  if (dir != nullptr) fs::remove_all(dir, ec);
  if (r.written) {
    std::cerr << "npu-doctor: " << msg(ui::Key::status_run_bundle_written, fmt::arg("path", r.path), fmt::arg("n", r.members))
              << "\n";
  } else {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_run_bundle_failed, fmt::arg("why", r.error)) << "\n";
  }
}

int run(const GlobalOptions& g, const RunArgs& a) {
  live::RunSettings s;
  s.job.argv = a.command;
  if (a.command.empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_run_no_command) << "\n";
    return kUsage;
  }
  s.hang_after = a.hang_after;
  if (!a.hang_after && a.kill_on_hang) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_run_kill_needs_hang) << "\n";
    return kUsage;
  }
  if (!a.output.empty() && a.output != "-" && !writable_target(a.output, "-o")) return kUsage;
  if (!a.bundle.empty() && !writable_target(a.bundle, "--bundle-on-failure")) return kUsage;
  if (!load_expected_option(a.expected, s.expected)) return kUsage;

  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(*kb, problems, cache_dir());
  for (const auto& p : problems) print_problem(p, std::cerr);

  s.job.pty_stdout = !a.no_pty && isatty(STDOUT_FILENO) != 0;
  s.job.pty_stderr = !a.no_pty && isatty(STDERR_FILENO) != 0;
  if (!a.no_plog) s.plog_roots = a.plog_dirs.empty() ? live::default_plog_roots() : a.plog_dirs;
  s.poll = a.poll;
  s.poll_interval = a.poll_interval;
  s.kill_on_hang = a.kill_on_hang;
  s.kill_grace = a.kill_grace;
  s.scan = live::live_scan_options(a.context.value_or(a.before), a.context.value_or(a.after), a.max_evidence);
  s.scan.tail_lines = a.tail;
  if (!a.bundle.empty()) s.keep_output_bytes = 8u << 20;
  const RenderOptions to_stderr = stderr_render_options(g);
  s.note = [](const std::string& text) { std::cerr << "npu-doctor: " << text << "\n"; };
  std::string hang_root;  // the root cause the hang report named, not to print twice
  s.on_hang = [&](const DiagnosisReport& report, std::chrono::milliseconds silent,
                  const live::RunSettings::StreamTails& tails) {
    hang_root = report.root_finding() != nullptr ? finding_key(*report.root_finding()) : "";
    std::cerr << "npu-doctor: "
              << msg(ui::Key::status_run_hung, fmt::arg("command", live::shell_words(a.command)),
                     fmt::arg("time", live::human_duration(silent)))
              << "\n";
    for (const auto& [stream, lines] : tails) {
      if (lines.empty()) continue;
      std::cerr << "  " << msg(ui::Key::status_run_last_lines, fmt::arg("stream", stream)) << "\n";
      const std::size_t width = std::to_string(lines.back().line).size();
      for (const auto& l : lines) {
        const std::string n = std::to_string(l.line);
        std::cerr << "    " << std::string(width - std::min(width, n.size()), ' ') << n << "  " << l.text << "\n";
      }
    }
    std::cerr << "npu-doctor: " << msg(ui::Key::status_run_so_far) << "\n";
    render_diagnosis_text(report, to_stderr, std::cerr);
    std::cerr.flush();
  };

  const live::RunOutcome o = live::run_job(s, diagnoser.matcher(), *kb);
  if (!o.started) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_run_cannot_run, fmt::arg("why", o.error)) << "\n";
    return o.exit_status();
  }
  if (!o.error.empty()) std::cerr << "npu-doctor: run: " << o.error << "\n";
  if (o.failed() && !o.ended_by_closed_pipe()) {
    const Finding* root = o.report.root_finding();
    if (o.hung && root != nullptr && finding_key(*root) == hang_root) {
      std::cerr << "npu-doctor: " << msg(ui::Key::status_run_diagnosis_above, fmt::arg("ending", live::describe_ending(a.command, o)))
                << "\n";
    } else if (o.ended_as_asked() && root == nullptr) {
      // Ctrl-C on a healthy job: it ended as asked, there is nothing to diagnose.
      std::cerr << "npu-doctor: "
                << msg(ui::Key::status_run_ended_as_asked, fmt::arg("ending", live::describe_ending(a.command, o)),
                       fmt::arg("signal", live::signal_name(o.forwarded_signal)))
                << "\n";
    } else {
      live::render_run_report(a.command, o, "text", to_stderr, std::cerr);
    }
    std::cerr.flush();
  }
  if (!a.output.empty()) {
    const RenderOptions ro = render_options(g, a.output == "-" && a.format == "text");
    write_output(a.output, [&](std::ostream& out) { live::render_run_report(a.command, o, a.format, ro, out); },
                 std::cerr);
  }
  if (o.failed() && !a.bundle.empty()) write_bundle(g, a, o, *kb);
  return o.exit_status();
}

}  // namespace

void setup_run(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* cmd = app.add_subcommand(
      "run", help_text(ui::Key::help_run_about));
  cmd->add_option("command", args->command, help_text(ui::Key::help_run_command))
      ->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_run_format))
      ->check(CLI::IsMember({"text", "json", "markdown", "html"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_run_output))
      ->type_name("FILE");
  cmd->add_option("--bundle-on-failure", args->bundle, help_text(ui::Key::help_run_bundle_on_failure))
      ->type_name("FILE");
  add_duration_option(cmd, "--hang-after", args->hang_after, help_text(ui::Key::help_run_hang_after),
                      {std::chrono::milliseconds(1)});
  cmd->add_flag("--kill-on-hang", args->kill_on_hang, help_text(ui::Key::help_run_kill_on_hang));
  add_duration_option(cmd, "--kill-grace", args->kill_grace,
                      help_text(ui::Key::help_run_kill_grace), {std::chrono::milliseconds(1)});
  cmd->add_option("--plog-dir", args->plog_dirs, help_text(ui::Key::help_run_plog_dir))
      ->type_name("DIR");
  cmd->add_flag("--no-plog", args->no_plog, help_text(ui::Key::help_run_no_plog));
  cmd->add_flag("--poll", args->poll, help_text(ui::Key::help_run_poll));
  add_duration_option(cmd, "--poll-interval", args->poll_interval, help_text(ui::Key::help_run_poll_interval),
                      {std::chrono::milliseconds(1)});
  cmd->add_flag("--no-pty", args->no_pty, help_text(ui::Key::help_run_no_pty));
  cmd->add_option("--tail", args->tail, help_text(ui::Key::help_run_tail))
      ->check(CLI::Range(1, 1000));
  cmd->add_option("-B,--before-context", args->before, help_text(ui::Key::help_run_before_context));
  cmd->add_option("-A,--after-context", args->after, help_text(ui::Key::help_run_after_context));
  cmd->add_option("-C,--context", args->context, help_text(ui::Key::help_run_context));
  add_expected_option(cmd, args->expected, help_text(ui::Key::help_run_expected));
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_run_max_evidence))
      ->check(CLI::Range(1, 1000));
  cmd->footer(help_text(ui::Key::help_run_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
