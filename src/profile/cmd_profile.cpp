// npu-doctor profile PATH...: operator hot spots and where the step time goes, from
// msprof / torch_npu profiler / msprof-analyze outputs.
#include <iostream>

#include "cli/common.hpp"
#include "cli/exit_codes.hpp"
#include "profile.hpp"

namespace npu_doctor::cli {
namespace {

struct ProfileArgs {
  std::vector<std::string> paths;
  std::string format = "text";
  std::string output = "-";
  std::string html;
  std::size_t top = 10;
};

int run(const GlobalOptions& g, const ProfileArgs& a) {
  auto kb = load_kb(g, std::cerr);
  ProfileOptions opts;
  opts.paths = a.paths;
  opts.top = a.top;
  const ProfileReport report = analyze_profile(opts, *kb);
  for (const auto& in : report.inputs) {
    if (in.report.status == InputStatus::error || in.report.status == InputStatus::partial) {
      std::cerr << "npu-doctor: " << in.report.path << ": " << note_text(in.report.note) << "\n";
    }
  }
  for (const auto& s : report.skipped) {
    if (s.status == InputStatus::error) std::cerr << "npu-doctor: " << s.path << ": " << note_text(s.note) << "\n";
  }
  for (const auto& p : report.column_problems) {
    if (p.problem == "missing") {
      std::cerr << "npu-doctor: " << msg(ui::Key::error_profile_column_missing, fmt::arg("path", p.path), fmt::arg("column", p.column))
                << "\n";
    }
  }
  const RenderOptions ro = render_options(g, a.output == "-" && a.format == "text");
  const bool ok = write_output(
      a.output,
      [&](std::ostream& out) {
        if (a.format == "json") render_profile_json(report, ro, out);
        else render_profile_text(report, ro, out);
      },
      std::cerr);
  if (!ok) return kUsage;
  if (!a.html.empty()) {
    RenderOptions html_ro = ro;
    html_ro.color = false;
    if (!write_output(a.html, [&](std::ostream& out) { render_profile_html(report, html_ro, out); }, std::cerr)) {
      return kUsage;
    }
  }
  if (!report.any_data()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_profile_no_table) << "\n";
    return kUsage;
  }
  return report.findings.empty() ? kOk : kFindings;
}

}  // namespace

void setup_profile(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<ProfileArgs>();
  CLI::App* cmd = app.add_subcommand(
      "profile", help_text(ui::Key::help_profile_about));
  cmd->add_option("paths", args->paths, help_text(ui::Key::help_profile_paths))
      ->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_profile_format))
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_option("-o,--output", args->output, help_text(ui::Key::help_profile_output))->type_name("FILE");
  cmd->add_option("--html", args->html, help_text(ui::Key::help_profile_html))
      ->type_name("FILE");
  cmd->add_option("-n,--top", args->top, help_text(ui::Key::help_profile_top))->check(CLI::Range(1, 100000));
  cmd->footer(help_text(ui::Key::help_profile_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
