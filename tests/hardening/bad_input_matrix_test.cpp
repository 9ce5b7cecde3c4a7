// The bad-input matrix (issue 9): every subcommand that reads input, against every kind
// of hostile input (bad_inputs.hpp), run as the real binary under a wall-clock limit.
// Each cell must end within its time, without a crash, with a documented exit status
// (docs/exit-codes.md) and a clear message, and with bounded memory.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <set>

#include "hardening/bad_inputs.hpp"
#include "hardening/bounded_run.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::testing {
namespace {

namespace fs = std::filesystem;

struct Command {
  std::string name;  // test-name part
  bool reads_stdin;  // takes "-" (the 1 GiB line then comes through stdin)
  // The arguments for `input`, which was made at where(work).
  std::function<std::vector<std::string>(const fs::path& input, const fs::path& work)> args;
  std::function<fs::path(const fs::path& work)> where = [](const fs::path& w) { return w / "input.log"; };
};

const std::vector<Command>& commands() {
  static const std::vector<Command> all = {
      {"Diagnose", true, [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"diagnose", in}; }},
      {"Cluster", false,
       [](const fs::path& in, const fs::path&) {
         return std::vector<std::string>{"cluster", "--logs", in, "--node-timeout", "100s"};
       }},
      {"Merge", false, [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"merge", in}; }},
      {"Atc", true, [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"atc", in}; }},
      {"Profile", true, [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"profile", in}; }},
      // mem reads "-" by copying it to a temporary file: a FIFO keeps the 1 GiB off the disk.
      {"MemAnalyze", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"mem", "analyze", in}; }},
      {"HcclRanktable", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"hccl", "ranktable", in}; }},
      {"HcclEnv", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"hccl", "env", in}; }},
      {"HcclTestOutput", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"hccl", "test-output", in}; }},
      {"HcclHccn", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"hccl", "hccn", in}; }},
      {"ExplainKb", false,
       [](const fs::path& in, const fs::path&) { return std::vector<std::string>{"explain", "507035", "--kb", in}; }},
      // bundle: the bad input is a log to collect (time-boxed commands, an empty sysroot).
      {"Bundle", false,
       [](const fs::path& in, const fs::path& work) {
         fs::create_directories(work / "root");
         return std::vector<std::string>{"bundle", "--logs", in, "--no-default-logs", "--root", work / "root",
                                         "--timeout", "2", "-o", work / "bundle.tar.gz"};
       }},
      // check --root: the bad input stands where the driver's version file is read.
      {"CheckRoot", false,
       [](const fs::path&, const fs::path& work) {
         return std::vector<std::string>{"check", "--root", work / "root", "--timeout", "5"};
       },
       [](const fs::path& w) {
         fs::create_directories(w / "root/usr/local/Ascend/driver");
         return w / "root/usr/local/Ascend/driver/version.info";
       }},
  };
  return all;
}

// What a cell must show beyond the invariants: exit statuses allowed and a message
// fragment on stderr. Cells not listed must still pass every invariant.
struct Expect {
  std::set<int> exit_codes;
  std::string message;  // on stderr; empty: none required
};

using Key = std::pair<std::string, BadInput>;

