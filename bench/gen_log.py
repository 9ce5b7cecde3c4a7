#!/usr/bin/env python3
"""Deterministic synthetic Ascend training log, for npu-doctor's throughput benchmarks.

Usage: gen_log.py SIZE_MB OUT [--seed N] [--error-rate R]

  SIZE_MB       size of the log in MiB (may be fractional; the file ends on a whole line
                just past SIZE_MB * 2^20 bytes)
  OUT           output path ("-" for stdout)
  --seed N      random seed (default 7); the same seed and arguments give the same bytes
  --error-rate  probability that a given line starts an error burst (default 5e-6, i.e.
                about one burst per 200,000 lines); use e.g. 1e-3 for a dense-hit log

What it writes is what `ASCEND_SLOG_PRINT_TO_STDOUT=1 python train.py > train.log`
produces on an Atlas training job: mostly plog lines in the real format
  [LEVEL] MODULE(pid,pname):YYYY-MM-DD-hh:mm:ss.mmm.uuu [file.cc:line]tid text
(INFO/DEBUG/WARNING, several modules), interleaved with torch_npu/transformers stdout
(loss dicts, tqdm progress bars with carriage returns, Python warnings), HCCL
communicator-init blocks with their [HCCL_ENV] lines, and rare error bursts made of
real-format error lines (line shapes from docs/ascend-reference §2-4):
  aicore  AI Core (vector core) exception, EZ9999 inner error with TraceBack,
          507035 stream synchronize failure, ERR00100
  hccl    EI0002 Notify wait timeout, task-exception triplet, watchdog, ERR02200
  oom     driver/runtime out-of-memory plog chain (207001), NPU out of memory, ERR00006
  sync    "ACL stream synchronize failed, error code:507035", EH9999 + 507048
Python 3 standard library only; roughly 10-15 MB/s on one core.
"""
import argparse
import datetime
import random
import sys

START = datetime.datetime(2024, 11, 21, 8, 0, 0)

PID = 2789701
PNAME = "python"
TIDS = [PID, PID + 7, PID + 8, PID + 31, PID + 112]

OPS = ["MatMul", "MatMulV2", "Add", "Mul", "LayerNorm", "RmsNorm", "Softmax", "FlashAttentionScore",
       "Transpose", "Cast", "BatchMatMulV2", "GeluV2", "ReduceSum", "ConcatD", "SplitV", "Slice",
       "RotaryMul", "ApplyAdamW", "Embedding", "GatherV2"]
DTYPES = ["float16", "bfloat16", "float32", "int64"]
HOST_IP = "90.90.94.184"
IFNAME = "enp189s0f0"


def _hex(x):
    return "%x" % x


# ---- plog noise: (weight, level set, module, file, line range, text maker) -----------------
# Text makers take (r, tid) where r() is random.random; they must be cheap.

def _t_stream(r, tid):
    return "%d Setup:[INIT][DEFAULT]stream_id=%d, priority=0, flag=0x0, device_id=%d" % (
        tid, int(r() * 64), int(r() * 8))


def _t_kernel(r, tid):
    op = OPS[int(r() * len(OPS))]
    return "%d KernelLaunch:[INIT][DEFAULT]launch kernel te_%s_%s, stream_id=%d, task_id=%d, block_dim=%d" % (
        tid, op.lower(), _hex(int(r() * (1 << 48))), int(r() * 64), int(r() * 65535), 1 + int(r() * 48))


def _t_malloc(r, tid):
    return "%d DevMemAlloc:[INIT][DEFAULT]halMemAlloc ok: size=%d(Byte), type=2, moduleId=33, device_id=%d, ptr=0x%s" % (
        tid, 512 * int(r() * 4194304), int(r() * 8), _hex(0x12c100000000 + int(r() * (1 << 36))))


def _t_sync(r, tid):
    return "%d StreamSynchronize:[INIT][DEFAULT]stream_id=%d synchronize ok, cost %d us" % (
        tid, int(r() * 64), int(r() * 90000))


