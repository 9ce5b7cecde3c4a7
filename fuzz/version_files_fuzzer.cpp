// The version files Ascend packages install (driver/firmware version.info, the toolkit's
// install.info and version.cfg, /etc/ascend_install.info) and the version strings and
// ranges they hold (src/checks/version_files.cpp, version.cpp). Every parser sees every
// input: they are cheap, and a file of one kind is a fine mutation seed for another.
#include "checks/version.hpp"
#include "checks/version_files.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor::checks;
  const std::string_view text = npu_doctor::fuzz::as_text(data, size);
  std::string error;
  if (auto d = parse_driver_version_info(text, &error)) {
    if (auto v = Version::parse(d->version)) {
      if (d->compatible_firmware)
        for (const VersionSpec& s : *d->compatible_firmware) (void)s.matches(*v);
    }
    (void)inner_release(d->inner_version);
  }
  (void)parse_firmware_version_info(text, &error);
  (void)parse_toolkit_install_info(text, &error);
  (void)cann_version_from_cfg(parse_version_cfg(text));
  (void)parse_ascend_install_info(text);
  // The text as one version, spec or bracket list, compared with itself.
  if (auto v = Version::parse(text)) {
    if ((*v <=> *v) != 0) __builtin_trap();
    (void)v->release();
    (void)v->has_prefix(*v);
  }
  if (auto s = VersionSpec::parse(text)) {
    if (auto v = Version::parse("23.0.rc3")) (void)s->matches(*v);
  }
  (void)parse_bracket_list(text);
  (void)parse_version_ranges(text);
  return 0;
}
