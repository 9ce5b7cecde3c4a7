#include "build_info.hpp"

#include <archive.h>
#include <hs/hs.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>
#include <string_view>

#include "kb_snapshot.hpp"
#include "npu_doctor/embedded_files.hpp"
#include "npu_doctor/version.hpp"

namespace npu_doctor {
namespace {

// Hyperscan's last release is 5.4.2; its portable fork Vectorscan went on from 5.4.3
// under the same library name and API.
std::string engine_name(std::string_view version) {
  int major = 0, minor = 0, patch = 0;
  if (std::sscanf(std::string(version).c_str(), "%d.%d.%d", &major, &minor, &patch) == 3 &&
      (major > 5 || (major == 5 && (minor > 4 || (minor == 4 && patch > 2))))) {
    return "Vectorscan";
  }
  return "Hyperscan";
}

// A filter counts when libarchive decodes it itself: ARCHIVE_WARN means it would run an
// external program, which npu-doctor never relies on.
std::vector<std::string> native_filters() {
  struct Filter {
    const char* name;
    int (*enable)(struct archive*);
  };
  static constexpr Filter kFilters[] = {
      {"gzip", archive_read_support_filter_gzip}, {"bzip2", archive_read_support_filter_bzip2},
      {"xz", archive_read_support_filter_xz},     {"lzma", archive_read_support_filter_lzma},
      {"lzip", archive_read_support_filter_lzip}, {"zstd", archive_read_support_filter_zstd},
      {"lz4", archive_read_support_filter_lz4},   {"compress", archive_read_support_filter_compress},
  };
  std::vector<std::string> names;
  for (const auto& f : kFilters) {
    const std::unique_ptr<struct archive, int (*)(struct archive*)> a(archive_read_new(), archive_read_free);
    if (a && f.enable(a.get()) == ARCHIVE_OK) names.emplace_back(f.name);
  }
  return names;
}

bool mpi_binary_present() {
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return !ec && std::filesystem::exists(self.parent_path() / "npu-doctor-mpi", ec);
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : " ") + s;
  return out;
}

}  // namespace

BuildInfo build_info() {
  BuildInfo b;
  b.version = kVersion;
  for (const auto& f : kb_snapshots_in_use()) {
    if (const auto s = read_kb_snapshot_summary(f.content)) {
      b.kb_version = s->version;
      b.kb_entries += s->entries;
    }
  }
  const std::string hs = hs_version();
  b.engine = engine_name(hs) + " " + hs;
  b.libarchive = archive_version_string();
  b.compression = native_filters();
  b.mpi = mpi_binary_present();
  return b;
}

std::vector<std::string> kb_files_in(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const auto ext = it->path().extension();
    if (ext == ".yaml" || ext == ".yml") files.push_back(it->path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string version_text(const std::string& site_kb_dir) {
  const BuildInfo b = build_info();
  std::ostringstream out;
  out << "npu-doctor " << b.version << "\n";
  out << "knowledge base: " << (b.kb_version.empty() ? "(damaged: rebuild npu-doctor)" : b.kb_version) << ", "
      << b.kb_entries << " entries built in\n";
  if (!site_kb_dir.empty()) {
    const auto files = kb_files_in(site_kb_dir);
    out << "site knowledge base: " << site_kb_dir << " (" << files.size() << " file" << (files.size() == 1 ? "" : "s")
        << ")\n";
  }
  out << "features:\n";
  out << "  mpi: " << (b.mpi ? "yes (npu-doctor-mpi)" : "no (npu-doctor-mpi not installed; use cluster --summary-out and merge)")
      << "\n";
  out << "  compression: " << join(b.compression) << " (" << b.libarchive << ")\n";
  out << "  archives: tar zip 7z cpio\n";
  out << "  pattern engine: " << b.engine << "\n";
  // CLI11 adds the final newline.
  std::string text = out.str();
  text.pop_back();
  return text;
}

}  // namespace npu_doctor