def _t_task(r, tid):
    return "%d ProcessReport:[INIT][DEFAULT]report task complete: stream_id=%d, task_id=%d, type=%d, status=0" % (
        tid, int(r() * 64), int(r() * 65535), int(r() * 20))


def _t_graph(r, tid):
    return "%d RunGraphAsync:graph_id=%d, session_id=1, node count=%d, run finished in %d us" % (
        tid, int(r() * 200), int(r() * 30000), int(r() * 900000))


def _t_ge_cache(r, tid):
    op = OPS[int(r() * len(OPS))]
    return "%d CompileOp:op %s (type %s) kernel cache hit, key %s" % (
        tid, op.lower() + "_" + str(int(r() * 900)), op, _hex(int(r() * (1 << 60))))


def _t_acl_api(r, tid):
    api = ["aclrtSynchronizeStream", "aclrtMemcpyAsync", "aclrtLaunchCallback", "aclopCompileAndExecute",
           "aclrtRecordEvent", "aclrtStreamWaitEvent"][int(r() * 6)]
    return "%d %s: start to execute %s, stream = 0x%s" % (tid, api, api, _hex(0xaaaa00000000 + int(r() * (1 << 32))))


def _t_acl_mem(r, tid):
    return "%d aclrtMallocAlign32: start to execute aclrtMallocAlign32, size = %d" % (tid, 32 * int(r() * 8388608))


def _t_hccl_entry(r, tid):
    op = ["AllReduce", "AllGather", "ReduceScatter", "Broadcast"][int(r() * 4)]
    return ("[%d]Entry-Hccl%s:tag[%s_%s%%%s_60000_0_1732766162316022], sendBuf[0x%s], recvBuf[0x%s], count[%d], "
            "dataType[%s], op[sum], localRank[%d], streamId[%d], deviceLogicId[%d]") % (
        tid, op, op, HOST_IP, IFNAME, _hex(0x12c000000000 + int(r() * (1 << 34))),
        _hex(0x12c400000000 + int(r() * (1 << 34))), int(r() * 16777216), DTYPES[int(r() * 3)],
        int(r() * 8), int(r() * 64), int(r() * 8))


def _t_hccl_trace(r, tid):
    return "[%d][HCCL_TRACE]HcclAllReduce: tag[AllReduce_%s%%%s_60000_0_1732766162316022] count[%d] dataType[%s] op[sum] algType[ring-ring-NHR] take %d us" % (
        tid, HOST_IP, IFNAME, int(r() * 16777216), DTYPES[int(r() * 3)], int(r() * 50000))


def _t_tbe(r, tid):
    op = OPS[int(r() * len(OPS))]
    return "%d te_fusion: op [%s] compile cache hit, kernel_name te_%s_%s, cost %d ms" % (
        tid, op, op.lower(), _hex(int(r() * (1 << 48))), int(r() * 3000))


def _t_fe(r, tid):
    return "%d [GraphOpt][Fusion]Pass %s matched %d times, effected %d times" % (
        tid, ["MatMulBiasAddFusionPass", "LayerNormFusionPass", "SoftmaxFusionPass", "TransposeReshapeFusionPass"][int(r() * 4)],
        int(r() * 40), int(r() * 20))


def _t_drv(r, tid):
    return "[ascend][curpid: %d, %d][drv][devmm][devmm_alloc_proc_mem %d]alloc mem ok. (size=%d; page_size=2097152)" % (
        PID, tid, 100 + int(r() * 900), 2097152 * (1 + int(r() * 512)))


def _t_aicpu(r, tid):
    return "%d [AICPU_SCHEDULE] TaskProcess: kernel %s finished, stream_id=%d, task_id=%d" % (
        tid, ["GetNext", "Dropout", "RandomUniform", "CumSum"][int(r() * 4)], int(r() * 64), int(r() * 65535))


def _t_prof(r, tid):
    return "%d [Report]report data of device %d, size %d, tag acl_hash_info" % (tid, int(r() * 8), int(r() * 65536))


