#pragma once
// --expected FILE for diagnose, run, watch, cluster and merge (docs/expected-errors.md): one
// flag, read and reported the same way by each command.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <vector>

namespace npu_doctor {
class ExpectedErrors;
}

namespace npu_doctor::cli {

// Repeatable, one file per flag: the paths after it stay paths.
CLI::Option* add_expected_option(CLI::App* app, std::vector<std::string>& files, const std::string& help);

// Reads `files` into `out` (null when there are none). A file with a problem is reported on
// stderr ("npu-doctor: --expected: FILE:LINE: why") and false returned: a usage error.
bool load_expected_option(const std::vector<std::string>& files, std::shared_ptr<const ExpectedErrors>& out);

}  // namespace npu_doctor::cli
