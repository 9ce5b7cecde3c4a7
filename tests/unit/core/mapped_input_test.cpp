// The mapped input (mapped_file.hpp) gives exactly what reading the same file gives:
// findings, counts, evidence with its context, line numbers, bytes, lines and timelines,
// across block boundaries, on several threads, at the edges (no final newline, CRLF, one
// block exactly, empty), and what cannot be mapped (a FIFO) is still read.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "chunk_reader.hpp"
#include "diagnosis/diagnosis.hpp"
#include "input_source.hpp"
#include "mapped_file.hpp"
#include "scanner.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

// Sets the threshold for one test and puts the previous one back.
struct ThresholdFor {
  explicit ThresholdFor(uint64_t bytes) : previous(map_threshold()) { set_map_threshold(bytes); }
  ~ThresholdFor() { set_map_threshold(previous); }
  uint64_t previous;
};
constexpr uint64_t kAlways = 1;
constexpr uint64_t kNever = UINT64_MAX;

std::string describe(const std::vector<InputReport>& inputs, const std::vector<Finding>& findings) {
  std::ostringstream out;
  for (const auto& in : inputs) {
    out << in.path << " bytes=" << in.bytes << " lines=" << in.lines << " status=" << static_cast<int>(in.status)
        << " note=" << in.note << " first=" << (in.timeline.first_time ? in.timeline.first_time->text : "-")
        << " last=" << (in.timeline.last_time ? in.timeline.last_time->text : "-") << "\n";
    for (const auto& ev : in.timeline.events) out << "  t " << ev.entry->id << "#" << ev.code << " @" << ev.line << "\n";
  }
  for (const auto& f : findings) {
    out << finding_key(f) << " x" << f.count << "\n";
    for (const auto& e : f.evidence) {
      out << "  " << e.line << ": " << e.text << "\n";
      for (const auto& c : e.before) out << "    <" << c.line << " " << c.text << "\n";
      for (const auto& c : e.after) out << "    >" << c.line << " " << c.text << "\n";
    }
  }
  return out.str();
}

std::string describe(const DiagnosisReport& r) {
  std::vector<InputReport> inputs;
  for (const auto& in : r.inputs) inputs.push_back(in);
  return describe(inputs, r.findings) + "root=" + (r.root_finding() ? finding_key(*r.root_finding()) : "none");
}


class MappedInput : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::vector<KbProblem> problems;
    matcher_ = KbMatcher::build(testing::builtin_kb(), problems).release();
  }
  static void TearDownTestSuite() {
    delete matcher_;
    matcher_ = nullptr;
  }

  // Scans one path as `diagnose` opens it; `before_scan` runs once the input is open (and
  // mapped), just before the scan: the place to change the file under the scanner.
  static std::string scan_with(const std::string& path, const ScanOptions& o, std::vector<InputReport>& reports,
                               const std::function<void()>& before_scan = {}) {
    Scanner scanner(*matcher_, o);
    FindingCollector out(o.max_evidence);
    visit_streams(
        {path, false},
        [&](ByteStream& s, InputReport& r) {
          if (before_scan) before_scan();
          scanner.scan(s, 0, r, out);
        },
        reports);
    return describe(reports, out.take());
  }

  // Scans one path with blocks of `block` bytes; says whether the scanner got a mapping.
  static std::string scan(const std::string& path, std::size_t block, bool* mapped = nullptr) {
    ScanOptions o;
    o.block_size = block;
    std::vector<InputReport> reports;
    std::string described = scan_with(path, o, reports);
    if (mapped != nullptr) {
      std::vector<InputReport> ignored;
      *mapped = false;
      visit_streams({path, false}, [&](ByteStream& s, InputReport&) { *mapped = s.take_mapped().has_value(); }, ignored);
    }
    return described;
  }

  // The same path read and mapped, with several block sizes: identical descriptions.
  static void expect_same(const std::string& path, std::initializer_list<std::size_t> blocks, bool expect_mapped = true) {
    for (std::size_t block : blocks) {
      std::string read;
      {
        ThresholdFor never(kNever);
        bool mapped = true;
        read = scan(path, block, &mapped);
        EXPECT_FALSE(mapped);
      }
      ThresholdFor always(kAlways);
      bool mapped = false;
      EXPECT_EQ(scan(path, block, &mapped), read) << path << " block " << block;
      EXPECT_EQ(mapped, expect_mapped) << path;
    }
  }

  static KbMatcher* matcher_;
};
KbMatcher* MappedInput::matcher_ = nullptr;

