// npu-doctor diagnose PATH...: scan logs and name the root cause.
#include <iostream>

#include "bundle/bundle_archive.hpp"
#include "cli/common.hpp"
#include "cli/duration_option.hpp"
#include "cli/diagnosis_output.hpp"
#include "cli/exit_codes.hpp"
#include "diagnosis.hpp"
#include "cli/expected_option.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::cli {
namespace {

struct DiagnoseArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output = "-";
  std::size_t before = 8;
  std::size_t after = 4;
  std::optional<std::size_t> context;
  std::size_t max_evidence = 3;
  unsigned jobs = 0;
  std::vector<std::string> rank_patterns;
  std::chrono::milliseconds skew{5000};
  std::optional<int> world_size;
  std::string incident;          // "", "all" or a number (1 = the oldest)
  std::chrono::milliseconds incident_gap{std::chrono::hours(1)};
  bool summary = false;
  std::vector<std::string> expected;  // files of expected errors
  HtmlReportArgs html;
};

int run(const GlobalOptions& g, const DiagnoseArgs& a) {
  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(*kb, problems, cache_dir());
  for (const auto& p : problems) print_problem(p, std::cerr);

  DiagnoseOptions opts;
  if (!load_expected_option(a.expected, opts.expected)) return kUsage;
  bundle::BundleInputs bundles;  // a bundle (npu-doctor bundle) is read as its logs/
  std::string bundle_error;
  auto paths = bundles.expand(a.paths, bundle_error);
  if (!paths) {
    std::cerr << "npu-doctor: diagnose: " << bundle_error << "\n";
    return kUsage;
  }
  opts.paths = *paths;
  opts.before = a.context.value_or(a.before);
  opts.after = a.context.value_or(a.after);
  opts.max_evidence = a.max_evidence;
  opts.jobs = a.jobs;
  opts.rank_patterns = a.rank_patterns;
  opts.cluster.skew_us = a.skew.count() * 1000;
  opts.cluster.world_size = a.world_size;
  opts.split_incidents = true;
  opts.incidents.gap_us = a.incident_gap.count() * 1000;
  std::optional<std::size_t> chosen;
  if (!a.incident.empty() && a.incident != "all") {
    const auto n = parse_number<std::size_t>(a.incident);
    if (!n || *n == 0) {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_diagnose_incident_value, fmt::arg("value", a.incident)) << "\n";
      return kUsage;
    }
    chosen = *n;
  }
  DiagnosisReport report = diagnoser.run(opts);
  bundles.restore_paths(report);
  if (chosen) {
    const std::size_t count = std::max<std::size_t>(1, report.incidents.size());
    if (*chosen > count) {
      std::cerr << "npu-doctor: "
                << msg(count == 1 ? ui::Key::error_diagnose_incident_one : ui::Key::error_diagnose_incident_range,
                       fmt::arg("n", *chosen), fmt::arg("count", count))
                << "\n";
      return kUsage;
    }
    show_incident(report, *chosen - 1);
  }
  DiagnosisView view;
  view.all_incidents = a.incident == "all";
  view.summary = a.summary;
  return write_diagnosis(g, report, a.summary ? "summary" : a.format, a.output, *kb, a.html, view);
}

}  // namespace

void setup_diagnose(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<DiagnoseArgs>();
  CLI::App* cmd = app.add_subcommand("diagnose", help_text(ui::Key::help_diagnose_about));
  cmd->add_option("paths", args->paths, help_text(ui::Key::help_diagnose_paths))
      ->required();
  auto* format = cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_diagnose_format))
                     ->check(CLI::IsMember(kDiagnosisFormats));
  cmd->add_flag("-q,--summary", args->summary, help_text(ui::Key::help_diagnose_summary))
      ->excludes(format);
  cmd->add_option("--incident", args->incident, help_text(ui::Key::help_diagnose_incident))
      ->type_name("N|all");
  add_duration_option(cmd, "--incident-gap", args->incident_gap, help_text(ui::Key::help_diagnose_incident_gap),
                      {std::chrono::milliseconds(1)});
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_diagnose_output))->type_name("FILE");
  add_html_report_options(cmd, args->html);
  cmd->add_option("-B,--before-context", args->before, help_text(ui::Key::help_diagnose_before_context));
  cmd->add_option("-A,--after-context", args->after, help_text(ui::Key::help_diagnose_after_context));
  cmd->add_option("-C,--context", args->context, help_text(ui::Key::help_diagnose_context));
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_diagnose_max_evidence))
      ->check(CLI::Range(1, 1000));
  cmd->add_option("-j,--jobs", args->jobs, help_text(ui::Key::help_diagnose_jobs));
  cmd->add_option("--rank-pattern", args->rank_patterns, help_text(ui::Key::help_diagnose_rank_pattern))
      ->type_name("REGEX");
  add_duration_option(cmd, "--skew", args->skew, help_text(ui::Key::help_diagnose_skew));
  cmd->add_option("--world-size", args->world_size, help_text(ui::Key::help_diagnose_world_size))
      ->check(CLI::Range(1, 1 << 20));
  add_expected_option(cmd, args->expected, help_text(ui::Key::help_diagnose_expected));
  cmd->footer(help_text(ui::Key::help_diagnose_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
