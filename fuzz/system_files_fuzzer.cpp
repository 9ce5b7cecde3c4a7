// The other files `check` reads from a machine (src/checks): /proc/modules, status,
// environ and cmdline, CPU lists, /etc/passwd and /etc/group, the visible-devices
// variables, Python package metadata and the outputs of the Python probes it runs.
#include "checks/cpu_list.hpp"
#include "checks/identity.hpp"
#include "checks/proc_files.hpp"
#include "checks/python_packages.hpp"
#include "checks/visible_devices.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor::checks;
  const std::string_view text = npu_doctor::fuzz::as_text(data, size);
  for (const std::string& m : parse_proc_modules(text)) (void)is_ascend_driver_module(m);
  const ProcStatus st = parse_proc_status(text);
  if (auto cpus = parse_cpu_list(st.cpus_allowed_list)) (void)format_cpu_list(*cpus);
  if (auto cpus = parse_cpu_list(text)) {
    const std::string again = format_cpu_list(*cpus);
    if (parse_cpu_list(again) != cpus) __builtin_trap();  // the list survives a round trip
    (void)intersects(*cpus, *cpus);
  }
  (void)parse_environ(text);
  (void)shell_join(parse_cmdline(text));
  (void)parse_passwd(text);
  (void)parse_group(text);
  std::string rest;
  (void)parse_rt_visible_devices(text, &rest);
  (void)parse_container_visible_devices(text);
  (void)normalize_package_name(text);
  (void)parse_package_dir_name(text);
  (void)parse_package_metadata(text);
  (void)parse_python_paths(text);
  if (auto probe = parse_device_probe(text)) (void)probe->ok();
  return 0;
}
