#include "input_source.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>

#include "file_parts.hpp"

namespace npu_doctor {

std::string_view to_string(InputStatus s) {
  switch (s) {
    case InputStatus::ok: return "ok";
    case InputStatus::skipped: return "skipped";
    case InputStatus::error: return "error";
    case InputStatus::partial: return "partial";
  }
  return "error";
}

namespace {

namespace fs = std::filesystem;

constexpr std::size_t kPeekBytes = 512;  // enough for every magic number we test (tar: 262)
constexpr int kMaxArchiveDepth = 1;      // a .gz inside a .tar is read; deeper nesting is not
// Decompression bombs: past kExpansionFloor bytes out, an archive may give at most
// kMaxExpansion bytes per compressed byte read. Real logs compress 5-50x (gzip stops at
// ~1030x), so only a crafted or degenerate file trips it, and time stays bounded.
constexpr uint64_t kExpansionFloor = 256u << 20;
constexpr uint64_t kMaxExpansion = 1000;

// Bytes into and out of one top-level archive (nested members included).
struct ExpansionBudget {
  uint64_t in = 0;
  uint64_t out = 0;
  bool exceeded() const { return out > kExpansionFloor && out / kMaxExpansion > in; }
};

class FdStream final : public ByteStream {
 public:
  FdStream(int fd, bool owned) : fd_(fd), owned_(owned) {}
  ~FdStream() override {
    if (owned_ && fd_ >= 0) ::close(fd_);
  }
  FdStream(const FdStream&) = delete;
  FdStream& operator=(const FdStream&) = delete;

  long read(char* buf, std::size_t n) override {
    for (;;) {
      const ssize_t r = ::read(fd_, buf, n);
      if (r >= 0) return static_cast<long>(r);
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a stdin left non-blocking by whoever started us
        pollfd p{fd_, POLLIN, 0};
        ::poll(&p, 1, -1);
        continue;
      }
      error_ = std::strerror(errno);
      return -1;
    }
  }
  std::string error() const override { return error_; }
  int fd() const { return fd_; }

 private:
  int fd_;
  bool owned_;
  std::string error_;
};

// Lets the first bytes be inspected (magic numbers) and then read again.
class PeekStream final : public ByteStream {
 public:
  explicit PeekStream(ByteStream& inner) : inner_(inner) {}

  std::string_view peek(std::size_t n) {
    while (head_.size() < n && !eof_) {
      char buf[kPeekBytes];
      const long r = inner_.read(buf, std::min(sizeof buf, n - head_.size()));
      if (r <= 0) {
        eof_ = true;
        failed_ = r < 0;
        break;
      }
      head_.append(buf, static_cast<std::size_t>(r));
    }
    return head_;
  }

  long read(char* buf, std::size_t n) override {
    if (pos_ < head_.size()) {
      const std::size_t k = std::min(n, head_.size() - pos_);
      std::memcpy(buf, head_.data() + pos_, k);
      pos_ += k;
      return static_cast<long>(k);
    }
    if (failed_) return -1;
    return inner_.read(buf, n);
  }
  std::string error() const override { return inner_.error(); }

 private:
  ByteStream& inner_;
  std::string head_;
  std::size_t pos_ = 0;
  bool eof_ = false;
  bool failed_ = false;
};

// The mapping of a regular plain file at least map_threshold() long, or null: it is read.
std::shared_ptr<MappedFile> map_if_large(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  return MappedFile::map_if_large(fd, static_cast<uint64_t>(st.st_size));
}

bool starts_with_bytes(std::string_view s, std::string_view magic) { return s.substr(0, magic.size()) == magic; }

}  // namespace

bool looks_like_archive(std::string_view head) {
  using namespace std::string_view_literals;
  return starts_with_bytes(head, "\x1f\x8b"sv) ||                  // gzip
         starts_with_bytes(head, "BZh"sv) ||                       // bzip2
         starts_with_bytes(head, "\xfd\x37\x7a\x58\x5a\x00"sv) ||  // xz
         starts_with_bytes(head, "\x28\xb5\x2f\xfd"sv) ||          // zstd
         starts_with_bytes(head, "\x04\x22\x4d\x18"sv) ||          // lz4
         starts_with_bytes(head, "PK\x03\x04"sv) ||                // zip
         starts_with_bytes(head, "7z\xbc\xaf\x27\x1c"sv) ||        // 7z
         (head.size() >= 262 && head.substr(257, 5) == "ustar"sv);  // tar
}

namespace {

// libarchive reading from any ByteStream through callbacks.
class ArchiveReader {
 public:
  // `budget_in` counts the compressed bytes read (null for a nested archive: its bytes
  // are already the outer archive's output).
  ArchiveReader(ByteStream& src, uint64_t* budget_in) : src_(src), budget_in_(budget_in), a_(archive_read_new()) {
    archive_read_support_filter_all(a_);
    archive_read_support_format_tar(a_);
    archive_read_support_format_zip(a_);
    archive_read_support_format_7zip(a_);
    archive_read_support_format_cpio(a_);
    archive_read_support_format_raw(a_);  // a single compressed file; bids lowest
  }
  ~ArchiveReader() { archive_read_free(a_); }
  ArchiveReader(const ArchiveReader&) = delete;
  ArchiveReader& operator=(const ArchiveReader&) = delete;

