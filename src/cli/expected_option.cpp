#include "expected_option.hpp"

#include <iostream>

#include "common.hpp"
#include "diagnosis/expected_errors.hpp"

namespace npu_doctor::cli {

CLI::Option* add_expected_option(CLI::App* app, std::vector<std::string>& files, const std::string& help) {
  return app->add_option("--expected", files, help)->type_name("FILE")->allow_extra_args(false);
}

bool load_expected_option(const std::vector<std::string>& files, std::shared_ptr<const ExpectedErrors>& out) {
  std::string problem;
  out = load_expected_errors(files, problem);
  if (problem.empty()) return true;
  std::cerr << "npu-doctor: " << msg(ui::Key::error_expected_file, fmt::arg("problem", problem)) << "\n";
  return false;
}

}  // namespace npu_doctor::cli
