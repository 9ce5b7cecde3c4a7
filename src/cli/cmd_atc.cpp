// npu-doctor atc PATH...: why an ATC model conversion failed, which operators, which
// phase, and the command to run next.
#include <iostream>

#include "common.hpp"
#include "exit_codes.hpp"
#include "npu_doctor/atc.hpp"

namespace npu_doctor::cli {
namespace {

struct AtcArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output = "-";
  std::size_t max_evidence = 50;
  unsigned jobs = 0;
};

int run(const GlobalOptions& g, const AtcArgs& a) {
  auto kb = load_kb(g, std::cerr);
  std::vector<KbProblem> problems;
  Diagnoser diagnoser(*kb, problems, cache_dir());
  for (const auto& p : problems) print_problem(p, std::cerr);
  AtcOptions opts;
  opts.paths = a.paths;
  opts.max_evidence = a.max_evidence;
  opts.jobs = a.jobs;
  const AtcReport report = analyze_atc(opts, *kb, diagnoser);
  for (const auto& in : report.diagnosis.inputs) {
    if (in.status == InputStatus::error || in.status == InputStatus::partial) {
      std::cerr << "npu-doctor: " << in.path << ": " << in.note << "\n";
    }
  }
  for (const auto& p : report.problems) std::cerr << "npu-doctor: " << p << "\n";
  const RenderOptions ro = render_options(g, a.output == "-" && a.format == "text");
  const bool ok = write_output(
      a.output,
      [&](std::ostream& out) {
        if (a.format == "json") render_atc_json(report, ro, out);
        else render_atc_text(report, ro, out);
      },
      std::cerr);
  if (!ok) return kUsage;
  if (!report.any_input_read()) {
    std::cerr << "npu-doctor: no input could be read";
    for (const auto& in : report.diagnosis.inputs) std::cerr << "; " << in.path << ": " << in.note;
    std::cerr << "\n";
    return kUsage;
  }
  return report.outcome == "failed" ? kFindings : kOk;
}

}  // namespace

void setup_atc(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<AtcArgs>();
  CLI::App* cmd = app.add_subcommand(
      "atc", "Explain a failed ATC model conversion: operators, phase, case and the command to run next");
  cmd->add_option("paths", args->paths,
                  "ATC console output, plog files or directories, the ATC output directory (check_result.json, "
                  "op_not_support.log), archives, or - for stdin")
      ->required();
  cmd->add_option("-f,--format", args->format, "Output format: text, json (npu-doctor/atc/v1)")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", args->output, "Write the report to FILE instead of stdout")->type_name("FILE");
  cmd->add_option("--max-evidence", args->max_evidence,
                  "Occurrences kept per finding, each may name an operator (default 50)")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("-j,--jobs", args->jobs, "Threads for many files (default: all cores)");
  cmd->footer(
      "Exit status: 0 the conversion succeeded or no failure was found, 1 a failure was diagnosed, 2 usage error or no "
      "input readable, 3 internal error.");
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
