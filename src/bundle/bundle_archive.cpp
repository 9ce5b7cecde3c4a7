#include "bundle/bundle_archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bundle/sha256.hpp"
#include "core/snapshot_io.hpp"
#include "core/temp_files.hpp"

namespace fs = std::filesystem;

namespace npu_doctor::bundle {

// --- writing ---------------------------------------------------------------------------

struct ArchiveWriter::Impl {
  std::string final_path;
  std::string top_dir;
  std::string temp_path;
  int fd = -1;
  archive* a = nullptr;
  bool finished = false;
};

ArchiveWriter::ArchiveWriter(std::string final_path, std::string top_dir) : impl_(std::make_unique<Impl>()) {
  impl_->final_path = std::move(final_path);
  impl_->top_dir = std::move(top_dir);
}

ArchiveWriter::~ArchiveWriter() {
  if (impl_->a != nullptr) archive_write_free(impl_->a);
  if (impl_->fd >= 0) ::close(impl_->fd);
  if (!impl_->finished && !impl_->temp_path.empty()) ::unlink(impl_->temp_path.c_str());
}

bool ArchiveWriter::open(std::string& error) {
  const fs::path final_path(impl_->final_path);
  const fs::path dir = final_path.has_parent_path() ? final_path.parent_path() : fs::path(".");
  // Hidden, in the target directory (so the rename is atomic), owner-only from creation.
  std::string pattern = (dir / ("." + final_path.filename().string() + ".partial-XXXXXX")).string();
  impl_->fd = ::mkstemp(pattern.data());
  if (impl_->fd < 0) {
    error = "cannot create a file in " + dir.string() + ": " + std::strerror(errno);
    return false;
  }
  impl_->temp_path = pattern;
  ::fchmod(impl_->fd, 0600);
  impl_->a = archive_write_new();
  if (archive_write_add_filter_gzip(impl_->a) != ARCHIVE_OK || archive_write_set_format_pax_restricted(impl_->a) != ARCHIVE_OK ||
      archive_write_open_fd(impl_->a, impl_->fd) != ARCHIVE_OK) {
    error = std::string("cannot start the archive: ") + archive_error_string(impl_->a);
    return false;
  }
  return true;
}

namespace {

std::string archive_error(archive* a, const std::string& name) {
  return name + ": " + (archive_error_string(a) ? archive_error_string(a) : "write failed");
}

bool write_header(archive* a, const std::string& name, std::uint64_t size, bool directory, std::string& error) {
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, name.c_str());
  archive_entry_set_filetype(e, directory ? AE_IFDIR : AE_IFREG);
  archive_entry_set_perm(e, directory ? 0700 : 0600);
  archive_entry_set_size(e, static_cast<la_int64_t>(size));
  archive_entry_set_mtime(e, std::time(nullptr), 0);
  const bool ok = archive_write_header(a, e) == ARCHIVE_OK;
  if (!ok) error = archive_error(a, name);
  archive_entry_free(e);
  return ok;
}

bool write_data(archive* a, const std::string& name, std::string_view data, std::string& error) {
  while (!data.empty()) {
    const la_ssize_t n = archive_write_data(a, data.data(), data.size());
    if (n <= 0) {
      error = archive_error(a, name);
      return false;
    }
    data.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool write_entry(archive* a, const std::string& name, std::string_view data, bool directory, std::string& error) {
  return write_header(a, name, directory ? 0 : data.size(), directory, error) && write_data(a, name, data, error);
}

}  // namespace

std::string MemberInfo::sha256() const { return to_hex(digest); }

// A member's record (snapshot_io's byte layer): the digest's 32 bytes, the size, the path.
void ArchiveWriter::record(const MemberInfo& m) {
  snapshot_io::Writer w;
  w.bytes(std::string_view(reinterpret_cast<const char*>(m.digest.data()), m.digest.size()));
  w.i64(static_cast<std::int64_t>(m.size));
  w.str(m.path);
  members_.push_back(w.take());
  last_size_ = m.size;
}

MemberInfo ArchiveWriter::member(std::size_t i) const {
  const std::string record = members_[i];
  snapshot_io::Reader r(record);
  MemberInfo m;
  const std::string_view digest = r.bytes(m.digest.size());
  std::copy(digest.begin(), digest.end(), m.digest.begin());
  m.size = static_cast<std::uint64_t>(r.i64());
  m.path = r.str();
  return m;
}

bool ArchiveWriter::add(const std::string& member, std::string_view data, std::string& error) {
  if (!write_entry(impl_->a, impl_->top_dir + "/" + member, data, false, error)) return false;
  record({member, data.size(), sha256(data)});
  return true;
}

bool ArchiveWriter::add_file(const std::string& member, const std::string& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0) {
    error = path + ": " + std::strerror(errno);
    if (fd >= 0) ::close(fd);
    return false;
  }
  const std::string name = impl_->top_dir + "/" + member;
  const auto size = static_cast<std::uint64_t>(st.st_size);
  bool ok = write_header(impl_->a, name, size, false, error);
  Sha256 digest;
  std::uint64_t done = 0;
  std::string buf(1u << 16, '\0');
  while (ok && done < size) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error = path + (n < 0 ? ": " + std::string(std::strerror(errno)) : std::string(": shorter than it was"));
      ok = false;
      break;
    }
    const std::string_view piece(buf.data(), static_cast<std::size_t>(std::min<std::uint64_t>(static_cast<std::uint64_t>(n), size - done)));
    digest.update(piece);
    ok = write_data(impl_->a, name, piece, error);
    done += piece.size();
  }
  ::close(fd);
  if (ok) record({member, size, digest.finish()});
  return ok;
}

