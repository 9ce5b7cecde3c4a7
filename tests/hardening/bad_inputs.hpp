#pragma once
// The rows of the bad-input matrix: each makes one kind of hostile input at a given
// place (a file, a directory, a FIFO, a symlink), at test time, never from a checked-in
// fixture. Big inputs are never written to disk: a 1 GiB line comes from a generator
// (a pipe or a FIFO fed by a thread), a bomb is a small compressed file.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "hardening/bounded_run.hpp"

namespace npu_doctor::testing {

enum class BadInput {
  empty,          // 0 bytes
  nul_bytes,      // 64 KiB of NUL
  random_binary,  // 256 KiB of (seeded) random bytes
  invalid_utf8,   // a log with broken UTF-8 around a real error line
  long_line,      // 1 GiB of 'a' without a newline, from a generator
  crlf_and_cr,    // CRLF line ends and lone CR (progress bars) around a real error line
  gzip_cut,       // a gzip'd log cut in half
  tar_lying,      // a tar whose member claims more bytes than the file has
  bomb,           // 512 MiB of one repeated log line, zstd-compressed (~20 KiB)
  symlink_loop,   // a directory whose links point at each other and at itself
  fifo,           // a FIFO nobody writes to
  unreadable,     // mode 000 (read by an unprivileged user when we are root)
  dev_zero,       // /dev/zero
  many_files,     // a directory of 100,000 small logs
  growing,        // a log another thread keeps appending to while it is read
};

std::string name_of(BadInput kind);
const std::vector<BadInput>& all_bad_inputs();

// The bytes of the 1 GiB line and the bomb's decompressed size.
inline constexpr uint64_t kLongLineBytes = 1ull << 30;
inline constexpr uint64_t kBombBytes = 512ull << 20;

// One made input: what to pass, plus whatever must live while the command runs.
struct MadeInput {
  std::filesystem::path path;          // what the command is given
  bool generated_stdin = false;        // long_line for commands reading "-": feed stdin instead
  std::vector<std::string> wrapper;    // unreadable as root: run as nobody
  std::string skip;                    // non-empty: this row cannot run here (why)
  std::shared_ptr<void> keep_alive;    // FIFO feeder, growing-file writer
};

// Makes `kind` at `where` (its parent directory exists). `stdin_ok`: the command reads
// "-", so long_line comes through stdin rather than a FIFO at `where`.
MadeInput make_bad_input(BadInput kind, const std::filesystem::path& where, bool stdin_ok);

// A real, recognised error line (a knowledge-base sample) that rows with text carry.
extern const char* const kErrorLine;

}  // namespace npu_doctor::testing
