#!/usr/bin/env python3
"""Synthetic logs of a multi-node Ascend job with one injected fault.

    gen_cluster.py OUTDIR --ranks N --fault KIND [--seed S] [--ranks-per-node 8]
                   [--skew-ms 2000] [--steps 120]

Writes OUTDIR/node-<k>/rank_<r>/train.log (torch_npu console output) and
OUTDIR/node-<k>/rank_<r>/plog/plog-<pid>_<ts>.log (CANN plog) for every rank, and
OUTDIR/truth.json with the culprit rank. KIND is one of:

  oom       the culprit runs out of device memory; the others time out waiting for it
  aicore    an AI Core (vector core) exception on the culprit; the others time out
  link      the culprit's RoCE link fails (error CQE); the others time out
  killed    the culprit is killed silently (its log just stops); the others time out,
            most of them naming it as the remote rank they waited for
  rankcfg   the culprit has a broken rank table entry at start-up; the others time out
            creating the communicator
  none      a healthy run: no culprit

--named-peer sets the share of waiting ranks whose timeout names the culprit (0.7; 0 makes
every timeout say "remote rank [unknown]", so a killed rank is found by its silence).
Every rank also logs benign noise: the allocator's "can be ignored" ERROR line and a CPU
fallback warning.

Every node's clock is off by up to --skew-ms. Python 3 standard library only;
deterministic for a given seed.
"""
import argparse
import datetime
import json
import os
import random

KINDS = ["oom", "aicore", "link", "killed", "rankcfg", "none"]
T0 = datetime.datetime(2025, 3, 2, 10, 0, 0)
EXEC_TIMEOUT = 1836   # HCCL_EXEC_TIMEOUT default (s)
CONNECT_TIMEOUT = 120  # HCCL_CONNECT_TIMEOUT default (s)