bool ArchiveWriter::add_directory(const std::string& member, std::string& error) {
  return write_entry(impl_->a, impl_->top_dir + "/" + member, {}, true, error);
}

std::uint64_t ArchiveWriter::bytes_written() const {
  if (impl_->finished) {
    std::error_code ec;
    const auto n = fs::file_size(impl_->final_path, ec);
    return ec ? 0 : n;
  }
  return impl_->a ? static_cast<std::uint64_t>(archive_filter_bytes(impl_->a, -1)) : 0;
}

bool ArchiveWriter::finish(std::string& error) {
  if (archive_write_close(impl_->a) != ARCHIVE_OK) {
    error = std::string("cannot finish the archive: ") + archive_error_string(impl_->a);
    return false;
  }
  archive_write_free(impl_->a);
  impl_->a = nullptr;
  if (::fsync(impl_->fd) != 0 || ::close(impl_->fd) != 0) {
    impl_->fd = -1;
    error = std::string("cannot write ") + impl_->temp_path + ": " + std::strerror(errno);
    return false;
  }
  impl_->fd = -1;
  if (::rename(impl_->temp_path.c_str(), impl_->final_path.c_str()) != 0) {
    error = "cannot rename to " + impl_->final_path + ": " + std::strerror(errno);
    return false;
  }
  impl_->finished = true;
  return true;
}

// --- reading ---------------------------------------------------------------------------

namespace {

struct ReadArchive {
  archive* a = archive_read_new();
  explicit ReadArchive(const std::string& path) {
    archive_read_support_filter_all(a);
    archive_read_support_format_tar(a);
    ok = archive_read_open_filename(a, path.c_str(), 1 << 16) == ARCHIVE_OK;
  }
  ~ReadArchive() { archive_read_free(a); }
  ReadArchive(const ReadArchive&) = delete;
  ReadArchive& operator=(const ReadArchive&) = delete;
  bool ok = false;
};

// "top/x" -> "x"; "x" -> "x".
std::string strip_top(const std::string& name) {
  const auto slash = name.find('/');
  return slash == std::string::npos ? name : name.substr(slash + 1);
}

bool marker_in(const fs::path& dir) {
  std::error_code ec;
  return fs::is_regular_file(dir / kMarkerMember, ec);
}

std::optional<fs::path> bundle_dir_of(const fs::path& dir) {
  if (marker_in(dir)) return dir;
  std::error_code ec;
  std::optional<fs::path> only;
  int count = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (++count > 1) return std::nullopt;
    if (it->is_directory(ec) && marker_in(it->path())) only = it->path();
  }
  return count == 1 ? only : std::nullopt;
}

}  // namespace

bool is_bundle(const std::string& path) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return bundle_dir_of(path).has_value();
  if (!fs::is_regular_file(path, ec)) return false;
  ReadArchive r(path);
  archive_entry* e = nullptr;
  if (!r.ok || archive_read_next_header(r.a, &e) != ARCHIVE_OK) return false;
  return strip_top(archive_entry_pathname(e)) == kMarkerMember;
}

OpenedBundle::~OpenedBundle() {
  if (!temp_.empty()) {
    std::error_code ec;
    fs::remove_all(temp_, ec);
  }
}

