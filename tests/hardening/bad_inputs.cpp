#include "hardening/bad_inputs.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <stdexcept>
#include <thread>

namespace npu_doctor::testing {

namespace fs = std::filesystem;

const char* const kErrorLine =
    "[ERROR] RUNTIME(2789701,python):2024-11-21-16:06:59.417.072 [api_c_memory.cc:28]2789701 "
    "rtMalloc:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016";

std::string name_of(BadInput kind) {
  switch (kind) {
    case BadInput::empty: return "Empty";
    case BadInput::nul_bytes: return "NulBytes";
    case BadInput::random_binary: return "RandomBinary";
    case BadInput::invalid_utf8: return "InvalidUtf8";
    case BadInput::long_line: return "GigabyteLine";
    case BadInput::crlf_and_cr: return "CrlfAndLoneCr";
    case BadInput::gzip_cut: return "GzipCutInHalf";
    case BadInput::tar_lying: return "TarMemberTooShort";
    case BadInput::bomb: return "DecompressionBomb";
    case BadInput::symlink_loop: return "SymlinkLoop";
    case BadInput::fifo: return "FifoNoWriter";
    case BadInput::unreadable: return "Unreadable";
    case BadInput::dev_zero: return "DevZero";
    case BadInput::many_files: return "HundredThousandFiles";
    case BadInput::growing: return "GrowingFile";
  }
  return "?";
}

const std::vector<BadInput>& all_bad_inputs() {
  static const std::vector<BadInput> all = {
      BadInput::empty,     BadInput::nul_bytes,    BadInput::random_binary, BadInput::invalid_utf8, BadInput::long_line,
      BadInput::crlf_and_cr, BadInput::gzip_cut,   BadInput::tar_lying,     BadInput::bomb,         BadInput::symlink_loop,
      BadInput::fifo,      BadInput::unreadable,   BadInput::dev_zero,      BadInput::many_files,   BadInput::growing};
  return all;
}

namespace {

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

// A plausible log of `lines` lines with the error line near the start.
std::string log_text(std::size_t lines) {
  std::string s = "[INFO] RUNTIME(2789701,python):2024-11-21-16:06:58.000.000 start\n" + std::string(kErrorLine) + "\n";
  for (std::size_t i = 0; i < lines; ++i) {
    s += "[INFO] RUNTIME(2789701,python):2024-11-21-16:07:00.000.000 step " + std::to_string(i) + " done\n";
  }
  return s;
}

// Writes one compressed stream (raw format) or a one-member tar with libarchive.
void write_archive(const fs::path& p, const std::function<void(archive*)>& setup, const std::string& member,
                   uint64_t repeat_bytes = 0, const std::string& repeat_unit = {}) {
  archive* a = archive_write_new();
  setup(a);
  if (archive_write_open_filename(a, p.c_str()) != ARCHIVE_OK) {
    throw std::runtime_error(std::string("archive: ") + archive_error_string(a));
  }
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, "rank_0/plog-1.log");
  archive_entry_set_filetype(e, AE_IFREG);
  archive_entry_set_perm(e, 0644);
  archive_entry_set_size(e, static_cast<la_int64_t>(member.size() + repeat_bytes));
  archive_write_header(a, e);
  archive_write_data(a, member.data(), member.size());
  if (repeat_bytes > 0) {
    std::string block;
    while (block.size() < (1u << 20)) block += repeat_unit;
    block.resize((1u << 20) / repeat_unit.size() * repeat_unit.size());
    for (uint64_t left = repeat_bytes; left > 0;) {
      const std::size_t n = static_cast<std::size_t>(std::min<uint64_t>(left, block.size()));
      archive_write_data(a, block.data(), n);
      left -= n;
    }
  }
  archive_entry_free(e);
  archive_write_close(a);
  archive_write_free(a);
}

// The 100,000-file directory is made once per machine and shared (each test runs in
// its own process): built under a temporary name, renamed into place when complete.
fs::path many_files_dir() {
  const fs::path dir = fs::temp_directory_path() / "npu-doctor-hardening-100k-v1";
  if (fs::exists(dir / ".complete")) return dir;
  const fs::path tmp = dir.string() + ".tmp." + std::to_string(::getpid());
  fs::remove_all(tmp);
  for (int d = 0; d < 100; ++d) {
    const fs::path sub = tmp / ("rank_" + std::to_string(d));
    fs::create_directories(sub);
    for (int f = 0; f < 1000; ++f) {
      write(sub / ("plog-" + std::to_string(f) + ".log"),
            "[INFO] RUNTIME(1,python):2024-11-21-16:07:00.000.000 step " + std::to_string(f) + " done\n");
    }
  }
  write(tmp / ".complete", "");
  std::error_code ec;
  fs::rename(tmp, dir, ec);
  if (ec) fs::remove_all(tmp, ec);  // another process won the race: use its copy
  return dir;
}

// Appends log lines to a file from another thread until destroyed (at most 64 MiB).
struct Grower {
  std::atomic<bool> stop{false};
  std::thread thread;
  explicit Grower(fs::path p) {
    thread = std::thread([this, p] {
      std::ofstream out(p, std::ios::binary | std::ios::app);
      const std::string chunk = log_text(500);
      for (std::size_t written = 0; !stop.load() && written < (64u << 20); written += chunk.size()) {
        out << chunk << std::flush;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
      }
    });
  }
  ~Grower() {
    stop.store(true);
    thread.join();
  }
};

}  // namespace

