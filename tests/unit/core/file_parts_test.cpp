// One large file on several threads gives exactly one thread's result: findings, counts,
// evidence with its context across the cuts, line numbers, timelines and the root cause.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

#include <random>
#include <sstream>

#include "file_parts.hpp"
#include "diagnosis/diagnosis.hpp"
#include "support/test_support.hpp"

namespace npu_doctor {
namespace {

std::string describe(const DiagnosisReport& r) {
  std::ostringstream out;
  for (const auto& in : r.inputs) {
    out << in.path << " bytes=" << in.bytes << " lines=" << in.lines << " status=" << static_cast<int>(in.status)
        << " first=" << (in.timeline.first_time ? in.timeline.first_time->text : "-")
        << " last=" << (in.timeline.last_time ? in.timeline.last_time->text : "-") << "\n";
    for (const auto& ev : in.timeline.events) out << "  t " << ev.entry->id << "#" << ev.code << " @" << ev.line << "\n";
  }
  for (const auto& f : r.findings) {
    out << finding_key(f) << " x" << f.count << "\n";
    for (const auto& e : f.evidence) {
      out << "  " << e.line << ": " << e.text << "\n";
      for (const auto& c : e.before) out << "    <" << c.line << " " << c.text << "\n";
      for (const auto& c : e.after) out << "    >" << c.line << " " << c.text << "\n";
    }
  }
  out << "root=" << (r.root_finding() ? finding_key(*r.root_finding()) : "none");
  return out.str();
}

// A few MB of INFO noise with real error lines at random places, some at the very start
// and end, some in bursts: cuts fall in the middle of context windows.
std::string generated_log(unsigned seed) {
  std::mt19937 rng(seed);
  const char* errors[] = {
      "[ERROR] RUNTIME(31207,python):2025-03-02-10:55:12.313.101 [device_error_proc.cc:1283]31207 ProcessStarsCoreErrorInfo: there is an exception of aivec error, core id is 43",
      "EI0002: [PID: 1] 2025-03-02-10:56:01.1 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].",
      "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 29.50 GiB total capacity; 27.10 GiB already allocated; 27.10 GiB current active; 1.02 GiB free; 28.00 GiB reserved in total by PyTorch)",
      "[ERROR] ASCENDCL(31207,python):2025-03-02-10:55:12.400.000 [stream.cpp:1]31207 ACL stream synchronize failed, error code:507035",
  };
  std::string out = std::string(errors[0]) + "\n";
  for (int i = 0; i < 60000; ++i) {
    out += "[INFO] RUNTIME(31207,python):2025-03-02-10:55:" + std::to_string(10 + i % 50) +
           ".000.000 [stream.cc:1140]31207 aclrtSynchronizeStream stream=" + std::to_string(i % 7) + " ok, cost 7952 us\n";
    if (rng() % 700 == 0) {
      for (int k = static_cast<int>(rng() % 3); k >= 0; --k) out += std::string(errors[rng() % 4]) + (rng() % 5 == 0 ? "\r\n" : "\n");
    }
  }
  out += errors[3];  // no final newline
  return out;
}

TEST(FileParts, ALargeFileOnManyThreadsGivesOneThreadsResult) {
  testing::TempDir dir;
  const auto path = dir.write("big.log", generated_log(7));
  std::vector<KbProblem> problems;
  Diagnoser d(testing::builtin_kb(), problems);
  DiagnoseOptions o;
  o.paths = {path.string()};
  o.jobs = 1;
  const std::string want = describe(d.run(o));
  for (unsigned jobs : {2u, 3u, 8u}) {
    o.jobs = jobs;
    o.split_min_part = 64 * 1024;  // cut a 6 MB file into `jobs` parts
    EXPECT_EQ(describe(d.run(o)), want) << jobs << " threads";
  }
  EXPECT_NE(want.find("root=op.aicore-error-report"), std::string::npos) << want.substr(want.size() - 200);
}

TEST(FileParts, CutsFallJustAfterANewline) {
  testing::TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += "line " + std::to_string(i) + "\n";
  const auto path = dir.write("a.log", text);
  const int fd = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(fd, 0);
  const auto parts = split_at_lines(fd, text.size(), 4, 100);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts.front().begin, 0u);
  EXPECT_EQ(parts.back().end, text.size());
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    EXPECT_EQ(parts[i].end, parts[i + 1].begin);
    EXPECT_EQ(text[parts[i].end - 1], '\n');
  }
  // The lines before the second part, numbered down from the given one.
  const auto before = lines_before(fd, parts[1].begin, 3, 41, 2048);
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(before.back().line, 41u);
  const std::string last = text.substr(0, parts[1].begin - 1);
  EXPECT_EQ(before.back().text, last.substr(last.rfind('\n') + 1));
  // A file without newlines is one part.
  const auto flat = dir.write("flat.log", std::string(5000, 'x'));
  const int fd2 = ::open(flat.c_str(), O_RDONLY);
  EXPECT_EQ(split_at_lines(fd2, 5000, 4, 100).size(), 1u);
  ::close(fd2);
  ::close(fd);
}

TEST(FileParts, CompressedArchivedAndSmallFilesAreNotCut) {
  testing::TempDir dir;
  const auto small = dir.write("small.log", "a\nb\n");
  EXPECT_EQ(SplitFile::open({small.string(), false}, 4, 1000), nullptr);
  std::string gz = "\x1f\x8b";
  gz += std::string(100000, 'x');
  const auto g = dir.write("x.gz", gz);
  EXPECT_EQ(SplitFile::open({g.string(), false}, 4, 1000), nullptr);
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "line\n";
  const auto t = dir.write("t.log", text);
  EXPECT_EQ(SplitFile::open({t.string(), false}, 1, 1000), nullptr);  // one thread: no cut
  const auto split = SplitFile::open({t.string(), false}, 4, 1000);
  ASSERT_NE(split, nullptr);
  EXPECT_EQ(split->parts.size(), 4u);
}

}  // namespace
}  // namespace npu_doctor
