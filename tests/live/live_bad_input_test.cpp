// Bad input for run and watch (docs/exit-codes.md): a job that prints binary data and a
// line of 64 MiB without a newline passes it through whole, in bounded memory; a watched
// folder holding a FIFO, a device link and a binary file does not block watch, which still
// reports the failure written next to them.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <nlohmann/json.hpp>

#include "hardening/bounded_run.hpp"
#include "live/live_child.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::live {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;

TEST(LiveBadInput, BinaryOutputAndAHugeLinePassThroughInBoundedMemory) {
  TempDir dir;
  constexpr std::size_t kBinary = 3000000;
  constexpr std::size_t kLine = 64u << 20;
  std::string random(kBinary, '\0');
  std::mt19937 rng(7);
  for (auto& c : random) c = static_cast<char>(rng());
  const fs::path binary = dir.write("random.bin", random);
  {  // What the reader must get: the binary bytes, the long line, its newline.
    std::ofstream expected(dir.path() / "expected", std::ios::binary);
    expected << random << std::string(kLine, 'a') << "\n";
  }
  const fs::path rc = dir.path() / "rc";
  testing::BoundedRun run;
  // npu-doctor's stdout compared byte for byte as it streams (cmp), its status kept in rc,
  // and its peak memory (with its children's) from getrusage: the wait4 of a process the
  // test spawns would count the test's own memory, which it shared until exec.
  run.wrapper = {"python3", "-c",
                 "import resource, subprocess, sys\n"
                 "cmp = subprocess.Popen(['cmp', '-', sys.argv[1]], stdin=subprocess.PIPE)\n"
                 "job = subprocess.run(sys.argv[3:], stdout=cmp.stdin)\n"
                 "cmp.stdin.close()\n"
                 "print('same' if cmp.wait() == 0 else 'different')\n"
                 "open(sys.argv[2], 'w').write('%d\\n' % job.returncode)\n"
                 "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n",
                 (dir.path() / "expected").string(), rc.string()};
  run.args = {"run", "-f", "json", "-o", (dir.path() / "r.json").string(), "--", "sh", "-c",
              "cat '" + binary.string() + "'; head -c " + std::to_string(kLine) +
                  " /dev/zero | tr '\\000' a; echo; echo 'RuntimeError: error code is 507035' >&2; exit 1"};
  run.env = testing::live_env((dir.path() / "plogs").string());
  // The pattern database compiled once beforehand: its compilation is not what is measured.
  run.env.push_back("NPU_DOCTOR_CACHE_DIR=" + (dir.path() / "cache").string());
  {
    testing::LiveChild warm({"run", "--no-plog", "--", "true"}, run.env);
    ASSERT_EQ(warm.wait_exit(std::chrono::seconds(120)), 0) << warm.err();
  }
  run.timeout = std::chrono::seconds(180);
  const auto r = testing::run_bounded(run);
  ASSERT_FALSE(r.timed_out);
  const auto out = testing::lines_of(r.out);
  ASSERT_EQ(out.size(), 2u) << testing::describe(r) << r.out << r.err.substr(0, 2000);
  EXPECT_EQ(out[0], "same");
  EXPECT_EQ(testing::read_file(rc), "1\n");
  // Keeping the line would add more than 64 MiB to the ~48 MiB the scanner needs with the
  // message catalogue; the scan keeps at most 4 MiB of it. 64 MiB is the product's bound.
  const long peak_kib = std::stol(out[1]);
  EXPECT_LT(peak_kib, testing::memory_bound_kib(64 * 1024)) << "peak RSS " << peak_kib << " KiB";
  const auto report = nlohmann::json::parse(testing::read_file(dir.path() / "r.json"));
  ASSERT_FALSE(report["root_cause"].is_null());
  EXPECT_EQ(report["root_cause"]["code"], "507035");
  EXPECT_EQ(report["inputs"][0]["bytes"], kBinary + kLine + 1);
}

TEST(LiveBadInput, AFifoADeviceAndABinaryFileInAWatchedFolder) {
  TempDir dir;
  ASSERT_EQ(::mkfifo((dir.path() / "pipe.log").c_str(), 0644), 0);
  fs::create_symlink("/dev/zero", dir.path() / "zero.log");
  dir.write("core.bin", std::string("\x7f" "ELF\0\0\0\0", 8) + std::string(100000, '\0'));
  testing::LiveChild c({"watch", dir.path().string(), "--from-start", "--settle", "300ms", "-f", "json",
                        "--until-root-cause"},
                       {"NO_COLOR=1"});
  ASSERT_TRUE(c.wait_for_err("new incidents follow")) << c.err();
  dir.write("plog-3_1.log",
            "[ERROR] RUNTIME(3,python):2025-03-02-12:00:00.000.000 [api_c_memory.cc:28]3 rtMalloc:ErrCode=207001, "
            "desc=[driver error:out of memory], InnerCode=0x7020016\n");
  ASSERT_EQ(c.wait_exit(), 1) << c.err();
  const auto inc = nlohmann::json::parse(c.out());
  EXPECT_EQ(inc["root_cause"]["category"], "memory");
  ASSERT_EQ(inc["inputs"].size(), 1u) << inc["inputs"].dump();
}

}  // namespace
}  // namespace npu_doctor::live
