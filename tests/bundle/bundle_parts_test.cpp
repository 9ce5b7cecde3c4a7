// The parts of a bundle: log selection (newest first, --since, the cap, what is left out
// and why), sizes, the probe record and its replay, the archive (owner-only, marker first,
// never complete when cut short) and opening bundles.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bundle/bundle_archive.hpp"
#include "bundle/bundle_test_support.hpp"
#include "bundle/log_selection.hpp"
#include "bundle/probe_record.hpp"
#include "checks/check_test_support.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;

namespace npu_doctor::bundle {
namespace {

using npu_doctor::testing::TempDir;

void set_mtime(const fs::path& p, int seconds_ago) {
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(seconds_ago));
}

TEST(BundleLogs, NewestFirstWithinTheCapAndEverythingLeftOutIsSaid) {
  TempDir t;
  set_mtime(t.write("log/old.log", std::string(100, 'o')), 7200);
  set_mtime(t.write("log/new.log", std::string(100, 'n')), 10);
  set_mtime(t.write("log/mid.log", std::string(100, 'm')), 600);
  set_mtime(t.write("log/big.log", std::string(1000, 'b')), 5);
  ASSERT_EQ(::mkfifo((t.path() / "log/pipe.log").c_str(), 0600), 0);
  fs::create_symlink(t.path() / "nowhere.log", t.path() / "log/dangling.log");

  const auto all = select_logs({(t.path() / "log").string()}, {}, "/", std::nullopt, 250);
  ASSERT_EQ(all.files.size(), 2u);
  EXPECT_TRUE(all.files[0].open_path().ends_with("new.log"));
  EXPECT_TRUE(all.files[1].open_path().ends_with("mid.log"));
  auto reason = [&](const LogSelection& s, const std::string& name) {
    for (const auto& k : s.skipped) {
      if (k.item.ends_with(name)) return k.reason;
    }
    return std::string();
  };
  EXPECT_NE(reason(all, "big.log").find("size cap"), std::string::npos);
  EXPECT_NE(reason(all, "old.log").find("size cap"), std::string::npos);
  EXPECT_EQ(reason(all, "pipe.log"), "not a regular file");
  EXPECT_NE(reason(all, "dangling.log").find("cannot read"), std::string::npos);

  const auto recent = select_logs({(t.path() / "log").string()}, {}, "/",
                                  static_cast<std::int64_t>(std::time(nullptr)) - 3600, 1 << 20);
  EXPECT_EQ(recent.files.size(), 3u);
  EXPECT_EQ(reason(recent, "old.log"), "older than --since");

  const auto missing = select_logs({(t.path() / "none").string()}, {}, "/", std::nullopt, 100);
  EXPECT_EQ(reason(missing, "none"), "no such file or directory");
}

TEST(BundleLogs, DefaultLocationsFollowTheAscendOrderAndLiveUnderTheRoot) {
  const auto d = default_log_locations({{"ASCEND_PROCESS_LOG_PATH", "/data/plog"}, {"HOME", "/root"}});
  ASSERT_GE(d.size(), 3u);
  EXPECT_EQ(d[0], "/data/plog");
  EXPECT_EQ(d[1], "/root/ascend/log");
  EXPECT_NE(std::find(d.begin(), d.end(), "/var/log/npu"), d.end());
  EXPECT_EQ(std::find(d.begin(), d.end(), "/var/log/npu/slog"), d.end()) << "inside /var/log/npu: walked anyway";

  TempDir t;
  t.write("root/ascend/log/debug/plog/plog-1_20240101000000000.log", "x\n");
  const auto s = select_logs({}, d, t.path().string(), std::nullopt, 1 << 20);
  ASSERT_EQ(s.files.size(), 1u);
  EXPECT_EQ(s.files[0].shown, "/root/ascend/log/debug/plog/plog-1_20240101000000000.log");
}

// A log reached twice (its directory and the file given too, or a second name for the same
// file) is taken once; under --root the file opened differs from the path shown.
TEST(BundleLogs, OneFileIsTakenOnceHoweverItIsReached) {
  TempDir t;
  t.write("root/var/log/npu/a.log", "a\n");
  t.write("root/var/log/npu/b.log", "b\n");
  fs::create_hard_link(t.path() / "root/var/log/npu/a.log", t.path() / "root/var/log/npu/same-as-a.log");
  const std::string dir = (t.path() / "root/var/log/npu").string();
  const auto twice = select_logs({dir, dir + "/b.log"}, {}, "/", std::nullopt, 1 << 20);
  ASSERT_EQ(twice.files.size(), 2u);
  EXPECT_EQ(twice.files[0].open_path(), twice.files[0].shown);
  const auto rooted = select_logs({}, {"/var/log/npu"}, (t.path() / "root").string(), std::nullopt, 1 << 20);
  ASSERT_EQ(rooted.files.size(), 2u);
  for (const auto& f : rooted.files) {
    EXPECT_TRUE(f.shown.starts_with("/var/log/npu/")) << f.shown;
    EXPECT_TRUE(f.open_path().starts_with(t.path().string())) << f.open_path();
  }
}

// Files are not remembered one by one (a million logs): a symbolic link is taken only when
// its target is not taken under its own name, and a directory given twice (itself and inside
// another location) is walked once.
TEST(BundleLogs, LinksAndOverlappingLocationsGiveEachFileOnce) {
  TempDir t;
  t.write("logs/run/a.log", "a\n");
  t.write("outside/b.log", "b\n");
  fs::create_symlink(t.path() / "logs/run/a.log", t.path() / "logs/link-to-a.log");   // met before a.log
  fs::create_symlink(t.path() / "outside/b.log", t.path() / "logs/link-to-b.log");
  fs::create_symlink(t.path() / "outside/b.log", t.path() / "logs/run/second-link-to-b.log");
  const std::string logs = (t.path() / "logs").string();
  const auto s = select_logs({logs, logs + "/run"}, {}, "/", std::nullopt, 1 << 20);
  std::vector<std::string> shown;
  for (const auto& f : s.files) shown.push_back(f.shown.substr(logs.size()));
  std::sort(shown.begin(), shown.end());
  EXPECT_EQ(shown, (std::vector<std::string>{"/link-to-b.log", "/run/a.log"}));
  for (const auto& k : s.skipped) ADD_FAILURE() << k.item << ": " << k.reason;
}

// A location that is a symbolic link to a directory (a path given with --logs, a default
// location such as ~/ascend/log moved to a data disk) is followed; links to directories met
// inside are not (no loops), and say so.
TEST(BundleLogs, ALocationThatIsALinkToADirectoryIsFollowed) {
  TempDir t;
  t.write("data/plog/p.log", "p\n");
  t.write("disk/log/q.log", "q\n");
  fs::create_symlink(t.path() / "data", t.path() / "linked");
  fs::create_symlink(t.path() / "data", t.path() / "data/loop");
  fs::create_directories(t.path() / "root/home/ascend");
  fs::create_symlink(t.path() / "disk/log", t.path() / "root/home/ascend/log");
  const std::string linked = (t.path() / "linked").string();
  const auto s = select_logs({linked}, {"/home/ascend/log"}, (t.path() / "root").string(), std::nullopt, 1 << 20);
  std::vector<std::string> shown;
  for (const auto& f : s.files) shown.push_back(f.shown);
  std::sort(shown.begin(), shown.end());
  EXPECT_EQ(shown, (std::vector<std::string>{"/home/ascend/log/q.log", linked + "/plog/p.log"}));
  ASSERT_EQ(s.skipped.size(), 1u);
  EXPECT_EQ(s.skipped[0].item, linked + "/loop");
  EXPECT_EQ(s.skipped[0].reason, "symbolic link to a directory (not followed)");
}

// A folder of thousands of old logs left out for the cap: the report lists the first of
// them and counts the rest in one item.
TEST(BundleLogs, FilesLeftOutByTheThousandAreListedThenCounted) {
  TempDir t;
  const std::size_t n = LogSelection::kListedOfAKind + 25;
  for (std::size_t i = 0; i < n; ++i) t.write("log/f" + std::to_string(i) + ".log", std::string(10, 'x'));
  const auto s = select_logs({(t.path() / "log").string()}, {}, "/", std::nullopt, 30);
  EXPECT_EQ(s.files.size(), 3u);
  ASSERT_EQ(s.skipped.size(), LogSelection::kListedOfAKind + 1);
  EXPECT_NE(s.skipped.front().reason.find("size cap (--max-size): 10 bytes"), std::string::npos);
  EXPECT_EQ(s.skipped.back().item, std::to_string(n - 3 - LogSelection::kListedOfAKind) + " more files");
  EXPECT_EQ(s.skipped.back().reason, "over the size cap (--max-size)");
}

TEST(BundleLogs, SizesParse) {
  EXPECT_EQ(parse_byte_size("200M"), 200ull << 20);
  EXPECT_EQ(parse_byte_size("1G"), 1ull << 30);
  EXPECT_EQ(parse_byte_size("1.5K"), 1536u);
  EXPECT_EQ(parse_byte_size("512KiB"), 512u << 10);
  EXPECT_EQ(parse_byte_size("100MB"), 100ull << 20);
  EXPECT_EQ(parse_byte_size("1000"), 1000u);
  for (const char* bad : {"", "M", "12X", "-1", "1..2M", "ten"}) EXPECT_FALSE(parse_byte_size(bad)) << bad;
}

TEST(BundleRecord, ReplayAnswersExactlyWhatWasRecordedAndNothingElse) {
  const auto machine = "healthy-910b";
  const SystemProbe live = checks::testing::machine_probe(machine);
  const Redactor redactor;
  RecordingProbe rec(live, redactor);
  const auto version = rec.read_file("/usr/local/Ascend/driver/version.info");
  ASSERT_TRUE(version);
  EXPECT_FALSE(rec.read_file("/no/such/file"));
  const auto devs = rec.list_dir("/dev");
  const FileInfo dav = rec.stat("/dev/davinci0");
  const auto home = rec.env("ASCEND_TOOLKIT_HOME");
  const auto smi_path = rec.find_program("npu-smi");
  const CommandResult smi = rec.run({"npu-smi", "info"});
  ASSERT_TRUE(smi.ok()) << smi.describe();

  TempDir t;
  for (const auto& [path, content] : rec.redacted_record().files) {
    if (content) t.write("sysroot" + path, *content);
  }
  std::string error;
  auto record = ProbeRecord::from_json(rec.redacted_record().to_json(), t.path().string(), error);
  ASSERT_TRUE(record) << error;
  const ReplayProbe replay(std::move(*record));
  EXPECT_EQ(replay.read_file("/usr/local/Ascend/driver/version.info"), version);
  EXPECT_EQ(replay.read_file("/usr/local/Ascend/driver/version.info", 5), version->substr(0, 5));
  EXPECT_FALSE(replay.read_file("/no/such/file"));
  EXPECT_FALSE(replay.read_file("/etc/passwd")) << "never read live";
  EXPECT_EQ(replay.list_dir("/dev"), devs);
  EXPECT_EQ(replay.stat("/dev/davinci0").mode, dav.mode);
  EXPECT_TRUE(replay.stat("/dev/davinci0").exists);
  EXPECT_FALSE(replay.stat("/dev/davinci1").exists);
  EXPECT_EQ(replay.env("ASCEND_TOOLKIT_HOME"), home);
  EXPECT_EQ(replay.find_program("npu-smi"), smi_path);
  EXPECT_FALSE(replay.find_program("hccn_tool"));
  const CommandResult again = replay.run({"npu-smi", "info"});
  EXPECT_TRUE(again.ok());
  EXPECT_EQ(again.out, smi.out);
  const CommandResult other = replay.run({"npu-smi", "info", "-t", "board", "-i", "0"});
  EXPECT_FALSE(other.started);
  EXPECT_EQ(replay.describe_root(), live.describe_root());
}

TEST(BundleRecord, MalformedRecordsAreRejectedWithAReason) {
  std::string error;
  EXPECT_FALSE(ProbeRecord::from_json("{", "/tmp", error));
  EXPECT_NE(error.find("malformed"), std::string::npos);
  EXPECT_FALSE(ProbeRecord::from_json(R"({"schema":"other"})", "/tmp", error));
  EXPECT_FALSE(ProbeRecord::from_json(R"({"schema":"npu-doctor/probe-record/v1","root":"/"})", "/tmp", error));
}

TEST(BundleArchive, OwnerOnlyMarkerFirstAndNeverCompleteWhenCutShort) {
  TempDir t;
  const std::string out = (t.path() / "b.tar.gz").string();
  {
    ArchiveWriter w(out, "b");
    std::string error;
    ASSERT_TRUE(w.open(error)) << error;
    ASSERT_TRUE(w.add(kMarkerMember, "{}\n", error));
    ASSERT_TRUE(w.add("logs/x.log", "hello\n", error));
    // Not finished: nothing under the final name, and the partial file goes away.
  }
  EXPECT_FALSE(fs::exists(out));
  EXPECT_TRUE(fs::is_empty(t.path())) << "no partial file left behind";

  ::umask(0);  // even a permissive umask gives an owner-only archive
  {
    ArchiveWriter w(out, "b");
    std::string error;
    ASSERT_TRUE(w.open(error)) << error;
    ASSERT_TRUE(w.add(kMarkerMember, "{}\n", error));
    ASSERT_TRUE(w.add("logs/x.log", "hello\n", error));
    ASSERT_TRUE(w.finish(error)) << error;
    EXPECT_EQ(w.member_count(), 2u);
    EXPECT_EQ(w.member(1).sha256(), "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03");
    EXPECT_EQ(w.member(1).path, "logs/x.log");
    EXPECT_EQ(w.member(1).size, 6u);
    EXPECT_EQ(w.last_member_size(), 6u);
  }
  ::umask(022);
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_TRUE(is_bundle(out));
  std::string error;
  EXPECT_FALSE(open_bundle(out, error)) << "no manifest: incomplete";
  EXPECT_NE(error.find("incomplete"), std::string::npos) << error;

  const auto plain = t.write("plain.log", "not a bundle\n");
  EXPECT_FALSE(is_bundle(plain.string()));
  EXPECT_FALSE(is_bundle(t.path().string()));
}

TEST(BundleArchive, MembersThatPointOutsideAreRefused) {
  TempDir t;
  const std::string out = (t.path() / "evil.tar.gz").string();
  {
    ArchiveWriter w(out, "..");
    std::string error;
    ASSERT_TRUE(w.open(error)) << error;
    ASSERT_TRUE(w.add(kMarkerMember, "{}\n", error));
    ASSERT_TRUE(w.add(kManifestMember, "{}\n", error));
    ASSERT_TRUE(w.finish(error)) << error;
  }
  std::string error;
  EXPECT_FALSE(open_bundle(out, error));
  EXPECT_NE(error.find("outside"), std::string::npos) << error;
}

}  // namespace
}  // namespace npu_doctor::bundle
