#pragma once
// What `npu-doctor --version` says about this build: the program, its knowledge base
// (read from the snapshot's header, not decoded), the pattern engine, the compression
// formats libarchive reads natively, and whether npu-doctor-mpi is installed next to it.
#include <cstddef>
#include <string>
#include <vector>

namespace npu_doctor {

struct BuildInfo {
  std::string version;
  std::string kb_version;
  std::size_t kb_entries = 0;
  std::string engine;                    // "Hyperscan 5.4.0 2023-01-22" or "Vectorscan 5.4.9 ..."
  std::string libarchive;                // "libarchive 3.6.2"
  std::vector<std::string> compression;  // gzip, bzip2, xz, lzma, lzip, zstd, lz4, compress
  bool mpi = false;                      // npu-doctor-mpi next to this executable
};

BuildInfo build_info();

// The knowledge-base files (*.yaml, *.yml) directly in `dir`, sorted; none when it is
// missing or unreadable.
std::vector<std::string> kb_files_in(const std::string& dir);

// The --version text; `site_kb_dir` is the site's overrides directory ("" = none).
std::string version_text(const std::string& site_kb_dir);

}  // namespace npu_doctor
