#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>

#include "input_source.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

using testing::TempDir;

// Builds an archive in memory with libarchive: format "tar" or "raw", filter by name.
std::string make_archive(const std::string& format, const std::string& filter,
                         const std::vector<std::pair<std::string, std::string>>& members) {
  archive* a = archive_write_new();
  if (format == "tar") archive_write_set_format_pax_restricted(a);
  else archive_write_set_format_raw(a);
  if (filter == "gzip") archive_write_add_filter_gzip(a);
  else if (filter == "zstd") archive_write_add_filter_zstd(a);
  else if (filter == "xz") archive_write_add_filter_xz(a);
  else if (filter == "bzip2") archive_write_add_filter_bzip2(a);
  std::vector<char> buf(1 << 22);
  size_t used = 0;
  archive_write_open_memory(a, buf.data(), buf.size(), &used);
  for (const auto& [name, data] : members) {
    archive_entry* e = archive_entry_new();
    archive_entry_set_pathname(e, name.c_str());
    archive_entry_set_size(e, static_cast<la_int64_t>(data.size()));
    archive_entry_set_filetype(e, AE_IFREG);
    archive_entry_set_perm(e, 0644);
    archive_write_header(a, e);
    archive_write_data(a, data.data(), data.size());
    archive_entry_free(e);
  }
  archive_write_close(a);
  archive_write_free(a);
  return std::string(buf.data(), used);
}

// Reads every stream of `path`; returns display path -> content, and the reports.
std::map<std::string, std::string> read_all(const std::string& path, std::vector<InputReport>& reports) {
  std::map<std::string, std::string> got;
  visit_streams({path, false},
                [&](ByteStream& s, InputReport& r) {
                  std::string data;
                  char buf[4096];
                  long n;
                  while ((n = s.read(buf, sizeof buf)) > 0) data.append(buf, static_cast<std::size_t>(n));
                  if (n < 0) {
                    r.status = InputStatus::partial;
                    r.note = s.error();
                  }
                  got[r.path] = data;
                },
                reports);
  return got;
}

TEST(InputSource, PlainFile) {
  TempDir d;
  const auto p = d.write("a.log", "hello\n");
  std::vector<InputReport> reports;
  const auto got = read_all(p.string(), reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].kind, "file");
  EXPECT_EQ(got.at(p.string()), "hello\n");
}

TEST(InputSource, CompressedSingleFilesAreReadInPlace) {
  for (const std::string filter : {"gzip", "zstd", "xz", "bzip2"}) {
    TempDir d;
    const auto p = d.write("train.log.z", make_archive("raw", filter, {{"data", "EI0002: timeout\n"}}));
    std::vector<InputReport> reports;
    const auto got = read_all(p.string(), reports);
    ASSERT_EQ(reports.size(), 1u) << filter;
    EXPECT_EQ(reports[0].kind, "compressed file") << filter;
    EXPECT_EQ(got.at(p.string()), "EI0002: timeout\n") << filter;
  }
}

TEST(InputSource, TarGzMembersAreNamedArchiveColonMember) {
  TempDir d;
  const auto p = d.write("logs.tar.gz", make_archive("tar", "gzip", {{"rank_0/plog-1_20240101000000000.log", "a\n"},
                                                                     {"rank_1/train.log", "b\n"}}));
  std::vector<InputReport> reports;
  const auto got = read_all(p.string(), reports);
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_EQ(got.at(p.string() + ":rank_0/plog-1_20240101000000000.log"), "a\n");
  EXPECT_EQ(got.at(p.string() + ":rank_1/train.log"), "b\n");
  EXPECT_EQ(reports[1].kind, "archive member");
}

TEST(InputSource, CompressedFileInsideATarIsOpenedToo) {
  TempDir d;
  const std::string inner = make_archive("raw", "gzip", {{"data", "inner text\n"}});
  const auto p = d.write("bundle.tar", make_archive("tar", "none", {{"old/plog.log.gz", inner}}));
  std::vector<InputReport> reports;
  const auto got = read_all(p.string(), reports);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got.at(p.string() + ":old/plog.log.gz"), "inner text\n");
}

