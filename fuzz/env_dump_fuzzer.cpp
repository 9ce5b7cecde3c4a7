// Environment dumps as `hccl env` takes them (src/hccl/env_file.cpp): `env`
// output, shell exports, /proc/<pid>/environ, `hccl env --capture` files; and the capture
// writer, whose output must read back to the same variables.
#include <map>

#include "hccl/env_check.hpp"
#include "hccl/env_file.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  std::string error;
  auto env = hccl::parse_env_file("fuzz.env", fuzz::as_text(data, size), &error);
  if (!env) return 0;
  (void)hccl::to_string(env->format);
  std::map<std::string, std::string> vars;
  for (const hccl::EnvVar& v : env->vars) {
    (void)env->find(v.name);
    if (hccl::is_captured_variable(v.name)) vars[v.name] = v.value;
  }
  const std::string capture = hccl::format_env_capture(vars, env->host, "fuzz", "2025-01-01T00:00:00Z");
  std::vector<hccl::EnvFile> files{*env};
  if (auto again = hccl::parse_env_file("capture.env", capture, &error)) files.push_back(std::move(*again));
  (void)hccl::check_env_files(files, fuzz::builtin_kb());
  return 0;
}
