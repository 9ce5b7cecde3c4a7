// python/npu_doctor_mem.py run for real by python3, with a stand-in `torch` package on
// sys.path (torch.npu or torch.cuda with memory that grows 4 MiB per step). Its lines
// must be what the analyzer reads. Skipped, with a message, without python3.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "memory/mem_sample.hpp"
#include "npu_doctor/probe.hpp"
#include "support/test_support.hpp"

namespace npu_doctor::mem {
namespace {

constexpr const char* kFakeTorch = R"py(
import os
_state = {"step": 0}

def _fake_step(step):
    _state["step"] = step

class _Backend:
    def __init__(self, available):
        self._available = available
        self.resets = 0
    def is_available(self):
        return self._available
    def current_device(self):
        return int(os.environ.get("FAKE_DEVICE", "0"))
    def memory_allocated(self, device=None):
        return 30 * 2**30 + 4 * 2**20 * _state["step"]
    def memory_reserved(self, device=None):
        return self.memory_allocated(device) + 2 * 2**30
    def max_memory_allocated(self, device=None):
        return self.memory_allocated(device) + 2**30
    def mem_get_info(self, device=None):
        return (10 * 2**30, 64 * 2**30)
    def reset_peak_memory_stats(self, device=None):
        self.resets += 1

_mode = os.environ.get("FAKE_TORCH", "npu")
if _mode == "npu":
    npu = _Backend(True)
if _mode in ("npu", "cuda"):
    cuda = _Backend(_mode == "cuda")
)py";

constexpr const char* kTrain = R"py(
import sys
import torch
from npu_doctor_mem import MemoryLogger

mem = MemoryLogger(sys.argv[1], every=5, phase=(sys.argv[2] if len(sys.argv) > 2 else None))
for step in range(300):
    torch._fake_step(step)   # the training step
    mem.step(step)
mem.close()
print(mem.path)
)py";

struct Python {
  testing::TempDir dir;
  std::string python;
  Python() {
    const char* path = std::getenv("PATH");
    python = find_on_path("python3", path != nullptr ? path : "/usr/bin:/bin").value_or("");
    dir.write("fake/torch/__init__.py", kFakeTorch);
    dir.write("train.py", kTrain);
  }
  CommandResult run(const std::vector<std::string>& args, std::map<std::string, std::string> env, bool with_torch = true) {
    CommandOptions o;
    o.timeout = std::chrono::seconds(60);
    env["PYTHONPATH"] = (with_torch ? (dir.path() / "fake").string() + ":" : std::string()) + NPU_DOCTOR_PYTHON_DIR;
    env["PYTHONDONTWRITEBYTECODE"] = "1";
    o.env = std::move(env);
    std::vector<std::string> argv = {python};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_command(argv, o);
  }
};

TEST(MemPythonHelper, WritesSamplesFromTorchNpuThatTheAnalyzerReads) {
  Python py;
  if (py.python.empty()) GTEST_SKIP() << "python3 is not installed: the Python helper is not tested";
  const auto out = py.dir.path() / "mem-rank{rank}.jsonl";
  const auto r = py.run({(py.dir.path() / "train.py").string(), out.string()}, {{"RANK", "3"}, {"FAKE_DEVICE", "2"}});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  const auto file = py.dir.path() / "mem-rank3.jsonl";
  EXPECT_EQ(r.out, file.string() + "\n") << "{rank} is the RANK";
  const auto lines = testing::lines_of(testing::read_file(file));
  ASSERT_EQ(lines.size(), 60u) << "every 5th of 300 steps";
  for (std::size_t i = 0; i < lines.size(); ++i) {
    MemSample s;
    std::string why;
    ASSERT_EQ(parse_sample_line(lines[i], s, why), LineKind::sample) << lines[i] << ": " << why;
    EXPECT_EQ(s.step, static_cast<int64_t>(i * 5));
    EXPECT_EQ(s.device, 2);
    EXPECT_EQ(s.allocated, (30ull << 30) + (4ull << 20) * i * 5);
    EXPECT_EQ(s.reserved.value(), s.allocated + (2ull << 30));
    EXPECT_EQ(s.max_allocated.value(), s.allocated + (1ull << 30));
    EXPECT_EQ(s.capacity.value(), 64ull << 30);
    EXPECT_TRUE(s.time);
  }
  // The same file through the CLI: a 4 MiB-per-step leak on device 2.
  const auto a = testing::run_npu_doctor({"mem", "analyze", "-f", "json", file.string()});
  EXPECT_EQ(a.exit_code, 1) << a.err;
  const auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["devices"][0]["device"], 2);
  EXPECT_TRUE(j["devices"][0]["leak"]["detected"]);
  EXPECT_EQ(j["devices"][0]["leak"]["bytes_per_step"], 4ll << 20);
  EXPECT_EQ(j["devices"][0]["capacity_source"], "samples");
}

TEST(MemPythonHelper, FallsBackToTorchCuda) {
  Python py;
  if (py.python.empty()) GTEST_SKIP() << "python3 is not installed";
  const auto out = py.dir.path() / "cuda.jsonl";
  const auto r = py.run({(py.dir.path() / "train.py").string(), out.string(), "inference"}, {{"FAKE_TORCH", "cuda"}});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  const auto lines = testing::lines_of(testing::read_file(out));
  ASSERT_EQ(lines.size(), 60u);
  const auto first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["device"], 0);
  EXPECT_EQ(first["phase"], "inference");
}

TEST(MemPythonHelper, SaysSoWhenThereIsNoDevice) {
  Python py;
  if (py.python.empty()) GTEST_SKIP() << "python3 is not installed";
  const auto r = py.run({(py.dir.path() / "train.py").string(), (py.dir.path() / "x.jsonl").string()},
                        {{"FAKE_TORCH", "none"}});
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.err.find("neither torch.npu (torch_npu) nor torch.cuda has a device"), std::string::npos) << r.err;
}

TEST(MemPythonHelper, ImportingNeedsNoTorch) {
  Python py;
  if (py.python.empty()) GTEST_SKIP() << "python3 is not installed";
  const auto r = py.run({"-c", "import npu_doctor_mem; print(npu_doctor_mem.__version__)"}, {}, false);
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out, "1\n");
  const auto bad = py.run({"-c", "import npu_doctor_mem; npu_doctor_mem.MemoryLogger('x', every=0, backend=object())"}, {},
                          false);
  EXPECT_FALSE(bad.ok());
  EXPECT_NE(bad.err.find("every must be at least 1"), std::string::npos) << bad.err;
}

}  // namespace
}  // namespace npu_doctor::mem
