// npu-doctor: thin entry point. Each subcommand lives in its own cmd_*.cpp.
#include <exception>
#include <iostream>

#include "common.hpp"
#include "exit_codes.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor::cli {
void setup_diagnose(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_explain(CLI::App& app, GlobalOptions& g, int& exit_code);
void setup_kb(CLI::App& app, GlobalOptions& g, int& exit_code);
}  // namespace npu_doctor::cli

int main(int argc, char** argv) {
  using namespace npu_doctor::cli;
  CLI::App app{"npu-doctor: root-cause diagnosis for Huawei Ascend NPU failures"};
  app.set_version_flag("--version", std::string("npu-doctor ") + std::string(npu_doctor::kVersion));
  app.require_subcommand(1);
  app.fallthrough();  // global options may follow the subcommand name
  GlobalOptions g;
  int exit_code = kOk;
  add_global_options(app, g);
  setup_diagnose(app, g, exit_code);
  setup_explain(app, g, exit_code);
  setup_kb(app, g, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  } catch (const std::exception& e) {
    std::cerr << "npu-doctor: internal error: " << e.what() << "\nPlease report this with the command line.\n";
    return kInternal;
  }
  return exit_code;
}