const std::map<Key, Expect>& expectations() {
  using B = BadInput;
  static const std::map<Key, Expect> table = {
      // diagnose: text rows find the error line; unscannable input is exit 2 with the reason.
      {{"Diagnose", B::empty}, {{0}, ""}},
      {{"Diagnose", B::nul_bytes}, {{2}, "binary data, not a text log"}},
      {{"Diagnose", B::random_binary}, {{2}, "binary data, not a text log"}},
      {{"Diagnose", B::invalid_utf8}, {{1}, ""}},
      {{"Diagnose", B::long_line}, {{0}, ""}},
      {{"Diagnose", B::crlf_and_cr}, {{1}, ""}},
      {{"Diagnose", B::gzip_cut}, {{1}, "read stopped after"}},
      {{"Diagnose", B::tar_lying}, {{1}, "Truncated tar archive"}},
      {{"Diagnose", B::bomb}, {{1}, "decompression bomb"}},
      {{"Diagnose", B::symlink_loop}, {{2}, "Too many levels of symbolic links"}},
      {{"Diagnose", B::fifo}, {{0}, ""}},
      {{"Diagnose", B::unreadable}, {{2}, "Permission denied"}},
      {{"Diagnose", B::dev_zero}, {{2}, "binary data, not a text log"}},
      {{"Diagnose", B::many_files}, {{0}, ""}},
      {{"Diagnose", B::growing}, {{1}, ""}},
      // cluster on one node: diagnose's answers for this node's logs.
      {{"Cluster", B::nul_bytes}, {{2}, "no node could be scanned"}},
      {{"Cluster", B::crlf_and_cr}, {{1}, ""}},
      {{"Cluster", B::bomb}, {{1}, "decompression bomb"}},
      {{"Cluster", B::unreadable}, {{2}, "no node could be scanned"}},
      // merge: anything that is not a node summary is left out, so no summary: 2.
      {{"Merge", B::empty}, {{2}, "empty file"}},
      {{"Merge", B::nul_bytes}, {{2}, "left out"}},
      {{"Merge", B::random_binary}, {{2}, "left out"}},
      {{"Merge", B::long_line}, {{2}, "not a regular file"}},
      {{"Merge", B::fifo}, {{2}, "not a regular file"}},
      {{"Merge", B::dev_zero}, {{2}, "not a regular file"}},
      {{"Merge", B::unreadable}, {{2}, "left out"}},
      {{"Merge", B::bomb}, {{2}, "left out"}},
      // atc, profile, mem: the scanner's answers; no table / no samples is exit 2 for profile.
      {{"Atc", B::nul_bytes}, {{2}, "binary data, not a text log"}},
      {{"Atc", B::bomb}, {{0, 1}, "decompression bomb"}},
      {{"Profile", B::empty}, {{2}, "no profiling table could be read"}},
      {{"Profile", B::nul_bytes}, {{2}, "no profiling table could be read"}},
      {{"Profile", B::long_line}, {{2}, "no profiling table could be read"}},
      {{"Profile", B::dev_zero}, {{2}, "no profiling table could be read"}},
      {{"MemAnalyze", B::nul_bytes}, {{2}, "binary data"}},
      {{"MemAnalyze", B::bomb}, {{0, 1}, "decompression bomb"}},
      {{"MemAnalyze", B::crlf_and_cr}, {{1}, ""}},
      // hccl: inputs are capped in size and must be regular files or FIFOs.
      {{"HcclRanktable", B::empty}, {{1}, ""}},
      {{"HcclRanktable", B::long_line}, {{2}, "larger than 64 MiB"}},
      {{"HcclRanktable", B::dev_zero}, {{2}, "not a regular file"}},
      {{"HcclEnv", B::long_line}, {{2}, "larger than 16 MiB"}},
      {{"HcclEnv", B::dev_zero}, {{2}, "not a regular file"}},
      {{"HcclTestOutput", B::random_binary}, {{2}, "not HCCL Test output"}},
      {{"HcclTestOutput", B::long_line}, {{2}, "larger than"}},
      {{"HcclHccn", B::nul_bytes}, {{2}, "no hccn_tool output recognised"}},
      {{"HcclHccn", B::long_line}, {{2}, "larger than"}},
      {{"HcclHccn", B::dev_zero}, {{2}, "not a regular file"}},
      // explain --kb: a bad knowledge-base file is reported and left out; the code is still explained.
      {{"ExplainKb", B::empty}, {{0}, "must be a YAML mapping"}},
      {{"ExplainKb", B::nul_bytes}, {{0}, "error:"}},
      {{"ExplainKb", B::fifo}, {{0}, "not a regular file"}},
      {{"ExplainKb", B::long_line}, {{0}, "not a regular file"}},
      {{"ExplainKb", B::dev_zero}, {{0}, "not a regular file"}},
      {{"ExplainKb", B::unreadable}, {{0}, "cannot read knowledge-base file"}},
  };
  return table;
}

