// npu-doctor: thin entry point. Each subcommand lives in its own cmd_*.cpp.

#include "common.hpp"
#include "exit_codes.hpp"

namespace npu_doctor::cli {
void setup_diagnose(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_explain(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_kb(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_cluster(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_merge(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_check(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_mem(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_profile(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_atc(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_hccl(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_net(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_isolate(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_completion(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_bundle(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_run(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_watch(CLI::App& app, GlobalOptions& g, int& exit_code);
}  // namespace npu_doctor::cli

int main(int argc, char** argv) {
  using namespace npu_doctor::cli;
  CLI::App app;
  GlobalOptions g;
  int exit_code = kOk;
  prepare_app(app, g, argc, argv);  // first: it decides the language of the help texts
  app.description(help_text(npu_doctor::ui::Key::help_npu_doctor_about));
  setup_diagnose(app, g, exit_code);
  setup_explain(app, g, exit_code);
  setup_kb(app, g, exit_code);
  setup_cluster(app, g, exit_code);
  setup_merge(app, g, exit_code);
  setup_check(app, g, exit_code);
  setup_mem(app, g, exit_code);
  setup_profile(app, g, exit_code);
  setup_atc(app, g, exit_code);
  setup_hccl(app, g, exit_code);
  setup_net(app, g, exit_code);
  setup_isolate(app, g, exit_code);
  setup_completion(app, g, exit_code);
  setup_bundle(app, g, exit_code);
  setup_run(app, g, exit_code);
  setup_watch(app, g, exit_code);
  return run_app(app, argc, argv, exit_code);
}