  bool open() { return archive_read_open(a_, this, nullptr, &ArchiveReader::read_cb, nullptr) == ARCHIVE_OK; }
  archive* get() { return a_; }
  std::string error() const {
    const char* e = archive_error_string(a_);
    return e != nullptr ? e : "unknown archive error";
  }

 private:
  static la_ssize_t read_cb(archive* a, void* self_ptr, const void** out) {
    auto* self = static_cast<ArchiveReader*>(self_ptr);
    const long r = self->src_.read(self->buf_.data(), self->buf_.size());
    if (r < 0) {
      archive_set_error(a, EIO, "%s", self->src_.error().c_str());
      return -1;
    }
    *out = self->buf_.data();
    if (self->budget_in_ != nullptr) *self->budget_in_ += static_cast<uint64_t>(r);
    return r;
  }

  ByteStream& src_;
  uint64_t* budget_in_;
  archive* a_;
  std::vector<char> buf_ = std::vector<char>(1 << 16);
};

// Block by block (archive_read_data_block), so that a member cut short (a gzip cut in
// half, a tar member claiming more bytes than follow) still yields every byte before
// the cut; archive_read_data would drop the whole request that hits it.
class ArchiveMemberStream final : public ByteStream {
 public:
  explicit ArchiveMemberStream(ArchiveReader& ar) : ar_(ar) {}
  long read(char* buf, std::size_t n) override {
    while (left_ == 0) {
      if (done_) return 0;
      const void* block = nullptr;
      std::size_t size = 0;
      la_int64_t offset = 0;
      const int rc = archive_read_data_block(ar_.get(), &block, &size, &offset);
      if (rc == ARCHIVE_EOF) {
        done_ = true;
        return 0;
      }
      if (rc < ARCHIVE_WARN) {
        error_ = ar_.error();
        return -1;
      }
      next_ = static_cast<const char*>(block);
      left_ = size;
    }
    const std::size_t k = std::min(n, left_);
    std::memcpy(buf, next_, k);
    next_ += k;
    left_ -= k;
    return static_cast<long>(k);
  }
  std::string error() const override { return error_; }

 private:
  ArchiveReader& ar_;
  const char* next_ = nullptr;
  std::size_t left_ = 0;
  bool done_ = false;
  std::string error_;
};

// What the scanner reads from an archive member: counts the bytes out and stops with a
// clear error when the archive expands like a decompression bomb.
class BudgetStream final : public ByteStream {
 public:
  BudgetStream(ByteStream& inner, ExpansionBudget& budget) : inner_(inner), budget_(budget) {}
  long read(char* buf, std::size_t n) override {
    if (budget_.exceeded()) {
      error_ = "the archive expands more than " + std::to_string(kMaxExpansion) +
               " times its compressed size (a decompression bomb?)";
      return -1;
    }
    const long r = inner_.read(buf, n);
    if (r > 0) budget_.out += static_cast<uint64_t>(r);
    return r;
  }
  std::string error() const override { return error_.empty() ? inner_.error() : error_; }

