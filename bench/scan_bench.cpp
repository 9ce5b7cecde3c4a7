// npu_doctor_bench: Google Benchmark micro-benchmarks of the diagnose pipeline.
//
//   Scanner/sparse, Scanner/dense   the whole scanner (Vectorscan pass over the full
//                                   embedded knowledge base, line numbering, PCRE2
//                                   confirmation, context capture) on an in-memory log
//   PatternSet/sparse, .../dense    the Vectorscan pass alone (no-op match callback):
//                                   the floor the scanner can reach with this database
//   GateOnly/sparse, .../dense      the gate's literals and markers alone, no probes: what
//                                   the first stage would cost if every pattern were gated
//   SeedRegexOnly/sparse            Vectorscan with only the seed guide's regex, the
//                                   same work `rg -c` does in compare.sh
//   CountNewlines                   std::count of '\n' over the buffer: memory-speed floor
//   KbLoad                          load_knowledge_base() with the embedded kb/*.yaml
//   MatcherBuild                    KbMatcher::build(): PCRE2 + Vectorscan compilation
//
// Input: by default a 64 MiB log generated here with a fixed seed (the same line shapes
// as bench/gen_log.py, one error burst per ~200k lines for "sparse", one per ~1k lines for
// "dense"). Set NPU_DOCTOR_BENCH_LOG (and NPU_DOCTOR_BENCH_LOG_DENSE) to a file, e.g. one
// written by gen_log.py, to scan that instead; NPU_DOCTOR_BENCH_MB sets the generated size.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <ios>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "finding_collector.hpp"
#include "input_source.hpp"
#include "kb_matcher.hpp"
#include "npu_doctor/knowledge_base.hpp"
#include "pattern_set.hpp"
#include "scan_plan.hpp"
#include "scanner.hpp"

namespace nd = npu_doctor;