def _t_warn_ge(r, tid):
    return "%d CheckOption:Option [ge.exec.precision_mode] is not set, use default value [allow_fp32_to_fp16]" % tid


def _t_warn_rt(r, tid):
    return "%d RtLogLevelControl:[INIT][DEFAULT]stream_id=%d task queue is almost full (%d/1024), wait" % (
        tid, int(r() * 64), 900 + int(r() * 124))


def _t_app(r, tid):
    return "%d build/CMakeFiles/torch_npu.dir/compiler_depend.ts:malloc:%d: \"[PTA]:\"Get a block from the existing pool, size %d\"" % (
        tid, 900 + int(r() * 200), 512 * int(r() * 65536))


# level mix per family: mostly INFO, then DEBUG, rare WARNING
_ID = ("INFO", "INFO", "INFO", "DEBUG", "DEBUG")
_W = ("WARNING",)
PLOG = [
    # weight, levels, module, file, text
    (10, _ID, "RUNTIME", "stream.cc", _t_stream),
    (16, _ID, "RUNTIME", "api_impl.cc", _t_kernel),
    (6, _ID, "RUNTIME", "npu_driver.cc", _t_malloc),
    (8, _ID, "RUNTIME", "stream.cc", _t_sync),
    (10, _ID, "RUNTIME", "engine.cc", _t_task),
    (7, _ID, "GE", "graph_manager.cc", _t_graph),
    (6, _ID, "GE", "op_compile_cache.cc", _t_ge_cache),
    (8, _ID, "ASCENDCL", "acl_rt.cpp", _t_acl_api),
    (3, _ID, "ASCENDCL", "memory.cpp", _t_acl_mem),
    (6, _ID, "HCCL", "op_base.cc", _t_hccl_entry),
    (4, _ID, "HCCL", "hccl_communicator.cc", _t_hccl_trace),
    (4, _ID, "TEFUSION", "te_fusion_api.cc", _t_tbe),
    (3, _ID, "FE", "fusion_pass_mgr.cc", _t_fe),
    (2, _ID, "DRV", None, _t_drv),  # relayed driver lines have no [file:line]
    (2, _ID, "AICPU", "aicpu_sched.cc", _t_aicpu),
    (2, _ID, "PROFILING", "prof_acl_mgr.cpp", _t_prof),
    (1, _W, "GE", "ge_api.cc", _t_warn_ge),
    (1, _W, "RUNTIME", "task_scheduler.cc", _t_warn_rt),
    (1, _ID, "APP", "log_inner.cpp", _t_app),
]
_PLOG_TABLE = []
for _w, _lv, _mod, _file, _fn in PLOG:
    _PLOG_TABLE.extend([(_lv, _mod, _file, _fn)] * _w)