TEST_F(MappedInput, ALargeFileAcrossManyBlocksGivesWhatReadingGives) {
  testing::TempDir dir;
  const std::string text = testing::noisy_log_with_errors(11, 30000);
  const auto path = dir.write("big.log", text);
  ASSERT_GT(text.size(), std::size_t{1} << 20);
  expect_same(path.string(), {64, 4096, 65536, std::size_t{1} << 20, std::size_t{4} << 20});
}

TEST_F(MappedInput, TheLastLineWithoutNewlineAndCrlfLines) {
  testing::TempDir dir;
  std::string crlf;
  for (int i = 0; i < 2000; ++i) {
    crlf += i % 97 == 0 ? "[ERROR] ASCENDCL(1,python):2025-03-02-10:55:12.400.000 [s.cpp:1]1 ACL stream synchronize failed, error code:507035\r\n"
                        : "[INFO] line " + std::to_string(i) + " fine\r\n";
  }
  const auto crlf_path = dir.write("crlf.log", crlf);
  const auto open_path = dir.write("open.log", crlf + "EI0002: [PID: 1] The wait execution of the Notify register times out.");
  const auto lone_path = dir.write("lone.log", "[ERROR] ASCENDCL(1,python):2025 ACL stream synchronize failed, error code:507035");
  for (const auto& p : {crlf_path, open_path, lone_path}) expect_same(p.string(), {64, 4096, std::size_t{4} << 20});
}

TEST_F(MappedInput, AFileOfExactlyOneBlockAndOneByteMoreOrLess) {
  testing::TempDir dir;
  std::string text = testing::noisy_log_with_errors(5, 3000);
  const std::size_t block = 64 * 1024;
  for (std::size_t size : {block - 1, block, block + 1}) {
    std::string t = text.substr(0, size);
    t.back() = '\n';
    const auto path = dir.write("one" + std::to_string(size) + ".log", t);
    expect_same(path.string(), {block});
  }
}

TEST_F(MappedInput, AnEmptyFileIsReadNotMapped) {
  testing::TempDir dir;
  const auto path = dir.write("empty.log", "");
  expect_same(path.string(), {64, std::size_t{4} << 20}, /*expect_mapped=*/false);
}

TEST_F(MappedInput, AFifoIsReadAsBeforeWhateverTheThreshold) {
  testing::TempDir dir;
  const std::string text = testing::noisy_log_with_errors(3, 3000);
  const auto file = dir.write("plain.log", text);
  std::string want;
  {
    ThresholdFor never(kNever);
    want = scan(file.string(), 4096);
  }
  const auto fifo = dir.path() / "pipe.log";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  ThresholdFor always(kAlways);
  // Held open (read-write, which Linux allows on a FIFO) before the scan opens it, so the
  // scan cannot see the end before the writer starts; closed when all is written.
  const int keep = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);
  ASSERT_GE(keep, 0);
  std::thread writer([&] {
    for (std::size_t done = 0; done < text.size();) {
      const ssize_t w = ::write(keep, text.data() + done, text.size() - done);
      if (w <= 0) break;
      done += static_cast<std::size_t>(w);
    }
    ::close(keep);
  });
  std::string got = scan(fifo.string(), 4096);
  writer.join();
  // Only the name differs.
  for (std::size_t at; (at = got.find(fifo.string())) != std::string::npos;) got.replace(at, fifo.string().size(), file.string());
  EXPECT_EQ(got, want);
}

TEST_F(MappedInput, DiagnoseOnOneAndSeveralThreadsGivesWhatReadingGives) {
  testing::TempDir dir;
  const auto path = dir.write("big.log", testing::noisy_log_with_errors(7, 60000));
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {path.string()};
  o.split_min_part = 64 * 1024;  // cut the file into `jobs` parts
  std::string want;
  {
    ThresholdFor never(kNever);
    o.jobs = 1;
    want = describe(d.run(o));
  }
  ThresholdFor always(kAlways);
  for (unsigned jobs : {1u, 2u, 3u, 8u}) {
    o.jobs = jobs;
    EXPECT_EQ(describe(d.run(o)), want) << jobs << " threads";
  }
  EXPECT_NE(want.find("root=op.aicore-error-report"), std::string::npos) << want.substr(want.size() - 200);
}