namespace {

// ---- deterministic log generator (a compact port of bench/gen_log.py) -----------------

class Rng {  // splitmix64: tiny, fast, identical on every platform
 public:
  explicit Rng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    uint64_t z = (s_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t n) { return next() % n; }
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_;
};

constexpr int kPid = 2789701;
constexpr const char* kOps[] = {"MatMul", "Add", "LayerNorm", "RmsNorm", "Softmax", "FlashAttentionScore",
                                "Transpose", "Cast", "BatchMatMulV2", "GeluV2", "ApplyAdamW", "GatherV2"};
constexpr const char* kApis[] = {"aclrtSynchronizeStream", "aclrtMemcpyAsync", "aclrtLaunchCallback",
                                 "aclopCompileAndExecute", "aclrtRecordEvent", "aclrtStreamWaitEvent"};
constexpr const char* kDtypes[] = {"float16", "bfloat16", "float32"};
constexpr const char* kEnv[] = {
    "HCCL_CONNECT_TIMEOUT set by default to [120]s", "HCCL_EXEC_TIMEOUT set by default to [1836]s",
    "HCCL_SOCKET_IFNAME set by environment to [enp189s0f0]", "HCCL_IF_BASE_PORT set by default to [60000]",
    "HCCL_RDMA_TC set by default to [132]", "HCCL_RDMA_TIMEOUT set by default to [20]",
    "HCCL_RDMA_RETRY_CNT set by default to [7]", "HCCL_BUFFSIZE set by default to [200]M"};

// Error bursts: "%T" is replaced by a plog timestamp, "%P" by the pid, "%D" by the date.
const std::vector<std::vector<std::string_view>> kBursts = {
    {
        "[ERROR] RUNTIME(%P,python):%T [device_error_core_proc.cc:645]%P PrintCoreInfo:The error from device(chipId:2, dieId:0), serial number is 124, there is an exception of aivec error, core id is 14, error code = 0x4000000000000000, dump info: pc start: 0x12c0c0a1c000, current: 0x12c0c0a1c3f0, vec error info: 0x7a00001b, mte error info: 0x3000000d5, cube error info: 0, biu error info: 0.",
        "[ERROR] RUNTIME(%P,python):%T [device_error_core_proc.cc:702]%P PrintCoreInfo:The extend info: errcode:(0x4000000000000000, 0, 0) errorStr: VEC instruction error: the ub address out of bounds. fsmId:0, tslot:0, thread:0, ctxid:0, blk:12, sublk:0, subErrType:4.",
        "[ERROR] RUNTIME(%P,python):%T [davinci_kernel_task.cc:1263]%P PreCheckTaskErr:Kernel task happen error, retCode=0x31, [vector core exception].",
        "[ERROR] RUNTIME(%P,python):%T [davinci_kernel_task.cc:1190]%P PrintErrorInfo:[DFX_INFO]AI Core kernel execution failed, device_id=0, stream_id=2, report_stream_id=2, task_id=9341, flip_num=0, fault kernel_name=te_flashattentionscore_4a3b2c1d_mix_aiv, fault kernel info ext=none, program id=61, hash=13716433384925958553.",
        "[ERROR] RUNTIME(%P,python):%T [stream.cc:1107]%P GetError:[EXEC][DEFAULT]Stream Synchronize failed, stream_id=2, retCode=0x91, [the model stream execute failed].",
        "[ERROR] ASCENDCL(%P,python):%T [stream.cpp:64]%P aclrtSynchronizeStream: [EXEC][DEFAULT]synchronize stream failed, runtime result = 507035",
        "Traceback (most recent call last):",
        "  File \"/job/code/train.py\", line 371, in main",
        "    loss.item()",
        "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:25 NPU function error: c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035",
        "[ERROR] %D (PID:%P, Device:1, RankID:-1) ERR00100 PTA call acl api failed",
        "[Error]: The vector core execution is abnormal. ",
        "EZ9999: Inner Error!",
        "EZ9999: [PID: %P] %T The error from device(chipId:2, dieId:0), serial number is 124, there is an exception of aivec error, core id is 14, error code = 0x4000000000000000.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645]",
        "        TraceBack (most recent call last):",
        "       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1263]",
        "       synchronize stream failed, runtime result = 507035[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
        "",
    },
    {
        "[ERROR] HCCL(%P,python):%T [task_exception_handler.cc:1041][%P][TaskExceptionHandler][Callback]Task run failed, base information is streamID:[2282987520], taskID[5], taskType[Notify Wait], tag[AllReduce_90.90.94.184%enp189s0f0_60000_0_1732766162316022], AlgType(level 0-1-2):[fullmesh-ring-ring].",
        "[ERROR] HCCL(%P,python):%T [task_exception_handler.cc:1079][%P][TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x00000000000018fc], stage:[0], remote rank:[3].",
        "[ERROR] HCCL(%P,python):%T [heartbeat.cc:1533][%P]Cluster Exception Location[IP/ID]:[90.90.94.184/3], Arrival Time:[Thu Nov 21 08:56:34 2024], Discoverer:[90.90.94.184/0], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected",
        "[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]: ",
        "EI0002: [PID: %P] %T The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [3].base information: [streamID:[2282987520], taskID[5], tag[AllReduce_90.90.94.184%enp189s0f0_60000_0_1732766162316022], AlgType(level 0-1-2):[fullmesh-ring-ring].] task information: []",
        "        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster. (default 1800s, You can set the interval by using HCCL_EXEC_TIMEOUT.)",
        "        TraceBack (most recent call last):",
        "[Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=41833, OpType=ALLREDUCE, NumelIn=16777216, NumelOut=16777216, Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.",
        "RuntimeError: HCCL function error: hcclAllReduce(inputTensor, outputTensor, numel, dtype, op, comm, stream), error code is 9",
        "[ERROR] %D (PID:%P, Device:0, RankID:-1) ERR02200 DIST call hccl api failed.",
        "",
    },
    {
        "[ERROR] DRV(%P,python):%T [ascend][curpid: %P, %P][drv][devmm][devmm_ioctl_enable_heap 562]<errno:22, 8> Ioctl device error. (ret=8)",
        "[ERROR] RUNTIME(%P,python):%T [npu_driver.cc:1196]%P DevMemAllocManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=274880004096(Byte), type=0, moduleId=33, drvFlag=2377900603261076480, drvRetCode=6, device_id=0!",
        "[ERROR] RUNTIME(%P,python):%T [api_c_memory.cc:28]%P rtMalloc:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016",
        "[ERROR] RUNTIME(%P,python):%T [error_message_manage.cc:53]%P FuncErrorReason:[INIT][DEFAULT]rtMalloc execute failed, reason=[driver error:out of memory]",
        "[ERROR] ASCENDCL(%P,python):%T [memory.cpp:129]%P aclMallocMemInner: [INIT][DEFAULT]alloc device memory failed, runtime result = 207001",
        "Traceback (most recent call last):",
        "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 57.12 GiB already allocated; 57.12 GiB current active; 1.02 GiB free; 58.80 GiB reserved in total by PyTorch)",
        "[ERROR] %D (PID:%P, Device:0, RankID:-1) ERR00006 PTA memory error",
        "",
    },
    {
        "EH9999: Inner Error!",
        "rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
        "EH9999: [PID: %P] %T synchronize stream failed, runtime result = 507048[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
        "        TraceBack (most recent call last):",
        "RuntimeError: ACL stream synchronize failed, error code:507035",
        "[ERROR] %D (PID:%P, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
        "",
    },
};

class LogGen {
 public:
  LogGen(uint64_t seed, double error_rate) : rng_(seed), error_rate_(error_rate) { next_burst_ = gap(); }