MadeInput make_bad_input(BadInput kind, const fs::path& where, bool stdin_ok) {
  MadeInput m;
  m.path = where;
  switch (kind) {
    case BadInput::empty:
      write(where, "");
      break;
    case BadInput::nul_bytes:
      write(where, std::string(64 * 1024, '\0'));
      break;
    case BadInput::random_binary: {
      std::mt19937 rng(42);
      std::string bytes(256 * 1024, '\0');
      for (auto& c : bytes) c = static_cast<char>(rng() & 0xff);
      write(where, bytes);
      break;
    }
    case BadInput::invalid_utf8:
      write(where, "caf\xc3\n\xff\xfe broken \xe4\xb8 utf-8\n" + std::string(kErrorLine) + " \xc0\xaf\n\xed\xa0\x80 end\n");
      break;
    case BadInput::long_line:
      if (stdin_ok) {
        m.path = "-";
        m.generated_stdin = true;
      } else {
        if (::mkfifo(where.c_str(), 0644) != 0) throw std::runtime_error("mkfifo");
        m.keep_alive = std::make_shared<FifoFeeder>(where, kLongLineBytes);
      }
      break;
    case BadInput::crlf_and_cr:
      write(where, "start\r\nprogress 10%\rprogress 50%\rprogress 100%\r\n" + std::string(kErrorLine) +
                       "\r\nlone\rcarriage\rreturns\rend\r\n");
      break;
    case BadInput::gzip_cut: {
      write_archive(where, [](archive* a) {
        archive_write_add_filter_gzip(a);
        archive_write_set_format_raw(a);
      }, log_text(40000));
      const auto size = fs::file_size(where);
      fs::resize_file(where, size / 2);
      break;
    }
    case BadInput::tar_lying: {
      write_archive(where, [](archive* a) { archive_write_set_format_pax_restricted(a); }, log_text(20000));
      fs::resize_file(where, 512 + 100 * 1024);  // the header claims ~1.4 MB; 100 KiB follow
      break;
    }
    case BadInput::bomb:
      write_archive(where, [](archive* a) {
        archive_write_add_filter_zstd(a);
        archive_write_set_format_raw(a);
      }, log_text(0), kBombBytes, "[INFO] RUNTIME(2789701,python):2024-11-21-16:07:00.000.000 step done\n");
      break;
    case BadInput::symlink_loop:
      fs::create_directories(where);
      fs::create_directory_symlink("..", where / "parent");
      fs::create_directory_symlink(".", where / "self");
      fs::create_symlink("b.log", where / "a.log");
      fs::create_symlink("a.log", where / "b.log");
      break;
    case BadInput::fifo:
      if (::mkfifo(where.c_str(), 0644) != 0) throw std::runtime_error("mkfifo");
      break;
    case BadInput::unreadable:
      write(where, log_text(10));
      fs::permissions(where, fs::perms::none);
      if (::geteuid() == 0) {
        if (::access("/usr/bin/setpriv", X_OK) != 0) {
          m.skip = "running as root and setpriv is not installed: an unreadable file cannot be tested";
        } else {
          m.wrapper = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"};
        }
      }
      break;
    case BadInput::dev_zero:
      fs::create_symlink("/dev/zero", where);
      break;
    case BadInput::many_files:
      fs::create_directory_symlink(many_files_dir(), where);
      break;
    case BadInput::growing:
      write(where, log_text(100000));  // ~8 MB before it starts growing
      m.keep_alive = std::make_shared<Grower>(where);
      break;
  }
  return m;
}

}  // namespace npu_doctor::testing
