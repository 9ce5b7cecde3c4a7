// src/core/archive_format_error.cpp stands in for libarchive's own helper in statically
// linked builds: the pax writer must still refuse an entry it cannot hold with a message
// that names the entry and its type.
#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

std::string refusal_for(mode_t type) {
  archive* a = archive_write_new();
  archive_write_set_format_pax_restricted(a);
  std::vector<char> buffer(1 << 16);
  size_t used = 0;
  archive_write_open_memory(a, buffer.data(), buffer.size(), &used);
  archive_entry* e = archive_entry_new();
  archive_entry_set_pathname(e, "run/npu.sock");
  archive_entry_set_filetype(e, type);
  archive_entry_set_perm(e, 0600);
  const int status = archive_write_header(a, e);
  const char* error = archive_error_string(a);
  std::string message = status == ARCHIVE_OK ? "" : error != nullptr ? error : "(failed without a message)";
  archive_entry_free(e);
  archive_write_free(a);
  return message;
}

TEST(ArchiveFormatError, PaxRefusesASocketAndSaysWhichEntry) {
  const std::string message = refusal_for(AE_IFSOCK);
  EXPECT_NE(message.find("run/npu.sock"), std::string::npos) << message;
  EXPECT_NE(message.find("cannot archive sockets"), std::string::npos) << message;
}

TEST(ArchiveFormatError, PaxStillTakesARegularFile) { EXPECT_EQ(refusal_for(AE_IFREG), ""); }

}  // namespace
