#pragma once
// The documented exit codes of every subcommand (README, docs/cli.md).
namespace npu_doctor::cli {

enum ExitCode : int {
  kOk = 0,          // nothing wrong found (diagnose: no error-level finding; lint: clean)
  kFindings = 1,    // something found (diagnose: a root cause; lint: problems; explain: unknown code)
  kUsage = 2,       // bad command line, or no input could be read
  kInternal = 3,    // a bug: please report it
};

}  // namespace npu_doctor::cli
