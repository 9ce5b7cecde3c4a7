// npu-doctor explain CODE|RULE_ID: print what a code means, like `rustc --explain`.
#include <iostream>

#include "cli/common.hpp"
#include "cli/exit_codes.hpp"
#include "explain/explain.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::cli {
namespace {

struct ExplainArgs {
  std::string query;
  std::string format = "text";
};

int run(const GlobalOptions& g, const ExplainArgs& a) {
  if (trim(a.query).empty()) {
    std::cerr << "npu-doctor: " << msg(ui::Key::error_explain_no_query) << "\n";
    return kUsage;
  }
  // Kept to the end of the process on purpose: tearing ~1,100 entries down would add a
  // millisecond to a command whose whole point is to be instant.
  // Texts stay in the snapshot until explain_query() picks the entries it prints.
  static const KnowledgeBase* const kb = load_kb(g, std::cerr, /*defer_texts=*/true).release();
  ExplainOptions options;
  options.cache_dir = cache_dir();
  const ExplainResult result = explain_query(*kb, a.query, options);
  const RenderOptions ro = render_options(g, a.format == "text");
  if (a.format == "json") render_explain_json(result, ro, std::cout);
  else render_explain_text(result, ro, result.matches.empty() ? std::cerr : std::cout);
  return result.matches.empty() ? kFindings : kOk;
}

}  // namespace

void setup_explain(CLI::App& app, GlobalOptions& g, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  CLI::App* cmd = app.add_subcommand("explain", help_text(ui::Key::help_explain_about));
  cmd->add_option("code", args->query, help_text(ui::Key::help_explain_code))
      ->required();
  cmd->add_option("-f,--format", args->format, help_text(ui::Key::help_explain_format))->check(CLI::IsMember({"text", "json"}));
  cmd->footer(help_text(ui::Key::help_explain_footer));
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
