#pragma once
// A large bundle member (a log, a report made from the logs) redacted block by block into
// the bundle's private work directory, so that neither it nor its source is ever whole in
// memory: the archive needs its size before its data, and `diagnose` reads the redacted
// logs from there.
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>

#include "bundle/redaction.hpp"

namespace npu_doctor::bundle {

class StagedMember {
 public:
  // Creates `path` (owner-only; its directory must exist). What is written goes through
  // `redactor` (nullptr: written as it is, for text made only of redacted parts, like the
  // manifest, whose rule names would read as secret names).
  StagedMember(const Redactor* redactor, std::string path);
  StagedMember(const StagedMember&) = delete;
  StagedMember& operator=(const StagedMember&) = delete;

  void write(std::string_view raw) { to_file_(raw); }
  // A stream for renderers: what goes in is redacted on its way to the file.
  std::ostream& stream() { return stream_; }
  // Flushes and closes; false with `error` (and errno text) when the file could not be written.
  bool close(std::string& error);
  const std::string& path() const { return path_; }

 private:
  class Buffer : public std::streambuf {
   public:
    explicit Buffer(std::function<void(std::string_view)>& out) : out_(out) { setp(buf_, buf_ + sizeof buf_); }
    int sync() override;

   protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;

   private:
    std::function<void(std::string_view)>& out_;
    char buf_[1 << 16];
  };
  std::string path_;
  std::ofstream file_;
  int open_errno_ = 0;
  std::optional<StreamRedactor> redactor_;
  std::function<void(std::string_view)> to_file_;  // through the redactor, if any
  Buffer buffer_;
  std::ostream stream_;
};

}  // namespace npu_doctor::bundle