  std::string make(std::size_t bytes) {
    std::string out;
    out.reserve(bytes + 4096);
    while (out.size() < bytes) line(out);
    return out;
  }

 private:
  uint64_t gap() {
    if (error_rate_ <= 0) return UINT64_MAX;
    // Exponential gap with mean 1/error_rate, as gen_log.py draws it.
    const double u = 1.0 - rng_.unit();
    return lines_ + 1 + static_cast<uint64_t>(-std::log(u) / error_rate_);
  }
  void ts() {  // plog timestamp of the simulated clock
    const uint64_t sec = us_ / 1000000, sub = us_ % 1000000;
    std::snprintf(ts_, sizeof ts_, "2024-11-21-%02u:%02u:%02u.%03u.%03u", static_cast<unsigned>(8 + sec / 3600 % 16),
                  static_cast<unsigned>(sec / 60 % 60), static_cast<unsigned>(sec % 60),
                  static_cast<unsigned>(sub / 1000), static_cast<unsigned>(sub % 1000));
    std::snprintf(date_, sizeof date_, "%.19s", ts_);
  }
  __attribute__((format(printf, 3, 4))) void append(std::string& out, const char* fmt, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    const int n = std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n > 0) out.append(buf, std::min(static_cast<std::size_t>(n), sizeof buf - 1));
  }
  void expand(std::string& out, std::string_view tmpl) {
    char pid[16];
    std::snprintf(pid, sizeof pid, "%d", kPid);
    for (std::size_t i = 0; i < tmpl.size(); ++i) {
      if (tmpl[i] == '%' && i + 1 < tmpl.size()) {
        const char c = tmpl[i + 1];
        if (c == 'T') { out += ts_; ++i; continue; }
        if (c == 'P') { out += pid; ++i; continue; }
        if (c == 'D') { out += date_; ++i; continue; }
      }
      out += tmpl[i];
    }
    out += '\n';
  }
  void line(std::string& out) {
    if (lines_ >= next_init_) {
      for (const char* e : kEnv) {
        us_ += 1 + rng_.below(200);
        ts();
        append(out, "[INFO] HCCL(%d,python):%s [externalinput.cc:%u][%d][HCCL_ENV] %s\n", kPid, ts_,
               static_cast<unsigned>(100 + rng_.below(1500)), kPid, e);
        ++lines_;
      }
      next_init_ = lines_ + 150000 + rng_.below(100000);
      return;
    }
    if (lines_ >= next_burst_) {
      const auto& burst = kBursts[burst_no_++ % kBursts.size()];
      for (std::string_view l : burst) {
        us_ += 1 + rng_.below(300);
        ts();
        expand(out, l);
        ++lines_;
      }
      next_burst_ = gap();
      return;
    }
    us_ += 1 + rng_.below(400);
    ++lines_;
    const uint64_t x = rng_.below(1000);
    if (x >= 900) {
      ++step_;
      if (x < 965) {
        append(out, "{'loss': %.4f, 'grad_norm': %.4f, 'learning_rate': %.4e, 'epoch': %.2f}\n", 1.2 + 2 * rng_.unit(),
               0.3 + 2 * rng_.unit(), 2e-5 * rng_.unit(), static_cast<double>(step_) / 5000);
      } else {
        const unsigned n = static_cast<unsigned>(1 + rng_.below(6));
        for (unsigned k = 0; k < n; ++k) {
          const unsigned pct = static_cast<unsigned>((step_ + k) % 100000 / 1000);
          std::string bar;
          for (unsigned b = 0; b < 10; ++b) bar += b < pct / 10 ? "\xe2\x96\x88" : " ";
          append(out, "%3u%%|%s| %u/100000 [01:%02u:%02u<10:12:00,  %.2fit/s]%s", pct, bar.c_str(),
                 static_cast<unsigned>((step_ + k) % 100000), static_cast<unsigned>(step_ / 60 % 60),
                 static_cast<unsigned>(step_ % 60), 1.5 + rng_.unit(), k + 1 < n ? "\r" : "\n");
        }
      }
      return;
    }
    ts();
    const char* level = rng_.below(20) == 0 ? "WARNING" : (rng_.below(5) < 3 ? "INFO" : "DEBUG");
    const unsigned tid = static_cast<unsigned>(kPid + rng_.below(5) * 7);
    const unsigned fline = static_cast<unsigned>(20 + rng_.below(2000));
    const char* op = kOps[rng_.below(std::size(kOps))];
    switch (rng_.below(10)) {
      case 0:
        append(out, "[%s] RUNTIME(%d,python):%s [stream.cc:%u]%u Setup:[INIT][DEFAULT]stream_id=%u, priority=0, flag=0x0, device_id=%u\n",
               level, kPid, ts_, fline, tid, static_cast<unsigned>(rng_.below(64)), static_cast<unsigned>(rng_.below(8)));
        break;
      case 1:
      case 2:
        append(out, "[%s] RUNTIME(%d,python):%s [api_impl.cc:%u]%u KernelLaunch:[INIT][DEFAULT]launch kernel te_%s_%llx, stream_id=%u, task_id=%u, block_dim=%u\n",
               level, kPid, ts_, fline, tid, op, static_cast<unsigned long long>(rng_.next() >> 16),
               static_cast<unsigned>(rng_.below(64)), static_cast<unsigned>(rng_.below(65535)),
               static_cast<unsigned>(1 + rng_.below(48)));
        break;
      case 3:
        append(out, "[%s] RUNTIME(%d,python):%s [npu_driver.cc:%u]%u DevMemAlloc:[INIT][DEFAULT]halMemAlloc ok: size=%llu(Byte), type=2, moduleId=33, device_id=%u, ptr=0x%llx\n",
               level, kPid, ts_, fline, tid, static_cast<unsigned long long>(512 * rng_.below(4194304)),
               static_cast<unsigned>(rng_.below(8)), static_cast<unsigned long long>(0x12c100000000ull + (rng_.next() >> 28)));
        break;
      case 4:
        append(out, "[%s] GE(%d,python):%s [graph_manager.cc:%u]%u RunGraphAsync:graph_id=%u, session_id=1, node count=%u, run finished in %u us\n",
               level, kPid, ts_, fline, tid, static_cast<unsigned>(rng_.below(200)),
               static_cast<unsigned>(rng_.below(30000)), static_cast<unsigned>(rng_.below(900000)));
        break;
      case 5: {
        const char* api = kApis[rng_.below(std::size(kApis))];
        append(out, "[%s] ASCENDCL(%d,python):%s [acl_rt.cpp:%u]%u %s: start to execute %s, stream = 0x%llx\n", level, kPid,
               ts_, fline, tid, api, api, static_cast<unsigned long long>(0xaaaa00000000ull + (rng_.next() >> 32)));
        break;
      }
      case 6:
        append(out, "[%s] HCCL(%d,python):%s [op_base.cc:%u][%u]Entry-HcclAllReduce:tag[AllReduce_90.90.94.184%%enp189s0f0_60000_0_1732766162316022], sendBuf[0x%llx], recvBuf[0x%llx], count[%u], dataType[%s], op[sum], localRank[%u], streamId[%u], deviceLogicId[%u]\n",
               level, kPid, ts_, fline, tid, static_cast<unsigned long long>(0x12c000000000ull + (rng_.next() >> 30)),
               static_cast<unsigned long long>(0x12c400000000ull + (rng_.next() >> 30)),
               static_cast<unsigned>(rng_.below(16777216)), kDtypes[rng_.below(3)], static_cast<unsigned>(rng_.below(8)),
               static_cast<unsigned>(rng_.below(64)), static_cast<unsigned>(rng_.below(8)));
        break;
      case 7:
        append(out, "[%s] TEFUSION(%d,python):%s [te_fusion_api.cc:%u]%u te_fusion: op [%s] compile cache hit, kernel_name te_%s_%llx, cost %u ms\n",
               level, kPid, ts_, fline, tid, op, op, static_cast<unsigned long long>(rng_.next() >> 16),
               static_cast<unsigned>(rng_.below(3000)));
        break;
      case 8:
        append(out, "[%s] DRV(%d,python):%s [ascend][curpid: %d, %u][drv][devmm][devmm_alloc_proc_mem %u]alloc mem ok. (size=%llu; page_size=2097152)\n",
               level, kPid, ts_, kPid, tid, static_cast<unsigned>(100 + rng_.below(900)),
               static_cast<unsigned long long>(2097152 * (1 + rng_.below(512))));
        break;
      default:
        append(out, "[%s] RUNTIME(%d,python):%s [engine.cc:%u]%u ProcessReport:[INIT][DEFAULT]report task complete: stream_id=%u, task_id=%u, type=%u, status=0\n",
               level, kPid, ts_, fline, tid, static_cast<unsigned>(rng_.below(64)),
               static_cast<unsigned>(rng_.below(65535)), static_cast<unsigned>(rng_.below(20)));
        break;
    }
  }