 private:
  ByteStream& inner_;
  ExpansionBudget& budget_;
  std::string error_;
};

void visit_archive(ByteStream& src, const std::string& display, int depth, ExpansionBudget& budget,
                   const StreamVisitor& visit, std::vector<InputReport>& reports) {
  ArchiveReader ar(src, depth == 0 ? &budget.in : nullptr);
  if (!ar.open()) {
    reports.push_back(input_report(display, "archive", InputStatus::error, "cannot open archive: " + ar.error()));
    return;
  }
  int members = 0;
  for (;;) {
    archive_entry* entry = nullptr;
    const int rc = archive_read_next_header(ar.get(), &entry);
    if (rc == ARCHIVE_EOF) break;
    if (rc < ARCHIVE_WARN) {
      reports.push_back(input_report(display, "archive", members > 0 ? InputStatus::partial : InputStatus::error,
                                     (members > 0 ? "archive ends early after " + std::to_string(members) + " file(s): "
                                                  : "cannot read archive: ") + ar.error()));
      return;
    }
    const bool raw = archive_format(ar.get()) == ARCHIVE_FORMAT_RAW;
    if (!raw && archive_entry_filetype(entry) != AE_IFREG) continue;
    ++members;
    const char* name = archive_entry_pathname(entry);
    const std::string member_display = raw ? display : display + ":" + (name != nullptr ? name : "?");
    ArchiveMemberStream member(ar);
    PeekStream peek(member);
    if (depth < kMaxArchiveDepth && looks_like_archive(peek.peek(kPeekBytes))) {
      visit_archive(peek, member_display, depth + 1, budget, visit, reports);
    } else {
      InputReport report = input_report(member_display, raw ? "compressed file" : "archive member");
      BudgetStream guarded(peek, budget);
      visit(guarded, report);
      reports.push_back(std::move(report));
      // A member the visitor left early (binary) is read to its end here rather than
      // skipped inside libarchive, so that its bytes count against the budget too.
      if (!raw) {
        char sink[1 << 16];
        while (guarded.read(sink, sizeof sink) > 0) {
        }
      }
    }
    // Going on would decompress the rest of the bomb just to skip it.
    if (budget.exceeded()) {
      if (depth == 0 && !raw) {
        reports.push_back(input_report(display, "archive", InputStatus::partial,
                                       "the rest of the archive is not read: it expands more than " +
                                           std::to_string(kMaxExpansion) + " times its compressed size"));
      }
      return;
    }
  }
  if (members == 0) {
    reports.push_back(input_report(display, "archive", InputStatus::skipped, "the archive holds no files"));
  }
}

// One directory's entries in the order their full paths sort in: a directory's name
// compares with "/" after it, so that "a-b" (a file) comes before "a/x" and "a0" after
// it, as sorting every path under the root would put them. Only the directories being
// walked are in memory at a time, not every path under the root.
struct WalkEntry {
  std::string key;  // the name, with "/" after a directory's
  fs::path path;
  bool directory = false;
};

void walk_directory(const fs::path& dir, Enumeration& out) {
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  if (ec) {
    out.problems.push_back(input_report(dir.string(), "path", InputStatus::error, "cannot list directory: " + ec.message()));
    return;
  }
  std::vector<WalkEntry> entries;
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) {
      out.problems.push_back(input_report(dir.string(), "path", InputStatus::error, "cannot list directory: " + ec.message()));
      break;
    }
    std::error_code sec;
    const auto st = it->status(sec);  // follows symlinks to files
    const bool link = it->is_symlink(sec);
    if (fs::is_directory(st)) {
      if (link) continue;  // not followed: no loops
      entries.push_back({it->path().filename().string() + "/", it->path(), true});
    } else if (fs::is_regular_file(st)) {
      entries.push_back({it->path().filename().string(), it->path(), false});
    } else {
      out.problems.push_back(input_report(it->path().string(), "path", InputStatus::skipped,
                                          sec ? "broken link: " + sec.message() : "not a regular file"));
    }
  }
  std::sort(entries.begin(), entries.end(), [](const WalkEntry& a, const WalkEntry& b) { return a.key < b.key; });
  for (const WalkEntry& e : entries) {
    if (e.directory) walk_directory(e.path, out);
    else out.items.push_back({e.path.string(), false});
  }
}

}  // namespace

void InputItems::push_back(const InputItem& item) {
  std::string record(1, item.is_stdin ? '1' : '0');
  record += item.display;
  records_.push_back(record);
}

InputItem InputItems::operator[](std::size_t i) const {
  std::string record = records_[i];
  InputItem item;
  item.is_stdin = !record.empty() && record[0] == '1';
  item.display = record.empty() ? std::string() : record.substr(1);
  return item;
}

Enumeration enumerate_inputs(const std::vector<std::string>& paths) {
  Enumeration out;
  for (const auto& p : paths) {
    if (p == "-") {
      out.items.push_back({"<stdin>", true});
      continue;
    }
    std::error_code ec;
    const auto st = fs::status(p, ec);
    if (!fs::exists(st)) {
      out.problems.push_back(input_report(p, "path", InputStatus::error, "no such file or directory"));
    } else if (ec) {
      out.problems.push_back(input_report(p, "path", InputStatus::error, ec.message()));
    } else if (fs::is_directory(st)) {
      walk_directory(p, out);
    } else {
      out.items.push_back({p, false});
    }
  }
  return out;
}

void visit_streams(const InputItem& item, const StreamVisitor& visit, std::vector<InputReport>& reports) {
  std::unique_ptr<FdStream> fd_stream;
  if (item.is_stdin) {
    fd_stream = std::make_unique<FdStream>(STDIN_FILENO, false);
  } else {
    // O_NONBLOCK so that opening a FIFO without a writer cannot hang; reads block again below.
    const int fd = ::open(item.display.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
      reports.push_back(input_report(item.display, "file", InputStatus::error, std::strerror(errno)));
      return;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    fd_stream = std::make_unique<FdStream>(fd, true);
  }
  PeekStream peek(*fd_stream);
  if (looks_like_archive(peek.peek(kPeekBytes))) {
    ExpansionBudget budget;
    visit_archive(peek, item.display, 0, budget, visit, reports);
    return;
  }
  InputReport report = input_report(item.display, item.is_stdin ? "stdin" : "file");
  if (!item.is_stdin) {
    if (auto mapped = map_if_large(fd_stream->fd())) {
      // read() (other readers, what the file grew by after the mapping) preads at its own
      // position: touching the mapping would leave its pages resident.
      FileRangeStream stream(fd_stream->fd(), 0, FileRangeStream::kToFileEnd, std::move(mapped));
      visit(stream, report);
      reports.push_back(std::move(report));
      return;
    }
  }
  visit(peek, report);
  reports.push_back(std::move(report));
}

}  // namespace npu_doctor