TEST(InputSource, TruncatedGzipIsReportedNotHidden) {
  TempDir d;
  std::string payload;
  for (int i = 0; i < 20000; ++i) payload += "line " + std::to_string(i) + " some log text\n";
  std::string gz = make_archive("raw", "gzip", {{"data", payload}});
  const auto p = d.write("cut.log.gz", gz.substr(0, gz.size() / 2));
  std::vector<InputReport> reports;
  const auto got = read_all(p.string(), reports);
  ASSERT_FALSE(reports.empty());
  const bool flagged = std::any_of(reports.begin(), reports.end(), [](const InputReport& r) {
    return r.status == InputStatus::partial || r.status == InputStatus::error;
  });
  EXPECT_TRUE(flagged);
}

TEST(InputSource, TarMemberClaimingMoreBytesThanItHasIsPartial) {
  TempDir d;
  std::string tar = make_archive("tar", "none", {{"a.log", std::string(5000, 'a')}});
  const auto p = d.write("short.tar", tar.substr(0, 512 + 2000));  // header + part of the data
  std::vector<InputReport> reports;
  read_all(p.string(), reports);
  const bool flagged = std::any_of(reports.begin(), reports.end(), [](const InputReport& r) {
    return r.status == InputStatus::partial || r.status == InputStatus::error;
  });
  EXPECT_TRUE(flagged);
}

TEST(InputSource, EmptyArchiveSaysSo) {
  TempDir d;
  const auto p = d.write("empty.tar.gz", make_archive("tar", "gzip", {}));
  std::vector<InputReport> reports;
  read_all(p.string(), reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].status, InputStatus::skipped);
}

TEST(InputSource, DirectoriesAreWalkedSortedAndMissingPathsReported) {
  TempDir d;
  d.write("b/2.log", "x");
  d.write("a/1.log", "x");
  d.write("a/sub/0.log", "x");
  const auto e = enumerate_inputs({d.path().string(), (d.path() / "missing.log").string(), "-"});
  ASSERT_EQ(e.items.size(), 4u);
  EXPECT_EQ(e.items[0].display, (d.path() / "a/1.log").string());
  EXPECT_EQ(e.items[1].display, (d.path() / "a/sub/0.log").string());
  EXPECT_EQ(e.items[2].display, (d.path() / "b/2.log").string());
  EXPECT_TRUE(e.items[3].is_stdin);
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_EQ(e.problems[0].status, InputStatus::error);
  EXPECT_EQ(e.problems[0].note, "no such file or directory");
}

TEST(InputSource, SymlinkLoopsAndFifosInDirectoriesDoNotHang) {
  TempDir d;
  d.write("x/a.log", "x");
  std::filesystem::create_directory_symlink(d.path() / "x", d.path() / "x" / "loop");
  ASSERT_EQ(mkfifo((d.path() / "x" / "pipe").c_str(), 0600), 0);
  const auto e = enumerate_inputs({d.path().string()});
  ASSERT_EQ(e.items.size(), 1u);
  EXPECT_EQ(e.items[0].display, (d.path() / "x/a.log").string());
  ASSERT_EQ(e.problems.size(), 1u);
  EXPECT_EQ(e.problems[0].status, InputStatus::skipped);
  EXPECT_EQ(e.problems[0].note, "not a regular file");
}

TEST(InputSource, ExplicitFifoWithoutWriterIsEmptyNotAHang) {
  TempDir d;
  const auto fifo = d.path() / "pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::vector<InputReport> reports;
  const auto got = read_all(fifo.string(), reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(got.at(fifo.string()), "");
}

TEST(InputSource, UnreadableFileIsAnErrorWithTheReason) {
  if (geteuid() == 0) GTEST_SKIP() << "root can read any file";
  TempDir d;
  const auto p = d.write("secret.log", "x");
  std::filesystem::permissions(p, std::filesystem::perms::none);
  std::vector<InputReport> reports;
  read_all(p.string(), reports);
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].status, InputStatus::error);
  EXPECT_EQ(reports[0].note, "Permission denied");
}

}  // namespace
}  // namespace npu_doctor