  Rng rng_;
  double error_rate_;
  uint64_t lines_ = 0, next_burst_ = 0, next_init_ = 0, us_ = 0, step_ = 0;
  std::size_t burst_no_ = 0;
  char ts_[40] = {};
  char date_[24] = {};
};

std::string read_file(const char* path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::string data(static_cast<std::size_t>(in.tellg()), '\0');
  in.seekg(0);
  in.read(data.data(), static_cast<std::streamsize>(data.size()));
  return data;
}

std::size_t gen_bytes() {
  const char* mb = std::getenv("NPU_DOCTOR_BENCH_MB");
  const long v = mb != nullptr ? std::atol(mb) : 64;
  return static_cast<std::size_t>(v > 0 ? v : 64) << 20;
}

const std::string& corpus(bool dense) {
  static std::unique_ptr<std::string> cache[2];
  auto& slot = cache[dense ? 1 : 0];
  if (!slot) {
    const char* env = std::getenv(dense ? "NPU_DOCTOR_BENCH_LOG_DENSE" : "NPU_DOCTOR_BENCH_LOG");
    slot = std::make_unique<std::string>(env != nullptr && *env != '\0'
                                             ? read_file(env)
                                             : LogGen(7, dense ? 1e-3 : 5e-6).make(gen_bytes()));
  }
  return *slot;
}

