#include "hccl/hccl_test_support.hpp"

#include <sys/stat.h>

#include <cstdlib>
#include <fstream>

namespace npu_doctor::hccl::testing {

std::string fixture(const std::string& relative) { return std::string(NPU_DOCTOR_HCCL_FIXTURES) + "/" + relative; }

ScopedEnvVar::ScopedEnvVar(std::string name, std::optional<std::string> value) : name_(std::move(name)) {
  if (const char* v = std::getenv(name_.c_str())) old_ = v;
  if (value) ::setenv(name_.c_str(), value->c_str(), 1);
  else ::unsetenv(name_.c_str());
}

ScopedEnvVar::~ScopedEnvVar() {
  if (old_) ::setenv(name_.c_str(), old_->c_str(), 1);
  else ::unsetenv(name_.c_str());
}

namespace {
std::string prefixed_path(const std::filesystem::path& dir) {
  const char* p = std::getenv("PATH");
  return dir.string() + ":" + (p != nullptr ? p : "/usr/bin:/bin");
}
}  // namespace

ScopedPathPrefix::ScopedPathPrefix(const std::filesystem::path& dir) : path_("PATH", prefixed_path(dir)) {}

std::filesystem::path write_script(const std::filesystem::path& dir, const std::string& name, const std::string& body) {
  std::filesystem::create_directories(dir);
  const auto p = dir / name;
  {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << "#!/bin/sh\n" << body;
  }
  ::chmod(p.c_str(), 0755);
  return p;
}

std::string capture(const Evidence& e, const std::string& key) {
  for (const auto& [k, v] : e.captures) {
    if (k == key) return v;
  }
  return {};
}

}  // namespace npu_doctor::hccl::testing
