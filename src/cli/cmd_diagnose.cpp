// npu-doctor diagnose PATH...: scan logs and name the root cause.
#include <iostream>

#include "bundle/bundle_archive.hpp"
#include "common.hpp"
#include "duration_option.hpp"
#include "diagnosis_output.hpp"
#include "exit_codes.hpp"
#include "npu_doctor/diagnosis.hpp"
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
  HtmlReportArgs html;
};

int run(const GlobalOptions& g, const DiagnoseArgs& a) {
  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(*kb, problems, cache_dir());
  for (const auto& p : problems) print_problem(p, std::cerr);

  DiagnoseOptions opts;
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
      std::cerr << "npu-doctor: --incident '" << a.incident << "': give an incident number (1 = the oldest) or all\n";
      return kUsage;
    }
    chosen = *n;
  }
  DiagnosisReport report = diagnoser.run(opts);
  bundles.restore_paths(report);
  if (chosen) {
    const std::size_t count = std::max<std::size_t>(1, report.incidents.size());
    if (*chosen > count) {
      std::cerr << "npu-doctor: --incident " << *chosen << ": the inputs hold " << count
                << (count == 1 ? " incident" : " incidents") << "\n";
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
  CLI::App* cmd = app.add_subcommand("diagnose", "Scan logs (files, plog directories, archives, - for stdin) and name the root cause");
  cmd->add_option("paths", args->paths, "Log files, directories (recursive), .gz/.zst/.xz/.bz2 files, tar/zip archives, or - for stdin")
      ->required();
  auto* format = cmd->add_option("-f,--format", args->format,
                                 "Output format: text, json, markdown, html (one self-contained page), prometheus (docs/prometheus.md)")
                     ->check(CLI::IsMember(kDiagnosisFormats));
  cmd->add_flag("-q,--summary", args->summary,
                "One line per incident, tab-separated, for scripts: number, first and last time, inputs, category, "
                "rule, code, evidence, title (docs/incidents.md)")
      ->excludes(format);
  cmd->add_option("--incident", args->incident,
                  "Which incident to show in full when the inputs hold several runs: N (1 = the oldest) or all "
                  "(default: the most recent with a root cause; docs/incidents.md)")
      ->type_name("N|all");
  add_duration_option(cmd, "--incident-gap", args->incident_gap,
                      "Inputs further apart in time than this are separate incidents (default 1h)",
                      {std::chrono::milliseconds(1)});
  cmd->add_option("-o,--output", args->output, "Write the report to FILE instead of stdout")->type_name("FILE");
  add_html_report_options(cmd, args->html);
  cmd->add_option("-B,--before-context", args->before, "Lines of context before each evidence line (default 8)");
  cmd->add_option("-A,--after-context", args->after, "Lines of context after each evidence line (default 4)");
  cmd->add_option("-C,--context", args->context, "Lines of context before and after (sets -B and -A)");
  cmd->add_option("--max-evidence", args->max_evidence, "Occurrences kept as evidence per finding (default 3)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("-j,--jobs", args->jobs, "Threads for many files (default: all cores)");
  cmd->add_option("--rank-pattern", args->rank_patterns,
                  "Regex applied to each input path to find its rank and node, with named groups "
                  "(?<rank>\\d+) and (?<host>...) (repeatable; tried before rank_3/, rank-3.log, worker-3, node-2/)")
      ->type_name("REGEX");
  add_duration_option(cmd, "--skew", args->skew, "Clock skew tolerated between hosts when comparing ranks (default 5s)");
  cmd->add_option("--world-size", args->world_size, "Number of ranks the job had (finds ranks with no logs)")
      ->check(CLI::Range(1, 1 << 20));
  cmd->footer(
      "Exit status: 0 no error found, 1 a root cause was found (in the incident shown), 2 usage error or no input "
      "readable, 3 internal error.");
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