// A log still being written: what it grew by after it was mapped is read after the mapping.
TEST_F(MappedInput, AFileThatGrowsWhileScannedIsReadToItsNewEnd) {
  testing::TempDir dir;
  const std::string head = testing::noisy_log_with_errors(9, 3000);
  const std::string more = "\n[ERROR] ASCENDCL(1,python):2025 ACL stream synchronize failed, error code:507035\nlast line\n";
  const auto path = dir.write("growing.log", head);
  const auto whole = dir.write("whole.log", head + more);
  std::string want;
  {
    ThresholdFor never(kNever);
    want = scan(whole.string(), 4096);
  }
  ThresholdFor always(kAlways);
  ScanOptions o;
  o.block_size = 4096;
  std::vector<InputReport> reports;
  std::string got = scan_with(path.string(), o, reports, [&] {
    std::ofstream(path, std::ios::binary | std::ios::app) << more;  // after the mapping was made
  });
  for (std::size_t at; (at = got.find(path.string())) != std::string::npos;) got.replace(at, path.string().size(), whole.string());
  EXPECT_EQ(got, want);
}

// Truncated under the mapping: no SIGBUS ends the process; the input is partial and says why.
TEST_F(MappedInput, AFileTruncatedWhileScannedIsPartialNotACrash) {
  testing::TempDir dir;
  const std::string text = testing::noisy_log_with_errors(13, 40000);
  const auto path = dir.write("shrinking.log", text);
  ThresholdFor always(kAlways);
  ScanOptions o;
  o.block_size = 64 * 1024;
  o.read_ahead = false;
  std::vector<InputReport> reports;
  scan_with(path.string(), o, reports, [&] { ASSERT_EQ(::truncate(path.c_str(), 100 * 1024), 0); });
  ASSERT_EQ(reports.size(), 1u);
  EXPECT_EQ(reports[0].status, InputStatus::partial);
  EXPECT_NE(reports[0].note.find("shrank"), std::string::npos) << reports[0].note;
  EXPECT_LE(reports[0].bytes, text.size());
}

// The SIGBUS guard on its own: bytes past the new end read as zeros.
TEST(MappedFile, BytesPastATruncationReadAsZerosAndTheMappingSaysItShrank) {
  testing::TempDir dir;
  const auto path = dir.write("t.log", std::string(1 << 20, 'x'));
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  {
    auto m = MappedFile::map(fd, 1 << 20);
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->shrank());
    ASSERT_EQ(::truncate(path.c_str(), 4096), 0);
    const std::string_view b = m->bytes();
    EXPECT_EQ(b[0], 'x');
    EXPECT_EQ(b[(1 << 20) - 1], '\0');
    EXPECT_TRUE(m->shrank());
  }
  ::close(fd);
}

// A carry that is not the bytes just before the next chunk (not how the scanner calls it)
// is joined by copying.
TEST(MappedFile, AChunkReaderJoinsACarryFromElsewhere) {
  testing::TempDir dir;
  const auto path = dir.write("c.log", std::string(3 << 20, 'a'));
  ThresholdFor always(kAlways);
  std::vector<InputReport> reports;
  visit_streams(
      {path.string(), false},
      [&](ByteStream& s, InputReport&) {
        ChunkReader reader(s, 1 << 20, true);
        auto c = reader.next({});
        EXPECT_EQ(c.view.size(), std::size_t{1} << 20);
        c = reader.next("zz");
        EXPECT_EQ(c.view.size(), (std::size_t{1} << 20) + 2);
        EXPECT_TRUE(c.view.starts_with("zza"));
        c = reader.next(c.view.substr(c.view.size() - 10));
        EXPECT_EQ(c.view.size(), (std::size_t{1} << 20) + 10);
        EXPECT_TRUE(c.eof);
      },
      reports);
}

}  // namespace
}  // namespace npu_doctor