// Seconds a cell may take: the generated gigabyte, the bomb and 100,000 files are big by design.
std::chrono::seconds time_limit(BadInput kind) {
  switch (kind) {
    case BadInput::long_line:
    case BadInput::many_files:
      return std::chrono::seconds(240);
    case BadInput::bomb:
      return std::chrono::seconds(120);
    default:
      return std::chrono::seconds(60);
  }
}

constexpr long kMaxRssKib = 512 * 1024;  // whatever the input: the scanner keeps blocks, not files

struct Cell {
  std::size_t command;
  BadInput input;
};

class BadInputMatrix : public ::testing::TestWithParam<Cell> {};

TEST_P(BadInputMatrix, EndsInTimeWithDocumentedStatusAndMessage) {
  const Command& cmd = commands()[GetParam().command];
  const BadInput kind = GetParam().input;
  TempDir work;
  const fs::path where = cmd.where(work.path());
  MadeInput input = make_bad_input(kind, where, cmd.reads_stdin);
  if (!input.skip.empty()) GTEST_SKIP() << input.skip;

  BoundedRun run;
  run.args = cmd.args(input.path, work.path());
  run.timeout = time_limit(kind);
  run.wrapper = input.wrapper;
  if (input.generated_stdin) run.stdin_generated_bytes = kLongLineBytes;
  // Compiled pattern databases in a cache of the test's own (also one an unprivileged user can write).
  const fs::path cache = fs::temp_directory_path() / "npu-doctor-hardening-cache";
  fs::create_directories(cache);
  fs::permissions(cache, fs::perms::all);
  run.env = {"NPU_DOCTOR_CACHE_DIR=" + cache.string(), "NPU_DOCTOR_SYSTEM_KB_DIR="};
  const BoundedResult r = run_bounded(run);
  input.keep_alive.reset();

  const std::string where_msg = cmd.name + " on " + name_of(kind) + ": " + describe(r) + "\nstderr:\n" +
                                r.err.substr(0, 2000) + "\nstdout:\n" + r.out.substr(0, 1000);
  ASSERT_FALSE(r.timed_out) << where_msg;
  ASSERT_EQ(r.signal, 0) << "a crash: " << where_msg;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || r.exit_code == 2) << "exit 3 is a bug: " << where_msg;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << where_msg;
  EXPECT_LT(r.max_rss_kib, memory_bound_kib(kMaxRssKib)) << "memory must stay bounded: " << where_msg;
  const auto it = expectations().find({cmd.name, kind});
  if (it != expectations().end()) {
    EXPECT_TRUE(it->second.exit_codes.count(r.exit_code) > 0) << where_msg;
    EXPECT_NE(r.err.find(it->second.message), std::string::npos)
        << "expected on stderr: \"" << it->second.message << "\"\n" << where_msg;
  }
  // Exit 2 is "nothing could be read": it must say why on stderr.
  if (r.exit_code == 2) {
    EXPECT_NE(r.err.find("npu-doctor"), std::string::npos) << where_msg;
  }
  RecordProperty("seconds", std::to_string(r.seconds));
  RecordProperty("max_rss_kib", std::to_string(r.max_rss_kib));
}

std::vector<Cell> all_cells() {
  std::vector<Cell> cells;
  for (std::size_t c = 0; c < commands().size(); ++c) {
    for (BadInput b : all_bad_inputs()) cells.push_back({c, b});
  }
  return cells;
}

INSTANTIATE_TEST_SUITE_P(BadInput, BadInputMatrix, ::testing::ValuesIn(all_cells()),
                         [](const ::testing::TestParamInfo<Cell>& cell) {
                           return commands()[cell.param.command].name + "_" + name_of(cell.param.input);
                         });

// Every expectation names a real cell (a renamed command would silently drop its rows).
TEST(BadInputMatrixTable, EveryExpectationNamesACommand) {
  std::set<std::string> names;
  for (const auto& c : commands()) names.insert(c.name);
  for (const auto& [key, e] : expectations()) EXPECT_TRUE(names.count(key.first) > 0) << key.first;
}

}  // namespace
}  // namespace npu_doctor::testing
