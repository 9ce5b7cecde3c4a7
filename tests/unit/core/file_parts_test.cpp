// One large file on several threads gives exactly one thread's result: findings, counts,
// evidence with its context across the cuts, line numbers, timelines and the root cause.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <unistd.h>

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


TEST(FileParts, ALargeFileOnManyThreadsGivesOneThreadsResult) {
  testing::TempDir dir;
  const auto path = dir.write("big.log", testing::noisy_log_with_errors(7));
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