def plog_ts(t):
    return t.strftime("%Y-%m-%d-%H:%M:%S.") + "%03d.%03d" % (t.microsecond // 1000, t.microsecond % 1000)


def pta_ts(t):
    return t.strftime("%Y-%m-%d-%H:%M:%S")


def py_ts(t):
    return t.strftime("%Y-%m-%d %H:%M:%S,") + "%03d" % (t.microsecond // 1000)


class Rank:
    def __init__(self, rank, node, offset_ms, rng, world):
        self.rank, self.node, self.rng, self.world = rank, node, rng, world
        self.offset = datetime.timedelta(milliseconds=offset_ms)
        self.pid = 20000 + rank
        self.device = rank % 8
        self.train, self.plog = [], []

    def at(self, seconds):
        jitter = self.rng.randrange(0, 300)
        return T0 + datetime.timedelta(seconds=seconds, milliseconds=jitter) + self.offset

    def plog_line(self, seconds, level, module, text):
        self.plog.append("[%s] %s(%d,python):%s [%s]%d %s" % (
            level, module, self.pid, plog_ts(self.at(seconds)), "src.cc:%d" % self.rng.randrange(1, 900), self.pid, text))

    def start(self):
        self.train.append("[%s] torch.distributed.run: [WARNING] Setting OMP_NUM_THREADS environment variable for each process to be 1 in default." % py_ts(self.at(0)))
        self.plog_line(2, "INFO", "HCCL", "[HCCL_ENV] HCCL_CONNECT_TIMEOUT set by default to [%d]s" % CONNECT_TIMEOUT)
        self.plog_line(2, "INFO", "HCCL", "[HCCL_ENV] HCCL_EXEC_TIMEOUT set by default to [%d]s" % EXEC_TIMEOUT)
        self.plog_line(3, "INFO", "HCCL", "Entry-HcclCommInitRootInfo: rankNum[%d], rank[%d], rootInfo identifier[10.0.0.1%%eth0_60000_0_1740880000000000]" % (self.world, self.rank))

    def steps(self, first, last):
        for s in range(first, last):
            if s % 10 == 0:
                self.train.append("[%s] INFO step %d {'loss': %.4f, 'grad_norm': %.3f, 'learning_rate': 2e-05}" % (
                    py_ts(self.at(10 + s)), s, 2.5 - s / 100.0 + self.rng.random() * 0.1, 1.0 + self.rng.random()))
            if s % 7 == 0:
                self.plog_line(10 + s, "INFO", "RUNTIME", "Launch kernel MatMul on stream %d task %d" % (s % 4, s * 13))
            # Benign noise every real log has: an ERROR-level allocator retry, a CPU fallback warning.
            if s % 37 == 5:
                self.plog_line(10 + s, "ERROR", "APP", 'build/CMakeFiles/torch_npu.dir/compiler_depend.ts:malloc:1001: "[PTA]:"Get a block from the existing pool failed. Try to free cached blocks and reallocate. This error log "can be ignored.""')
            if s == 3:
                self.train.append("[W VariableFallbackKernel.cpp:51] Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported on the NPU backend and will fall back to run on the CPU. This may have performance implications. (function npu_cpu_fallback)")

    def timeout(self, seconds, peer):
        remote = "[%d]" % peer if peer is not None else "[unknown]"
        self.train.append("EI0002: [PID: %d] %s The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank %s.base information: [streamID:[2], taskID[5], tag[AllReduce_10.0.0.1%%eth0_60000_0_1740880000000000]]" % (
            self.pid, plog_ts(self.at(seconds)), remote))
        self.train.append("[rank%d]:[E%s compiler_depend.ts:1675] [Rank %d] Watchdog caught collective operation timeout: WorkHCCL(SeqNum=2517, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800046 milliseconds before timing out." % (
            self.rank, self.at(seconds + 1).strftime("%m%d %H:%M:%S.000000000"), self.rank))
        self.train.append("[ERROR] %s (PID:%d, Device:%d, RankID:%d) ERR02200 DIST call hccl api failed." % (
            pta_ts(self.at(seconds + 1)), self.pid, self.device, self.rank))

    def socket_timeout(self, seconds):
        self.train.append("EI0006: [PID: %d] %s Getting socket times out. Reason: Remote Rank did not send the data in time. Please check the reason for the rank being stuck" % (
            self.pid, plog_ts(self.at(seconds))))
        self.plog_line(seconds, "ERROR", "HCCL", "[Get][Connection]topo exchange agent get socket timeout! timeout[%d s]" % CONNECT_TIMEOUT)


def inject(kind, culprit, r, fault_s):
    """Lines the culprit writes at the fault."""
    if kind == "oom":
        r.train.append("[ERROR] %s (PID:%d, Device:%d, RankID:%d) ERR00006 PTA memory error" % (pta_ts(r.at(fault_s)), r.pid, r.device, r.rank))
        r.train.append("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU %d; 60.97 GiB total capacity; 57.12 GiB already allocated; 57.12 GiB current active; 1.02 GiB free; 58.80 GiB reserved in total by PyTorch)" % r.device)
        r.plog_line(fault_s, "ERROR", "RUNTIME", "rtMalloc:[INIT][DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016")
    elif kind == "aicore":
        r.plog_line(fault_s, "ERROR", "RUNTIME", "ProcessCoreErrors:The error from device(chipId:%d, dieId:0), serial number is 7, there is an exception of aivec error, core id is 14, error code = 0x4000000000000000" % r.device)
        r.plog_line(fault_s, "ERROR", "RUNTIME", "PreCheckTaskErr:Kernel task happen error, retCode=0x31, [vector core exception].")
        r.train.append("RuntimeError: npuSynchronizeDevice:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:479 NPU function error: AclrtSynchronizeDeviceWithTimeout, error code is 507035")
        r.train.append("[ERROR] %s (PID:%d, Device:%d, RankID:%d) ERR00100 PTA call acl api failed" % (pta_ts(r.at(fault_s)), r.pid, r.device, r.rank))
    elif kind == "link":
        r.plog_line(fault_s, "ERROR", "HCCP", "cqe err status[12], ip:[10.20.0.%d], remoteIP:[10.20.0.%d]" % (r.rank, r.rank ^ 1))
        r.train.append("[PID: %d] %s Execution_Error_ROCE_CQE(EI0013): An error CQE occurred during operator execution. Local information: server 10.0.0.%d, device ID %d, device IP 10.20.0.%d. Peer information: server 10.0.0.%d, device ID %d, device IP 10.20.0.%d." % (
            r.pid, plog_ts(r.at(fault_s)), r.node, r.device, r.rank, r.node, (r.device ^ 1), r.rank ^ 1))
    elif kind == "rankcfg":
        r.train.append("EI0004: [PID: %d] %s The ranktable or rank is invalid,Reason:[The rank id %d is out of range]. Please check the configured ranktable." % (
            r.pid, plog_ts(r.at(4)), r.world + r.rank))


def generate(outdir, ranks, kind, seed, ranks_per_node=8, skew_ms=2000, steps=120, named_peer=0.7):
    rng = random.Random(seed)
    nodes = (ranks + ranks_per_node - 1) // ranks_per_node
    offsets = [rng.randrange(-skew_ms, skew_ms + 1) for _ in range(nodes)]
    culprit = None if kind == "none" else rng.randrange(ranks)
    fault_step = rng.randrange(steps // 3, steps)
    fault_s = 10 + fault_step
    for rank in range(ranks):
        node = rank // ranks_per_node
        r = Rank(rank, node, offsets[node], random.Random(seed * 100003 + rank), ranks)
        r.start()
        if kind == "rankcfg":
            if rank == culprit:
                inject(kind, culprit, r, fault_s)
            else:
                r.socket_timeout(3 + CONNECT_TIMEOUT)
        elif kind == "none":
            r.steps(0, steps)
        else:
            r.steps(0, fault_step)
            if rank == culprit:
                if kind != "killed":
                    inject(kind, culprit, r, fault_s)
            else:
                # Most ranks name the peer they waited for; some only say [unknown].
                peer = culprit if r.rng.random() < named_peer else None
                if kind == "link" and rank == (culprit ^ 1):
                    inject("link", culprit, r, fault_s + 1)  # the far end of the link sees it too, a moment later
                r.timeout(fault_s + EXEC_TIMEOUT + r.rng.randrange(0, 30), peer)
        base = os.path.join(outdir, "node-%d" % node, "rank_%d" % rank)
        os.makedirs(os.path.join(base, "plog"), exist_ok=True)
        with open(os.path.join(base, "train.log"), "w") as f:
            f.write("\n".join(r.train) + "\n")
        with open(os.path.join(base, "plog", "plog-%d_20250302100000000.log" % r.pid), "w") as f:
            f.write("\n".join(r.plog) + "\n")
    with open(os.path.join(outdir, "truth.json"), "w") as f:
        json.dump({"culprit": culprit, "fault": kind, "ranks": ranks, "seed": seed}, f)
    return culprit


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--ranks", type=int, default=16)
    ap.add_argument("--fault", choices=KINDS, default="oom")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ranks-per-node", type=int, default=8)
    ap.add_argument("--skew-ms", type=int, default=2000)
    ap.add_argument("--steps", type=int, default=120)
    ap.add_argument("--named-peer", type=float, default=0.7,
                    help="share of waiting ranks whose timeout names the culprit (0: all say [unknown])")
    a = ap.parse_args()
    culprit = generate(a.outdir, a.ranks, a.fault, a.seed, a.ranks_per_node, a.skew_ms, a.steps, a.named_peer)
    print(json.dumps({"culprit": culprit}))


if __name__ == "__main__":
    main()
