#pragma once
// Which torch and torch_npu the job's Python would import, from package metadata: the
// interpreter's sys.path when it can be run (--python, the job's own interpreter with
// --pid, or python3 on PATH), else the usual site-packages directories of the --root tree.
#include <optional>
#include <string>
#include <vector>

#include "checks/check_context.hpp"

namespace npu_doctor::checks {

struct InstalledPackage {
  std::string name;     // normalised: torch, torch_npu
  std::string version;  // from METADATA's Version:, else the directory name
  Evidence evidence;    // the metadata line it was read from
};

struct PythonEnvironment {
  std::string interpreter;  // what was run; empty when the tree was scanned
  std::string version;      // the interpreter's version, when it ran
  bool scanned_tree = false;
  std::vector<std::string> site_dirs;  // in import order
  std::optional<InstalledPackage> torch, torch_npu;
  std::string site_dir;     // where torch (or torch_npu) was found
};

// Finds the packages; raises check.python-not-found / check.python-failed on `step`
// when no interpreter could answer. nullopt when nothing could be searched.
std::optional<PythonEnvironment> find_python_packages(CheckContext& ctx, StepResult& step);

// The interpreter --probe-device runs (the one find_python_packages ran), or "".
std::string python_interpreter(CheckContext& ctx);

}  // namespace npu_doctor::checks