class Clock:
    """Simulated wall clock; plog timestamps YYYY-MM-DD-hh:mm:ss.mmm.uuu."""

    def __init__(self):
        self.us = 0
        self._sec = -1
        self._prefix = ""

    def advance(self, us):
        self.us += us

    def plog(self):
        sec, sub = divmod(self.us, 1000000)
        if sec != self._sec:
            self._sec = sec
            self._prefix = (START + datetime.timedelta(seconds=sec)).strftime("%Y-%m-%d-%H:%M:%S")
        return "%s.%03d.%03d" % (self._prefix, sub // 1000, sub % 1000)

    def second(self):
        self.plog()
        return self._prefix

    def ctime(self):
        return (START + datetime.timedelta(seconds=self.us // 1000000)).strftime("%a %b %d %H:%M:%S %Y")


class Gen:
    def __init__(self, seed, error_rate):
        self.rng = random.Random(seed)
        self.r = self.rng.random
        self.clock = Clock()
        self.error_rate = error_rate
        self.step = 0
        self.total_steps = 100000
        self.lines = 0
        self.next_burst = self._gap()
        self.next_init = 0
        self.burst_no = 0

    def _gap(self):
        if self.error_rate <= 0:
            return float("inf")
        return self.lines + 1 + int(self.rng.expovariate(self.error_rate))

    # ---- pieces ------------------------------------------------------------------------
    def plog_line(self):
        r = self.r
        levels, module, fname, fn = _PLOG_TABLE[int(r() * len(_PLOG_TABLE))]
        tid = TIDS[int(r() * len(TIDS))]
        if fname is None:
            return "[%s] %s(%d,%s):%s %s" % (
                levels[int(r() * len(levels))], module, PID, PNAME, self.clock.plog(), fn(r, tid))
        return "[%s] %s(%d,%s):%s [%s:%d]%s" % (
            levels[int(r() * len(levels))], module, PID, PNAME, self.clock.plog(), fname,
            20 + int(r() * 2000), fn(r, tid))

    def loss_line(self):
        r = self.r
        self.step += 1
        return "{'loss': %.4f, 'grad_norm': %.4f, 'learning_rate': %.4e, 'epoch': %.2f}" % (
            1.2 + 2.0 * r() * (1.0 - self.step / self.total_steps), 0.3 + r() * 2, 2e-5 * (1 - self.step / self.total_steps),
            self.step / 5000.0)

    def tqdm_line(self):
        # A progress bar rewritten in place: several \r-separated updates on one physical line.
        r = self.r
        parts = []
        base = self.step % self.total_steps
        for k in range(1 + int(r() * 6)):
            n = base + k
            pct = n * 100 // self.total_steps
            filled = pct // 10
            bar = "\u2588" * filled + " " * (10 - filled)
            el = n // 2
            left = (self.total_steps - n) // 2
            parts.append("%3d%%|%s| %d/%d [%02d:%02d:%02d<%02d:%02d:%02d,  %.2fit/s]" % (
                pct, bar, n, self.total_steps, el // 3600, el // 60 % 60, el % 60,
                left // 3600, left // 60 % 60, left % 60, 1.5 + r()))
        return "\r".join(parts)

    def misc_stdout(self):
        r = self.r
        k = int(r() * 4)
        if k == 0:
            return ("/usr/local/python3.10/lib/python3.10/site-packages/torch_npu/utils/storage.py:38: UserWarning: "
                    "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only storage class.")
        if k == 1:
            return "[W compiler_depend.ts:%d] Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())" % (
                100 + int(r() * 600))
        if k == 2:
            return "[rank%d]: step %d, samples/s %.2f, tokens/s %.1f, mem allocated %.2f GiB, reserved %.2f GiB" % (
                int(r() * 8), self.step, 20 + r() * 10, 40000 + r() * 20000, 30 + r() * 10, 50 + r() * 5)
        return "Saving model checkpoint to /job/output/checkpoint-%d" % (self.step // 500 * 500)

    def hccl_init_block(self):
        """A communicator being created: Entry line, [HCCL_ENV] settings, rank info."""
        c = self.clock
        tid = PID
        rank = int(self.r() * 8)
        out = []

        def h(text, fname="op_base.cc", level="INFO", module="HCCL"):
            c.advance(1 + int(self.r() * 200))
            out.append("[%s] %s(%d,%s):%s [%s:%d][%d]%s" % (level, module, PID, PNAME, c.plog(), fname,
                                                          100 + int(self.r() * 1500), tid, text))

        h("Entry-HcclCommInitRootInfo:ranks[8], rank[%d], rootinfo: host ip[%s] port[60000] nicDeploy[1] identifier[%s%%%s_60000_0_1732811962221603], deviceLogicId[%d]" % (
            rank, HOST_IP, HOST_IP, IFNAME, rank))
        env = [
            "HCCL_CONNECT_TIMEOUT set by default to [120]s",
            "HCCL_EXEC_TIMEOUT set by default to [1836]s",
            "HCCL_SOCKET_IFNAME set by environment to [%s]" % IFNAME,
            "HCCL_IF_BASE_PORT set by default to [60000]",
            "HCCL_RDMA_TC set by default to [132]",
            "HCCL_RDMA_SL set by default to [4]",
            "HCCL_RDMA_TIMEOUT set by default to [20]",
            "HCCL_RDMA_RETRY_CNT set by default to [7]",
            "HCCL_BUFFSIZE set by default to [200]M",
            "HCCL_INTRA_PCIE_ENABLE set by default to [1]",
            "HCCL_INTRA_ROCE_ENABLE set by default to [0]",
            "HCCL_WHITELIST_DISABLE set by environment to [1]",
            "HCCL_DETERMINISTIC set by default to [false]",
        ]
        for e in env:
            h("[HCCL_ENV] " + e, fname="externalinput.cc")
        h("[Vnic]Listen on ip[192.168.10%d.%d] port[16666] success" % (rank, 10 + rank), fname="hccl_network.cc")
        h("rankNum[8], rank[%d], server[%s%%%s], logicDevId[%d], phydevId[%d], deviceIp[192.168.10%d.%d]" % (
            rank, HOST_IP, IFNAME, rank, rank, rank, 10 + rank), fname="hccl_communicator.cc")
        h("HcclCommInitRootInfo success, take time [%d]us, rankNum[8], rank[%d]" % (300000 + int(self.r() * 900000), rank))
        return out

    # ---- error bursts ---------------------------------------------------------------------
    def err_head(self, module, fname, line, tid_style="plain"):
        self.clock.advance(1 + int(self.r() * 300))
        if tid_style == "none":  # DRV lines relayed from the driver carry no [file:line]
            return "[ERROR] %s(%d,%s):%s " % (module, PID, PNAME, self.clock.plog())
        if tid_style == "bracket":
            return "[ERROR] %s(%d,%s):%s [%s:%d][%d]" % (module, PID, PNAME, self.clock.plog(), fname, line, PID)
        return "[ERROR] %s(%d,%s):%s [%s:%d]%d " % (module, PID, PNAME, self.clock.plog(), fname, line, PID)

    def pta_err(self, code, sub, text, device=0, rank=-1):
        return "[ERROR] %s (PID:%d, Device:%d, RankID:%d) %s %s %s" % (
            self.clock.second(), PID, device, rank, code, sub, text)

    def burst_aicore(self):
        c = self.clock
        out = [
            self.err_head("RUNTIME", "device_error_core_proc.cc", 645) +
            "PrintCoreInfo:The error from device(chipId:2, dieId:0), serial number is 124, there is an exception of aivec error, "
            "core id is 14, error code = 0x4000000000000000, dump info: pc start: 0x12c0c0a1c000, current: 0x12c0c0a1c3f0, "
            "vec error info: 0x7a00001b, mte error info: 0x3000000d5, ifu error info: 0x2ddd2f6180000, ccu error info: 0x9d7b0b6000004a, "
            "cube error info: 0, biu error info: 0, aic error mask: 0x6500020bd00028c, para base: 0x12c100400400.",
            self.err_head("RUNTIME", "device_error_core_proc.cc", 702) +
            "PrintCoreInfo:The extend info: errcode:(0x4000000000000000, 0, 0) errorStr: VEC instruction error: the ub address out of bounds. "
            "fixp_error0 info: 0x3000000d5, fixp_error1 info: 0x0, fsmId:0, tslot:0, thread:0, ctxid:0, blk:12, sublk:0, subErrType:4.",
            self.err_head("RUNTIME", "davinci_kernel_task.cc", 1263) +
            "PreCheckTaskErr:Kernel task happen error, retCode=0x31, [vector core exception].",
            self.err_head("RUNTIME", "davinci_kernel_task.cc", 1190) +
            "PrintErrorInfo:[DFX_INFO]AI Core kernel execution failed, device_id=0, stream_id=2, report_stream_id=2, task_id=9341, "
            "flip_num=0, fault kernel_name=te_flashattentionscore_4a3b2c1d_mix_aiv, fault kernel info ext=none, program id=61, hash=13716433384925958553.",
            self.err_head("RUNTIME", "stream.cc", 1107) +
            "GetError:[EXEC][DEFAULT]Stream Synchronize failed, stream_id=2, retCode=0x91, [the model stream execute failed].",
            self.err_head("RUNTIME", "error_message_manage.cc", 53) +
            "FuncErrorReason:[EXEC][DEFAULT]rtStreamSynchronize execute failed, reason=[vector core exception]",
            self.err_head("ASCENDCL", "stream.cpp", 64) +
            "aclrtSynchronizeStream: [EXEC][DEFAULT]synchronize stream failed, runtime result = 507035",
        ]
        c.advance(2000)
        out += [
            "Traceback (most recent call last):",
            '  File "/job/code/train.py", line 412, in <module>',
            "    main()",
            '  File "/job/code/train.py", line 371, in main',
            "    loss.item()",
            "RuntimeError: operator():build/CMakeFiles/torch_npu.dir/compiler_depend.ts:25 NPU function error: "
            "c10_npu::acl::AclrtSynchronizeStreamWithTimeout(copy_stream), error code is 507035",
            self.pta_err("ERR00100", "PTA", "call acl api failed", device=1),
            "[Error]: The vector core execution is abnormal. ",
            "Rectify the fault based on the error information in the ascend log.",
            "EZ9999: Inner Error!",
            "EZ9999: [PID: %d] %s The error from device(chipId:2, dieId:0), serial number is 124, there is an exception of aivec error, "
            "core id is 14, error code = 0x4000000000000000, dump info: pc start: 0x12c0c0a1c000, current: 0x12c0c0a1c3f0.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:645]" % (
                PID, c.plog()),
            "        TraceBack (most recent call last):",
            "       The extend info: errcode:(0x4000000000000000, 0, 0) errorStr: VEC instruction error: the ub address out of bounds.[FUNC:PrintCoreInfo][FILE:device_error_core_proc.cc][LINE:702]",
            "       Kernel task happen error, retCode=0x31, [vector core exception].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1263]",
            "       AIV Kernel happen error, retCode=0x31.[FUNC:GetError][FILE:stream.cc][LINE:1107]",
            "       rtStreamSynchronize execute failed, reason=[vector core exception][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
            "       synchronize stream failed, runtime result = 507035[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]",
            "",
        ]
        return out

    def burst_hccl(self):
        c = self.clock
        tag = "AllReduce_%s%%%s_60000_0_1732766162316022" % (HOST_IP, IFNAME)
        out = [
            self.err_head("HCCL", "task_exception_handler.cc", 1041, "bracket") +
            "[TaskExceptionHandler][Callback]Task run failed, base information is streamID:[2282987520], taskID[5], "
            "taskType[Notify Wait], tag[%s], AlgType(level 0-1-2):[fullmesh-ring-ring]." % tag,
            self.err_head("HCCL", "task_exception_handler.cc", 1079, "bracket") +
            "[TaskExceptionHandler][Callback]Task run failed, para information is notify id:[0x00000000000018fc], stage:[0], remote rank:[3].",
            self.err_head("HCCL", "task_exception_handler.cc", 1102, "bracket") +
            "[TaskExceptionHandler][Callback]Task run failed, groupRank information is group:[hccl_world_group], user define information[], rankSize[8], rankId[0].",
            self.err_head("HCCL", "heartbeat.cc", 1533, "bracket") +
            "Cluster Exception Location[IP/ID]:[%s/3], Arrival Time:[%s], Discoverer:[%s/0], ExceptionType:[Heartbeat Lost Occurred], "
            "Possible Reason:1. Process has exited, 2. Network Disconnected" % (HOST_IP, c.ctime(), HOST_IP),
            self.err_head("RUNTIME", "stream.cc", 1107) +
            "GetError:[EXEC][DEFAULT]Stream Synchronize failed, stream_id=2, retCode=0x32, [notify wait timeout].",
        ]
        c.advance(5000)
        out += [
            "[W compiler_depend.ts:487] Warning: NPU warning, error code is 507048[Error]: ",
            "[Error]: The execution of the internal task times out. ",
            "Rectify the fault based on the error information in the ascend log.",
            "EI0002: [PID: %d] %s The wait execution of the Notify register times out. Reason: The Notify register has not received "
            "the Notify record from remote rank [3].base information: [streamID:[2282987520], taskID[5], tag[%s], "
            "AlgType(level 0-1-2):[fullmesh-ring-ring].] task information: [] there are(is) 1 abnormal device(s):" % (PID, c.plog(), tag),
            "        Cluster Exception Location[IP/ID]:[%s/3], Arrival Time:[%s], Discoverer:[%s/0], ExceptionType:[Heartbeat Lost Occurred], "
            "Possible Reason:1. Process has exited, 2. Network Disconnected" % (HOST_IP, c.ctime(), HOST_IP),
            "        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster. As a result, collective "
            "communication operation failed.2. The execution speed on some NPU in the cluster is too slow to complete a communication "
            "operation within the timeout interval. (default 1800s, You can set the interval by using HCCL_EXEC_TIMEOUT.)",
            "        Solution: 1. Check the exception information on the NPUs in the cluster. 2. If the fault persists, contact Huawei technical support.",
            "        TraceBack (most recent call last):",
            "        Notify wait execute failed, device_id=0, stream_id=2, task_id=5, flip_num=0, notify_id=12[FUNC:GetError][FILE:stream.cc][LINE:1107]",
            "[Rank 0] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=41833, OpType=ALLREDUCE, NumelIn=16777216, "
            "NumelOut=16777216, Timeout(ms)=1800000) ran for 1800437 milliseconds before timing out.",
            "Some HCCL operations have failed or timed out. Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations "
            "might run on corrupted/incomplete data.",
            "To avoid data inconsistency, we are taking the entire process down.",
            "RuntimeError: HCCL function error: hcclAllReduce(inputTensor, outputTensor, numel, dtype, op, comm, stream), error code is 9",
            self.pta_err("ERR02200", "DIST", "call hccl api failed."),
            "",
        ]
        return out

    def burst_oom(self):
        c = self.clock
        size = 274880004096
        out = [
            self.err_head("DRV", "", 0, "none") +
            "[ascend][curpid: %d, %d][drv][devmm][devmm_ioctl_enable_heap 562]<errno:22, 8> Ioctl device error. (ret=8)" % (PID, PID),
            self.err_head("DRV", "", 0, "none") +
            "[ascend][curpid: %d, %d][drv][devmm][devmm_virt_set_alloced_mem_struct 129]<errno:22, 8> Devmm update heap failed. "
            "(alloc_ptr=0x12c180000000; alloc_size=%d)" % (PID, PID, size),
            self.err_head("RUNTIME", "npu_driver.cc", 1196) +
            "DevMemAllocManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=%d(Byte), type=0, moduleId=33, "
            "drvFlag=2377900603261076480, drvRetCode=6, device_id=0!" % size,
            self.err_head("RUNTIME", "api_c_memory.cc", 28) +
            "rtMalloc:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016",
            self.err_head("RUNTIME", "error_message_manage.cc", 53) +
            "FuncErrorReason:[INIT][DEFAULT]rtMalloc execute failed, reason=[driver error:out of memory]",
            self.err_head("ASCENDCL", "memory.cpp", 129) +
            "aclMallocMemInner: [INIT][DEFAULT]alloc device memory failed, runtime result = 207001",
            self.err_head("APP", "log_inner.cpp", 76) +
            "build/CMakeFiles/torch_npu.dir/compiler_depend.ts:malloc:1001: \"[PTA]:\"Get a block from the existing pool failed. "
            "Try to free cached blocks and reallocate. This error log \"can be ignored.\"\"",
        ]
        c.advance(3000)
        out += [
            "Traceback (most recent call last):",
            '  File "/job/code/train.py", line 398, in <module>',
            "    outputs = model(**batch)",
            '  File "/usr/local/python3.10/lib/python3.10/site-packages/torch/nn/modules/module.py", line 1518, in _wrapped_call_impl',
            "    return self._call_impl(*args, **kwargs)",
            "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 57.12 GiB already allocated; "
            "57.12 GiB current active; 1.02 GiB free; 58.80 GiB reserved in total by PyTorch) If reserved memory is >> allocated "
            "memory try setting max_split_size_mb to avoid fragmentation.",
            self.pta_err("ERR00006", "PTA", "memory error"),
            "",
        ]
        return out

    def burst_sync(self):
        c = self.clock
        out = [
            self.err_head("RUNTIME", "stream.cc", 1121) +
            "StreamSynchronize:[EXEC][DEFAULT]Stream synchronize timeout, stream_id=4, timeout=1800000ms",
            self.err_head("RUNTIME", "error_message_manage.cc", 53) +
            "FuncErrorReason:[EXEC][DEFAULT]rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout]",
        ]
        c.advance(1500)
        out += [
            "EH9999: Inner Error!",
            "rtStreamSynchronizeWithTimeout execute failed, reason=[fftsplus timeout][FUNC:FuncErrorReason][FILE:error_message_manage.cc][LINE:53]",
            "EH9999: [PID: %d] %s synchronize stream failed, runtime result = 507048[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]" % (
                PID, c.plog()),
            "        TraceBack (most recent call last):",
            "Traceback (most recent call last):",
            '  File "/job/code/train.py", line 380, in train_step',
            "    torch.npu.synchronize()",
            "RuntimeError: ACL stream synchronize failed, error code:507035",
            self.pta_err("ERR00100", "PTA", "call acl api failed"),
            "",
        ]
        return out

    BURSTS = ("burst_aicore", "burst_hccl", "burst_oom", "burst_sync")

    def burst(self):
        kind = self.BURSTS[self.burst_no % len(self.BURSTS)]
        self.burst_no += 1
        return getattr(self, kind)()

    # ---- driver ---------------------------------------------------------------------------
    def chunk(self, nlines):
        """About nlines lines (as strings without newline)."""
        r = self.r
        clock = self.clock
        plog_line = self.plog_line
        out = []
        append = out.append
        end = self.lines + nlines
        while self.lines < end:
            if self.lines >= self.next_init:
                block = self.hccl_init_block()
                out.extend(block)
                self.lines += len(block)
                self.next_init = self.lines + 150000 + int(r() * 100000)
                continue
            if self.lines >= self.next_burst:
                block = self.burst()
                out.extend(block)
                self.lines += len(block)
                self.next_burst = self._gap()
                continue
            clock.advance(1 + int(r() * 400))
            x = r()
            if x < 0.90:
                append(plog_line())
            elif x < 0.965:
                append(self.loss_line())
            elif x < 0.99:
                append(self.tqdm_line())
            else:
                append(self.misc_stdout())
            self.lines += 1
        return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("size_mb", type=float, help="size in MiB")
    ap.add_argument("out", help="output file, - for stdout")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--error-rate", type=float, default=5e-6,
                    help="probability that a line starts an error burst (default 5e-6 = 1 per 200k lines)")
    a = ap.parse_args(argv)
    if a.size_mb < 0 or not (0 <= a.error_rate <= 1):
        ap.error("SIZE_MB must be >= 0 and --error-rate in [0, 1]")
    target = int(a.size_mb * 1024 * 1024)
    g = Gen(a.seed, a.error_rate)
    f = sys.stdout.buffer if a.out == "-" else open(a.out, "wb")
    written = 0
    try:
        while written < target:
            data = ("\n".join(g.chunk(2000)) + "\n").encode("utf-8")
            if written + len(data) > target:
                # Stop at the first line end at or past the target.
                cut = data.find(b"\n", target - written - 1 if target > written else 0)
                data = data[:cut + 1]
            f.write(data)
            written += len(data)
    finally:
        if f is not sys.stdout.buffer:
            f.close()
        else:
            f.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
