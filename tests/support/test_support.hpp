#pragma once
// Helpers shared by the tests: temporary directories, in-memory streams, small
// knowledge bases written as YAML, and running the real binary.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "input_source.hpp"
#include "npu_doctor/knowledge_base.hpp"

namespace npu_doctor::testing {

// A fresh directory removed when the object goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  // Writes `content` to `relative` (creating directories) and returns the full path.
  std::filesystem::path write(const std::string& relative, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

// A whole file mapped read-only and private, as the binary's knowledge base is (empty
// bytes() when it cannot be mapped); unmapped when the object goes out of scope.
class ReadOnlyMapping {
 public:
  explicit ReadOnlyMapping(const std::filesystem::path& file);
  ~ReadOnlyMapping();
  ReadOnlyMapping(const ReadOnlyMapping&) = delete;
  ReadOnlyMapping& operator=(const ReadOnlyMapping&) = delete;
  std::string_view bytes() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

// A copy of bytes, 8-byte aligned as a snapshot places its tables (an index's image).
struct AlignedCopy {
  std::unique_ptr<uint64_t[]> storage;
  std::string_view bytes;
  explicit AlignedCopy(std::string_view image);
  char* data() { return static_cast<char*>(static_cast<void*>(storage.get())); }
};

// A ByteStream over a string, returning at most `chunk` bytes per read.
class StringStream final : public ByteStream {
 public:
  explicit StringStream(std::string data, std::size_t chunk = 1 << 20) : data_(std::move(data)), chunk_(chunk) {}
  long read(char* buf, std::size_t n) override;

 private:
  std::string data_;
  std::size_t chunk_;
  std::size_t pos_ = 0;
};

// Loads only the given YAML documents (no built-in knowledge base).
KnowledgeBase kb_from_yaml(const std::vector<std::string>& files, std::vector<KbProblem>& problems);

// The built-in knowledge base (from the binary's embedded files).
const KnowledgeBase& builtin_kb();

std::string read_file(const std::filesystem::path& p);

// Every .log of the fixtures' logs/, realworld-dev/ and realworld-blind/ folders, sorted: the
// real text that tests of the scanner's equivalences run over.
std::vector<std::filesystem::path> fixture_logs();

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the npu-doctor binary with `args` (no shell), optional stdin, and extra environment.
RunResult run_npu_doctor(const std::vector<std::string>& args, const std::string& stdin_data = "",
                         const std::vector<std::string>& env = {});
// The same for another binary (a copy of npu-doctor placed elsewhere, a tool).
RunResult run_program(const std::string& binary, const std::vector<std::string>& args, const std::string& stdin_data = "",
                      const std::vector<std::string>& env = {});
// The npu-doctor binary under test.
std::string npu_doctor_binary();

std::string fixtures_dir();
// The lines of `text`, without their newlines.
std::vector<std::string> lines_of(const std::string& text);
// A fixture of a feature area's own tests: tests/<area>/fixtures/<rel>.
std::string area_fixture(const std::string& area, const std::string& rel);
// A plog of `lines` INFO lines with real error lines at random places (some in bursts, some
// ending in CRLF), the first line an error and the last line one without a newline: what the
// scanner's cuts (blocks, parts, mapped chunks) must not change the findings of.
std::string noisy_log_with_errors(unsigned seed, int lines = 60000);

}  // namespace npu_doctor::testing