struct Kb {
  nd::KnowledgeBase kb;
  std::unique_ptr<nd::KbMatcher> matcher;
};

const Kb& kb() {
  static const Kb k = [] {
    Kb out;
    std::vector<nd::KbProblem> problems;
    out.kb = nd::load_knowledge_base(nd::KbLoadOptions{}, problems);
    out.matcher = nd::KbMatcher::build(out.kb, problems);
    for (const auto& p : problems) {
      if (p.is_error) std::fprintf(stderr, "kb problem: %s:%d: %s\n", p.file.c_str(), p.line, p.message.c_str());
    }
    return out;
  }();
  return k;
}

class MemoryStream : public nd::ByteStream {
 public:
  explicit MemoryStream(std::string_view data) : data_(data) {}
  long read(char* buf, std::size_t n) override {
    n = std::min(n, data_.size() - pos_);
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    return static_cast<long>(n);
  }

 private:
  std::string_view data_;
  std::size_t pos_ = 0;
};

// ---- benchmarks ---------------------------------------------------------------------

void set_bytes(benchmark::State& state, std::size_t per_iteration) {
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(per_iteration));
}

void BM_Scanner(benchmark::State& state) {
  const bool dense = state.range(0) != 0;
  const std::string& data = corpus(dense);
  const Kb& k = kb();
  nd::Scanner scanner(*k.matcher, nd::ScanOptions{});
  std::size_t findings = 0, hits = 0;
  uint64_t lines = 0;
  for (auto _ : state) {
    MemoryStream in(data);
    nd::InputReport report;
    report.path = "bench.log";
    nd::FindingCollector out(3);
    scanner.scan(in, 0, report, out);
    findings = out.findings().size();
    hits = 0;
    for (const auto& f : out.findings()) hits += f.count;
    lines = report.lines;
    benchmark::DoNotOptimize(findings);
  }
  set_bytes(state, data.size());
  state.counters["MiB"] = static_cast<double>(data.size()) / (1 << 20);
  state.counters["lines"] = static_cast<double>(lines);
  state.counters["findings"] = static_cast<double>(findings);
  state.counters["hits"] = static_cast<double>(hits);
  state.counters["patterns"] = static_cast<double>(k.matcher->pattern_count());
}
BENCHMARK(BM_Scanner)->Arg(0)->Arg(1)->ArgName("dense")->Unit(benchmark::kMillisecond)->UseRealTime();

