#pragma once
// The bundle on disk: a .tar.gz written to a temporary name (owner-only from the first
// byte) and renamed when complete, and the way back: a bundle archive or unpacked
// directory opened for `diagnose` and `check --root`.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bundle/probe_record.hpp"
#include "npu_doctor/record_spool.hpp"
#include "diagnosis/diagnosis.hpp"

namespace npu_doctor::bundle {

inline constexpr const char* kMarkerMember = "npu-doctor-bundle.json";  // the first member
inline constexpr const char* kManifestMember = "manifest.json";         // the last member
inline constexpr const char* kProbeRecordMember = "check/probe-record.json";

struct MemberInfo {
  std::string path;  // inside the bundle directory ("logs/var/log/npu/slog/x.log")
  std::uint64_t size = 0;
  std::array<std::uint8_t, 32> digest{};  // SHA-256; kept as bytes, not 64 hex digits on the heap (100,000 logs)
  std::string sha256() const;              // as hex
};

// Members go straight into the compressed archive; nothing unredacted touches the disk
// (large members are redacted into a private work directory first: add_file).
class ArchiveWriter {
 public:
  // `final_path` is where the archive appears when finish() succeeds; `top_dir` the one
  // directory every member is under.
  ArchiveWriter(std::string final_path, std::string top_dir);
  ~ArchiveWriter();  // an unfinished archive is removed
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  bool open(std::string& error);
  bool add(const std::string& member, std::string_view data, std::string& error);
  bool add_directory(const std::string& member, std::string& error);
  // A member from a file, streamed (the file is not held in memory).
  bool add_file(const std::string& member, const std::string& path, std::string& error);
  // Closes the archive, syncs it and renames it to the final path.
  bool finish(std::string& error);

  // The members written so far, in order (for the manifest). Kept as records that spill to
  // a temporary file past 1 MiB: 100,000 logs held ~14 MB of them.
  std::size_t member_count() const { return members_.size(); }
  MemberInfo member(std::size_t i) const;
  std::uint64_t last_member_size() const { return last_size_; }
  std::uint64_t bytes_written() const;  // compressed size so far (after finish: the file size)

 private:
  void record(const MemberInfo& m);

  struct Impl;
  std::unique_ptr<Impl> impl_;
  RecordSpool members_;  // one MemberInfo each: digest, size, path
  std::uint64_t last_size_ = 0;
};

// A bundle opened for reading: a directory holding manifest.json, logs/, sysroot/ ...
// (an archive is unpacked into a private temporary directory, removed on destruction).
class OpenedBundle {
 public:
  ~OpenedBundle();
  OpenedBundle(const OpenedBundle&) = delete;
  OpenedBundle& operator=(const OpenedBundle&) = delete;

  const std::string& dir() const { return dir_; }          // the bundle directory
  const std::string& given() const { return given_; }      // the path the user gave
  bool from_archive() const { return !temp_.empty(); }
  // The recorded check (nullopt with `error` when the record is missing or malformed).
  std::optional<ProbeRecord> probe_record(std::string& error) const;

  // Diagnosis paths under the bundle shown as the user knows them: "BUNDLE.tar.gz:logs/..."
  std::string display(const std::string& path) const;

 private:
  friend std::unique_ptr<OpenedBundle> open_bundle(const std::string& path, std::string& error);
  OpenedBundle() = default;
  std::string dir_;
  std::string given_;
  std::string temp_;
};

// True when `path` is a bundle: a directory with the marker file (itself or its single
// sub-directory), or an archive whose first member is the marker. Cheap: reads one header.
bool is_bundle(const std::string& path);
// Opens a bundle; nullptr with `error` when it is not one, is incomplete (no manifest)
// or cannot be unpacked.
std::unique_ptr<OpenedBundle> open_bundle(const std::string& path, std::string& error);
// The probe record of a bundle (opened, read, closed again): what `check`, `hccl hccn`
// and `mem watch` replay with --root BUNDLE. Nullopt with `error` when `path` is no
// bundle or holds no readable record.
std::optional<ProbeRecord> read_probe_record(const std::string& path, std::string& error);

// `diagnose` over bundles: each bundle path becomes its logs/ directory; afterwards the
// report's paths are shown relative to the bundle the user gave.
class BundleInputs {
 public:
  // Nullopt with `error` when a path looks like a bundle but cannot be opened.
  std::optional<std::vector<std::string>> expand(const std::vector<std::string>& paths, std::string& error);
  void restore_paths(DiagnosisReport& report) const;

 private:
  std::vector<std::unique_ptr<OpenedBundle>> opened_;
};

}  // namespace npu_doctor::bundle
