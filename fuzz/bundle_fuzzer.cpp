// Support bundles read back (src/bundle, `diagnose BUNDLE` and `check --root BUNDLE`): a
// file that may be a bundle archive is sniffed, unpacked into a private temporary
// directory (member names are outside input: "../", absolute paths, links) and its
// probe record (check/probe-record.json) read; the first byte chooses between the
// archive path and the probe record read directly against an empty bundle directory.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>

#include "bundle/bundle_archive.hpp"
#include "bundle/probe_record.hpp"
#include "fuzz_support.hpp"

namespace {

const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const char* base = ::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    std::filesystem::path d = std::filesystem::path(base) / ("npu-doctor-fuzz-bundle-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d / "empty");
    return d;
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace npu_doctor;
  if (size == 0) return 0;
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  std::string error;
  if (data[0] & 1u) {
    (void)bundle::ProbeRecord::from_json(std::string(text), (scratch_dir() / "empty").string(), error);
    return 0;
  }
  const std::filesystem::path file = scratch_dir() / "bundle.tar.gz";
  {
    const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return 0;
    const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!written) return 0;
  }
  if (bundle::is_bundle(file.string())) {
    if (auto opened = bundle::open_bundle(file.string(), error)) {
      (void)opened->probe_record(error);
      (void)opened->display(opened->dir() + "/logs/x.log");
    }
  }
  std::filesystem::remove(file);
  return 0;
}
