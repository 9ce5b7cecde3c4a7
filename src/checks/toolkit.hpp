#pragma once
// Finding the CANN toolkit and its version: the directory the environment names, then
// the usual install places (classic ascend-toolkit/latest, the newer cann/ layout, a
// user's ~/Ascend, NNAE), read from ascend_toolkit_install.info or version.cfg.
#include <optional>
#include <string>
#include <vector>

#include "checks/check_context.hpp"

namespace npu_doctor::checks {

struct Toolkit {
  std::string dir;            // "/usr/local/Ascend/ascend-toolkit/latest"
  std::string version;        // "8.0.RC2"; empty when no version file was readable
  Evidence version_evidence;  // the line the version was read from
  std::optional<ToolkitInstallInfo> install_info;
  std::string set_env;        // the set_env.sh to source
};

// The toolkit, or nullopt when none of the places holds one. `looked_at` receives every
// directory tried (for the report).
std::optional<Toolkit> locate_toolkit(CheckContext& ctx, std::vector<std::string>& looked_at);

// Whether `path` is `dir` or inside it ("/a/b" is inside "/a", "/ab" is not).
bool path_within(std::string_view path, std::string_view dir);

}  // namespace npu_doctor::checks