// Scans `data` with `set` in the scanner's 4 MiB blocks, once per iteration (a no-op match
// callback but a count).
void scan_blocks(benchmark::State& state, const nd::PatternSet& set, const std::string& data) {
  auto scratch = set.make_scratch();
  const std::size_t block = 4u << 20;  // the scanner's block size
  std::size_t matches = 0;
  std::string error;
  for (auto _ : state) {
    matches = 0;
    for (std::size_t off = 0; off < data.size(); off += block) {
      set.scan(std::string_view(data).substr(off, block), scratch, [&](std::size_t, std::size_t) { ++matches; }, error);
    }
    benchmark::DoNotOptimize(matches);
  }
  set_bytes(state, data.size());
  state.counters["matches"] = static_cast<double>(matches);
}

// A first stage of these specs, or the benchmark skipped with the engine's message.
std::optional<nd::PatternSet> compile_or_skip(benchmark::State& state, const std::vector<nd::PatternSet::Spec>& specs) {
  nd::PatternSet::CompileError err;
  auto set = nd::PatternSet::compile(specs, err);
  if (!set) state.SkipWithError(err.message.c_str());
  return set;
}

void BM_PatternSet(benchmark::State& state) {  // the first stage (gate) alone
  scan_blocks(state, kb().matcher->gate(), corpus(state.range(0) != 0));
}
BENCHMARK(BM_PatternSet)->Arg(0)->Arg(1)->ArgName("dense")->Unit(benchmark::kMillisecond)->UseRealTime();

// The gate's own literals and error-level markers, without the probe literals and regexes of
// the patterns it does not cover: what the first stage would cost if every pattern were gated.
// BM_PatternSet minus this is what the ungated patterns cost (docs/scanning.md, "The floor").
void BM_GateOnly(benchmark::State& state) {
  std::vector<nd::PatternSet::Spec> specs;
  for (const std::string& lit : kb().kb.gate().literals) {
    std::string re;
    for (char c : lit) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      re += hex;
    }
    specs.push_back({re, true});
  }
  if (kb().kb.gate().error_markers) {
    for (std::string& re : nd::error_level_marker_regexes()) specs.push_back({std::move(re), false});
  }
  if (auto set = compile_or_skip(state, specs)) {
    scan_blocks(state, *set, corpus(state.range(0) != 0));
    state.counters["specs"] = static_cast<double>(specs.size());
  }
}
BENCHMARK(BM_GateOnly)->Arg(0)->Arg(1)->ArgName("dense")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SeedRegexOnly(benchmark::State& state) {
  if (auto set = compile_or_skip(state, {{R"((?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6}))", false}})) {
    scan_blocks(state, *set, corpus(false));
  }
}
BENCHMARK(BM_SeedRegexOnly)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_CountNewlines(benchmark::State& state) {
  const std::string& data = corpus(false);
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::count(data.begin(), data.end(), '\n'));
  }
  set_bytes(state, data.size());
}
BENCHMARK(BM_CountNewlines)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_KbLoad(benchmark::State& state) {
  std::size_t entries = 0;
  for (auto _ : state) {
    std::vector<nd::KbProblem> problems;
    nd::KnowledgeBase k = nd::load_knowledge_base(nd::KbLoadOptions{}, problems);
    entries = k.entries().size();
    benchmark::DoNotOptimize(entries);
  }
  state.counters["entries"] = static_cast<double>(entries);
}
BENCHMARK(BM_KbLoad)->Unit(benchmark::kMillisecond);

