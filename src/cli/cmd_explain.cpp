// npu-doctor explain CODE|RULE_ID: print what a code means, like `rustc --explain`.
#include <iostream>

#include "common.hpp"
#include "exit_codes.hpp"
#include "npu_doctor/text.hpp"

namespace npu_doctor::cli {
namespace {

struct ExplainArgs {
  std::string query;
  std::string format = "text";
};

int run(const GlobalOptions& g, const ExplainArgs& a) {
  if (trim(a.query).empty()) {
    std::cerr << "npu-doctor: explain: give a code, a rule id or a log line (e.g. npu-doctor explain 507035)\n";
    return kUsage;
  }
  // Kept to the end of the process on purpose: tearing ~1,100 entries down would add a
  // millisecond to a command whose whole point is to be instant.
  static const KnowledgeBase* const kb = load_kb(g, std::cerr).release();
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
  CLI::App* cmd = app.add_subcommand("explain", "Explain an error code, rule id or log line (507035, EI0002, ERR00100, 0x31, memory.device-oom ...)");
  cmd->add_option("code", args->query,
                  "An error code, a symbolic name (ACL_ERROR_RT_AICORE_EXCEPTION), a rule id, or a whole log line "
                  "(quoted): its codes are read the way diagnose reads them")
      ->required();
  cmd->add_option("-f,--format", args->format, "Output format: text, json")->check(CLI::IsMember({"text", "json"}));
  cmd->footer("Exit status: 0 found, 1 not in the knowledge base (near matches are suggested), 2 usage error.");
  cmd->callback([&g, &exit_code, args] { exit_code = run(g, *args); });
}

}  // namespace npu_doctor::cli
