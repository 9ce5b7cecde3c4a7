#include "live/plog_locations.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>

namespace npu_doctor::live {

std::vector<std::string> default_plog_roots() {
  auto var = [](const char* name) -> std::string {
    const char* v = std::getenv(name);
    return v != nullptr ? v : "";
  };
  if (auto p = var("ASCEND_PROCESS_LOG_PATH"); !p.empty()) return {p};
  if (auto p = var("ASCEND_WORK_PATH"); !p.empty()) return {p + "/log/debug"};
  std::string home = var("HOME");
  if (home.empty()) {
    if (const passwd* pw = ::getpwuid(::getuid()); pw != nullptr && pw->pw_dir != nullptr) home = pw->pw_dir;
  }
  if (home.empty()) return {};
  return {home + "/ascend/log/debug"};
}

}  // namespace npu_doctor::live
