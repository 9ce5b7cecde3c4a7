#!/usr/bin/env python3
"""vLLM's start-up and platform messages -> kb/messages/vllm.yaml.

vLLM itself (vllm-project/vllm) is too large to fetch here; its history is in forks that
merge upstream. This reads upstream commit UPSTREAM (a merge parent of upstream/main in the
fork RhizoNymph/vllm, so the commit and its files are vllm-project/vllm's own) and only the
code that runs on Ascend too: the platform interface, the engine and executors, the workers,
the configuration checks, distributed start-up, the model loader, KV-cache sizing and the
utilities they call. The CUDA/ROCm/XPU/TPU platform files and the vendor KV connectors (NIXL,
MoRI-IO, LMCache, HF3FS, vLLM's Mooncake) are left out: their messages never reach an NPU log.

usage: extract_vllm.py [MIRROR [COMMIT]]
"""
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_python import is_test_path, python_records, vllm_log_line

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/RhizoNymph+vllm/repo"
UPSTREAM = sys.argv[2] if len(sys.argv) > 2 else "0231dd5467c61dca76f66269b6298a43772b3519"

SCOPE = re.compile(r"""^vllm/(?:
    platforms/(?:__init__|interface)\.py
  | config/ | engine/ | v1/engine/ | v1/executor/ | v1/worker/ | executor/ | worker/
  | v1/core/kv_cache_(?:utils|manager)\.py
  | distributed/
  | model_executor/model_loader/
  | model_executor/layers/quantization/(?:__init__|base_config)\.py
  | transformers_utils/config\.py
  | utils/(?:__init__|argparse_utils|import_utils|mem_utils|mem_constants|network_utils|system_utils|torch_utils|platform_utils)\.py
)""", re.X)
OUT_OF_SCOPE = re.compile(r"kv_connector/v1/(?:nixl|moriio|lmcache\w*|hf3fs|mooncake)/|v1/worker/(?:cpu|tpu|xpu)|/tpu_|/xpu_|/cpu_")

RULES = [
    # Start-up envelopes: the engine, the executor or a worker only says that something
    # below failed and points at the error printed before it.
    Rule("other", role="wrapper",
         words=r"see (?:the )?(?:root cause|stack trace)|failed to start\W*$|hit an exception|initialization failed due to an exception"
         r"|please check the stack trace|failed with error|output_handler failed|encountered a fatal error",
         why="an engine / worker envelope that points at the error above it"),
    # A worker process died: the consequence of its own error (the curated entry says so too).
    Rule("other", role="symptom", words=r"died unexpectedly|proc(?:ess)? .{0,30}(?:died|exited|terminated)",
         why="a worker died: the consequence of its first error"),
    # The model's architecture / config is newer than the installed transformers.
    Rule("install_version_mismatch", words=r"transformers does not recognize|upgrade (?:your )?transformers|transformers version|install transformers",
         why="the installed transformers does not know this model"),
    # World size and devices of the node: what the user fixes is the parallel layout.
    Rule("rank_config", words=r"world size .{0,40}(?:larger|greater|more) than the number of available|number of available (?:gpus|devices)",
         why="more ranks than devices on the node"),
    # Which devices this process may use: the visible-devices variable against the ranks.
    Rule("rank_config", words=r"not visible in|visible device|devices? visible|assigned_physical_gpu_ids",
         why="a rank's device is not among the visible devices"),
    # The front end / the engine core do not hear from each other.
    Rule("communication", words=r"did not receive response|front-end process|handshake|zmq",
         why="vLLM's processes stopped talking to each other"),
    # Model weights and files that cannot be found or read.
    Rule("other", words=r"cannot find any (?:model )?weights|no (?:model )?weights? (?:found|files)|weights? .{0,30}not found",
         why="the model directory has no weights the loader knows"),
]

MODULE_RULES = [
    # The process groups, shared-memory broadcast and KV transfer: between processes.
    Rule("communication", path=r"^vllm/distributed/",
         words=r"fail|timed? ?out|timeout|\bconnect(?:ion|ed)?\b|\bsend\b|\brecv\b|receiv|handshake|socket|network|unreachable"
         r"|\bpeer\b|barrier",
         why="communication between vLLM's processes or nodes failed"),
]


def main():
    paths = [p for p in L.list_files(MIRROR, UPSTREAM, suffixes=(".py",))
             if SCOPE.match(p) and not OUT_OF_SCOPE.search(p) and not is_test_path(p)]
    records = python_records(MIRROR, UPSTREAM, paths, vllm_log_line)
    comp = F.Component(
        family="src-vllm", name="vLLM", label="vLLM", repo_name="vllm-project/vllm",
        mirror=MIRROR, commit=UPSTREAM, out="kb/messages/vllm.yaml",
        description="ERROR-level messages of vLLM's platform and start-up code (vllm-project/vllm: platform interface, "
                    "engine and executors, workers, configuration checks, distributed start-up, model loader, KV-cache sizing): "
                    "exceptions raised to the user (raise, assert with a message) and logger.error / exception / critical calls. "
                    "CUDA/ROCm/XPU/TPU-only platform files and vendor KV connectors are not read.",
        layer="framework", default_category="other", overrides="scripts/catalog/overrides/vllm.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
