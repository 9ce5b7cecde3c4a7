// npu-doctor atc PATH...: why an ATC model conversion failed, which operators, which
// phase, and the command to run next.
#include <iostream>

#include "cli/common.hpp"
#include "cli/exit_codes.hpp"
#include "atc.hpp"

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
      std::cerr << "npu-doctor: " << in.path << ": " << note_text(in.note) << "\n";
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
    std::cerr << "npu-doctor: " << msg(ui::Key::error_no_input_read);
    for (const auto& in : report.diagnosis.inputs) {
      std::cerr << msg(ui::Key::error_input_why, fmt::arg("path", in.path), fmt::arg("why", note_text(in.note)));
    }
    std::cerr << "\n";
    return kUsage;
  }
  return report.outcome == "failed" ? kFindings : kOk;
}

}  // namespace

void setup_atc(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<AtcArgs>();
  CLI::App* cmd = app.add_subcommand(
      "atc", help_text(ui::Key::help_atc_about));
  cmd->add_option("paths", args->paths, help_text(ui::Key::help_atc_paths))
      ->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_atc_format))
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_atc_output))->type_name("FILE");
  cmd->add_option("--max-evidence", args->max_evidence, help_text(ui::Key::help_atc_max_evidence))
      ->check(CLI::Range(1, 10000));
  cmd->add_option("-j,--jobs", args->jobs, help_text(ui::Key::help_atc_jobs));
  cmd->footer(help_text(ui::Key::help_atc_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