std::optional<ProbeRecord> OpenedBundle::probe_record(std::string& error) const {
  std::ifstream in(dir_ + "/" + kProbeRecordMember, std::ios::binary);
  if (!in) {
    error = given_ + ": the bundle holds no " + kProbeRecordMember + " (collected with check skipped?)";
    return std::nullopt;
  }
  std::ostringstream s;
  s << in.rdbuf();
  return ProbeRecord::from_json(s.str(), dir_, error);
}

std::optional<ProbeRecord> read_probe_record(const std::string& path, std::string& error) {
  const auto opened = open_bundle(path, error);
  return opened ? opened->probe_record(error) : std::nullopt;
}

std::string OpenedBundle::display(const std::string& path) const {
  if (!from_archive()) return path;
  const std::string prefix = dir_ + "/";
  return path.starts_with(prefix) ? given_ + ":" + path.substr(prefix.size()) : path;
}

namespace {

// Unpacks regular files and directories only, never outside `dest`.
bool unpack(const std::string& archive_path, const fs::path& dest, std::string& error) {
  ReadArchive r(archive_path);
  if (!r.ok) {
    error = archive_path + ": " + archive_error_string(r.a);
    return false;
  }
  archive_entry* e = nullptr;
  int rc = ARCHIVE_OK;
  while ((rc = archive_read_next_header(r.a, &e)) == ARCHIVE_OK) {
    const fs::path rel = fs::path(archive_entry_pathname(e)).lexically_normal();
    if (rel.is_absolute() || rel.empty() || *rel.begin() == "..") {
      error = archive_path + ": member " + rel.string() + " points outside the bundle";
      return false;
    }
    std::error_code ec;
    const auto type = archive_entry_filetype(e);
    if (type == AE_IFDIR) {
      fs::create_directories(dest / rel, ec);
      continue;
    }
    if (type != AE_IFREG) continue;
    fs::create_directories((dest / rel).parent_path(), ec);
    const int fd = ::open((dest / rel).c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) {
      error = (dest / rel).string() + ": " + std::strerror(errno);
      return false;
    }
    const bool ok = archive_read_data_into_fd(r.a, fd) == ARCHIVE_OK;
    ::close(fd);
    if (!ok) {
      error = archive_path + ": " + archive_error_string(r.a);
      return false;
    }
  }
  if (rc != ARCHIVE_EOF) {
    error = archive_path + ": " + (archive_error_string(r.a) ? archive_error_string(r.a) : "cannot read");
    return false;
  }
  return true;
}

}  // namespace

std::unique_ptr<OpenedBundle> open_bundle(const std::string& path, std::string& error) {
  std::unique_ptr<OpenedBundle> b(new OpenedBundle());
  b->given_ = path;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    auto dir = bundle_dir_of(path);
    if (!dir) {
      error = path + ": not a bundle (no " + kMarkerMember + ")";
      return nullptr;
    }
    b->dir_ = fs::absolute(*dir, ec).lexically_normal().string();
  } else {
    if (!is_bundle(path)) {
      error = path + ": not a bundle (its first member is not " + kMarkerMember + ")";
      return nullptr;
    }
    std::string pattern = temporary_directory() + "/npu-doctor-bundle-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) {
      error = std::string("cannot create a temporary directory: ") + std::strerror(errno);
      return nullptr;
    }
    b->temp_ = pattern;
    if (!unpack(path, pattern, error)) return nullptr;
    auto dir = bundle_dir_of(pattern);
    if (!dir) {
      error = path + ": not a bundle";
      return nullptr;
    }
    b->dir_ = dir->string();
  }
  if (!fs::is_regular_file(fs::path(b->dir_) / kManifestMember, ec)) {
    error = path + ": incomplete bundle (no " + kManifestMember + ")";
    return nullptr;
  }
  return b;
}

std::optional<std::vector<std::string>> BundleInputs::expand(const std::vector<std::string>& paths, std::string& error) {
  std::vector<std::string> out;
  for (const auto& p : paths) {
    if (p == "-" || !is_bundle(p)) {
      out.push_back(p);
      continue;
    }
    auto b = open_bundle(p, error);
    if (!b) return std::nullopt;
    out.push_back(b->dir() + "/logs");
    opened_.push_back(std::move(b));
  }
  return out;
}

void BundleInputs::restore_paths(DiagnosisReport& report) const {
  if (opened_.empty()) return;
  report.inputs.rewrite_paths([&](std::string& path) {
    for (const auto& b : opened_) path = b->display(path);
  });
  for (const auto& b : opened_) {
    for (auto& f : report.findings) {
      for (auto& e : f.evidence) e.path = b->display(e.path);
    }
  }
}

}  // namespace npu_doctor::bundle