void BM_MatcherBuild(benchmark::State& state) {
  const Kb& k = kb();
  std::size_t patterns = 0;
  for (auto _ : state) {
    std::vector<nd::KbProblem> problems;
    auto m = nd::KbMatcher::build(k.kb, problems);
    patterns = m->pattern_count();
    benchmark::DoNotOptimize(patterns);
  }
  state.counters["patterns"] = static_cast<double>(patterns);
}
BENCHMARK(BM_MatcherBuild)->Unit(benchmark::kMillisecond);

// Diagnosing a slow database (see bench/README.md, "Which pattern is slow?"):
//   NPU_DOCTOR_BENCH_PER_PATTERN=1      one benchmark per knowledge-base pattern compiled
//                                       alone, as PatternSet compiles it
//   NPU_DOCTOR_BENCH_PER_PATTERN=loo    leave-one-out: the whole database without that one
//                                       pattern; the patterns whose removal helps most are
//                                       the ones that slow the combined database down
// Both run on the sparse corpus; append ",dense" (e.g. "1,dense") for the dense one.
struct NamedPattern {
  std::string name;
  nd::MatchPattern pattern;
};

std::vector<NamedPattern> kb_patterns() {
  std::vector<NamedPattern> items;  // the order KbMatcher::build uses: extractors, then entries
  for (const auto& x : kb().kb.extractors()) items.push_back({std::string("x:").append(x.id), x.pattern});
  for (const auto& e : kb().kb.entries()) {
    for (std::size_t i = 0; i < e.patterns.size(); ++i) {
      std::string name = std::string("e:").append(e.id);
      if (e.patterns.size() > 1) name.append("#").append(std::to_string(i));
      items.push_back({std::move(name), e.patterns[i]});
    }
  }
  return items;
}

void scan_specs(benchmark::State& state, const std::vector<nd::PatternSet::Spec>& specs, bool dense) {
  nd::PatternSet::CompileError err;
  auto set = nd::PatternSet::compile(specs, err);
  if (!set) {
    state.SkipWithError(("rejected: " + err.message).c_str());
    return;
  }
  const std::string& data = corpus(dense);
  auto scratch = set->make_scratch();
  std::size_t matches = 0;
  std::string error;
  for (auto _ : state) {
    matches = 0;
    for (std::size_t off = 0; off < data.size(); off += 4u << 20) {
      set->scan(std::string_view(data).substr(off, 4u << 20), scratch, [&](std::size_t, std::size_t) { ++matches; },
                error);
    }
    benchmark::DoNotOptimize(matches);
  }
  set_bytes(state, data.size());
  state.counters["matches"] = static_cast<double>(matches);
}

void register_per_pattern() {
  const char* mode = std::getenv("NPU_DOCTOR_BENCH_PER_PATTERN");
  if (mode == nullptr || *mode == '\0' || std::string_view(mode) == "0") return;
  std::string_view m(mode);
  const bool dense = m.ends_with(",dense");
  if (dense) m.remove_suffix(6);
  const bool loo = m == "loo";
  const auto items = kb_patterns();
  for (std::size_t k = 0; k < items.size(); ++k) {
    std::vector<nd::PatternSet::Spec> specs;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (loo ? i != k : i == k) specs.push_back({items[i].pattern.regex, items[i].pattern.ignore_case});
    }
    const std::string name = std::string(loo ? "AllBut/" : "PerPattern/").append(items[k].name);
    benchmark::RegisterBenchmark(name.c_str(), [specs, dense](benchmark::State& state) { scan_specs(state, specs, dense); })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->MinTime(0.2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  register_per_pattern();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
