// The follower against a real directory, with inotify and by polling: files created after
// the start are read whole, older ones only for what they gain, rotation by renaming keeps
// reading the old file and starts the new one, truncation starts over, a folder that
// appears later is followed. Waits are on what the follower reports, with generous limits.
#include <gtest/gtest.h>
#include <poll.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "live/file_follower.hpp"
#include "live/live_child.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::live {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

struct Recorder final : FollowSink {
  struct File {
    std::string path;
    uint64_t first_line = 0;
    std::string bytes;
    bool closed = false;
  };
  std::map<std::size_t, File> files;
  void opened(std::size_t id, const std::string& path, uint64_t first_line) override {
    files[id] = {path, first_line, {}, false};
  }
  void data(std::size_t id, std::string_view bytes) override { files[id].bytes.append(bytes); }
  void closed(std::size_t id) override { files[id].closed = true; }

  // All bytes read from files once at `path`, in the order they were opened.
  std::string read_at(const std::string& name) const {
    std::string all;
    for (const auto& [id, f] : files) {
      if (fs::path(f.path).filename() == name) all += f.bytes;
    }
    return all;
  }
};

void append(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::app | std::ios::binary) << text;
}

class Follower : public ::testing::TestWithParam<bool> {
 protected:
  FollowOptions options(std::vector<std::string> roots) {
    FollowOptions o;
    o.roots = std::move(roots);
    o.polling = GetParam();
    o.poll_interval = std::chrono::milliseconds(50);
    return o;
  }
  // Runs the follower as its owner would until `done` holds.
  bool until(FileFollower& f, Recorder& r, const std::function<bool()>& done) {
    return testing::eventually([&] {
      pollfd p{f.fd(), POLLIN, 0};
      const int t = f.timeout_ms();
      const int ready = f.fd() >= 0 ? ::poll(&p, 1, t < 0 ? 20 : std::min(t, 20)) : 0;
      f.process(r, ready > 0);
      return done();
    });
  }
  TempDir dir_;
};

TEST_P(Follower, NewFilesWholeOldFilesOnlyWhatTheyGain) {
  const fs::path old_file = dir_.write("plog/plog-1_old.log", "old line 1\nold line 2\n");
  FileFollower f(options({dir_.path().string()}));
  f.start();
  EXPECT_EQ(f.mode(), GetParam() ? "polling" : "inotify");
  Recorder r;
  dir_.write("plog/plog-2_new.log", "new 1\nnew 2\n");
  append(old_file, "old line 3\n");
  ASSERT_TRUE(until(f, r, [&] { return r.read_at("plog-2_new.log") == "new 1\nnew 2\n" && !r.read_at("plog-1_old.log").empty(); }));
  EXPECT_EQ(r.read_at("plog-1_old.log"), "old line 3\n");
  for (const auto& [id, file] : r.files) {
    if (fs::path(file.path).filename() == "plog-1_old.log") {
      EXPECT_EQ(file.first_line, 3u);
    }
  }
  // A sub-folder made later (device-0/) and a file in it.
  dir_.write("device-0/device-2_a.log", "dev 1\n");
  ASSERT_TRUE(until(f, r, [&] { return r.read_at("device-2_a.log") == "dev 1\n"; }));
  EXPECT_EQ(f.paths_read().size(), 3u);
}

TEST_P(Follower, RotationByRenameAndTruncation) {
  const fs::path log = dir_.write("app.log", "before the start\n");
  FileFollower f(options({dir_.path().string()}));
  f.start();
  Recorder r;
  auto bytes = [&](std::size_t id) { return r.files.contains(id) ? r.files[id].bytes : std::string(); };
  auto closed = [&](std::size_t id) { return r.files.contains(id) && r.files[id].closed; };
  append(log, "a1\n");
  ASSERT_TRUE(until(f, r, [&] { return bytes(0) == "a1\n"; }));
  // logrotate's create mode: the file is renamed, its writer appends a last line to it,
  // a new file takes the name. The old one keeps its id (and the name it was first read under).
  fs::rename(log, dir_.path() / "app.log.1");
  append(dir_.path() / "app.log.1", "a2\n");
  append(log, "b1\n");
  ASSERT_TRUE(until(f, r, [&] { return bytes(0) == "a1\na2\n" && bytes(1) == "b1\n"; }))
      << "0: " << bytes(0) << " 1: " << bytes(1);
  EXPECT_EQ(r.files[1].first_line, 1u);
  // copytruncate: the same file starts again from its first byte, under a new id.
  fs::resize_file(log, 0);
  ASSERT_TRUE(until(f, r, [&] { return closed(1); }));
  append(log, "c1\n");
  ASSERT_TRUE(until(f, r, [&] { return bytes(2) == "c1\n"; })) << bytes(2);
  EXPECT_EQ(r.files[2].first_line, 1u);
  // A compressed rotated copy is not read; a deleted file is closed.
  dir_.write("app.log.2.gz", "\x1f\x8b binary");
  fs::remove(dir_.path() / "app.log.1");
  ASSERT_TRUE(until(f, r, [&] { return closed(0); }));
  EXPECT_FALSE(closed(2));
  EXPECT_EQ(r.files.size(), 3u);
}

TEST_P(Follower, ARootThatAppearsLater) {
  const fs::path root = dir_.path() / "ascend/log/debug";
  FileFollower f(options({root.string()}));
  f.start();
  Recorder r;
  dir_.write("ascend/log/debug/plog/plog-9_x.log", "late\n");
  ASSERT_TRUE(until(f, r, [&] { return r.read_at("plog-9_x.log") == "late\n"; }));
}

TEST_P(Follower, TheFilterDecides) {
  FollowOptions o = options({dir_.path().string()});
  o.accept = [](const std::string& p) { return !p.ends_with("skip.log"); };
  FileFollower f(o);
  f.start();
  Recorder r;
  dir_.write("skip.log", "no\n");
  dir_.write("take.log", "yes\n");
  ASSERT_TRUE(until(f, r, [&] { return r.read_at("take.log") == "yes\n"; }));
  EXPECT_TRUE(r.read_at("skip.log").empty());
}

TEST_P(Follower, DrainReadsEverythingAtTheEnd) {
  FileFollower f(options({dir_.path().string()}));
  f.start();
  Recorder r;
  std::string big;
  for (int i = 0; i < 200000; ++i) big += "line " + std::to_string(i) + "\n";  // more than one read budget
  dir_.write("big.log", big);
  f.drain(r);
  EXPECT_EQ(r.read_at("big.log").size(), big.size());
}

INSTANTIATE_TEST_SUITE_P(Live, Follower, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& p) { return p.param ? "Polling" : "Inotify"; });

TEST(FollowerNetwork, LocalTemporaryDirectoryIsNotANetworkFileSystem) {
  TempDir dir;
  EXPECT_FALSE(is_network_file_system(dir.path().string()));
  EXPECT_FALSE(is_network_file_system((dir.path() / "not/there/yet").string()));
}

}  // namespace
}  // namespace npu_doctor::live
