#!/usr/bin/env python3
"""vLLM-Ascend's ERROR-level messages -> kb/messages/vllm_ascend.yaml.

Reads the vllm-project/vllm-ascend snapshot (`fetch` github:vllm-project/vllm-ascend), the
Python package vllm_ascend/: raises, asserts with a message, logger.error / exception /
critical calls. Categories: the rules below (vLLM-Ascend's own modules and words), then the
shared word rules (fw_common.GENERAL_RULES); hand-written texts and decisions per entry id in
overrides/vllm_ascend.yaml.

Also writes kb/messages/vllm_ascend_v0_11.yaml, _v0_9.yaml, _v0_7.yaml: the formats of those
releases that the newest code no longer has (LEGACY below).

usage: extract_vllm_ascend.py [MIRROR]   (default /work/.mirror/vllm-project+vllm-ascend/repo)
"""
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_python import is_test_path, python_records, vllm_log_line

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/vllm-project+vllm-ascend/repo"

RULES = [
    # Start-up wrappers: the engine / worker only reports that something below failed.
    Rule("other", role="wrapper", words=r"see (?:the )?(?:root cause|stack trace|error) above|failed to start\W*$|encountered a fatal error",
         why="a start-up wrapper that points at the error above it"),
    # Device health / queries through npu-smi and the driver.
    Rule("driver_firmware_env", words=r"health status|card health|npu-smi|npu card|query npu|\bdcmi\b|\bdsmi\b|driver|firmware",
         why="the NPU's health or a driver query failed"),
    # Device visibility: no NPU found, a local rank beyond the visible devices.
    Rule("permission_device", words=r"no npu devices? found|devices? (?:found )?or specified in ascend_rt_visible_devices",
         why="no NPU is visible to the process"),
    Rule("rank_config", words=r"out of bounds for the available npu devices|local_rank .{0,20}out of",
         why="a rank's device index is beyond the visible NPUs"),
    # The chip (SoC) or the CANN ops package cannot do it.
    Rule("compile_op_unsupported", words=r"soc_version|soc version|\b310p\b|\ba[235]\b|ascend ?910|ascend ?310|device type",
         why="the SoC does not support the feature"),
    # Versions of vllm / torch / CANN the plugin checks.
    Rule("install_version_mismatch", words=r"vllm version|torch_npu version|cann version|dev version of vllm|custom ops? (?:is |are )?not|_c_ascend|custom op library",
         why="the installed vllm / torch_npu / CANN / custom-op build does not match"),
    # Configuration checks of the plugin (ascend_config, additional_config): the user fixes
    # the option, which none of the 12 categories names more precisely.
    Rule("other", path=r"ascend_config\.py$", words=r"must be (?:a |an )?(?:dict|bool|int|integer|float|number|string|positive|non-negative|>=|>|in |one of)|unknown \w+ keys|has been removed|only one of",
         why="an option of additional_config has a wrong type or value"),
]

# After the strong shared words (memory, install, permission, not supported): what a module
# is about when its message has no stronger word.
MODULE_RULES = [
    # The KV-transfer connectors (Mooncake, MemFabric, memcache, yuanrong, kv pool) and the
    # network weight loaders: transfer between instances over the network.
    Rule("communication", path=r"kv_transfer/|connector|llmdatadist|mooncake|memfabric|netloader|rfork",
         words=r"fail|timed? ?out|timeout|\bconnect(?:ion|ed)?\b|\bsend\b|\brecv\b|receiv|handshake|\back\b|socket|metaserver"
         r"|network|unreachable|\bpeer\b|\blink\b|crash",
         why="a KV-cache / weight transfer between instances failed"),
]


# Releases still in wide use whose messages the newest code no longer has: each gets its own
# file with only those formats (pinned to the release's commit), newest first, so a log from
# an older vllm-ascend is still recognised.
LEGACY = [("v0.11.0", "v0_11"), ("v0.9.1", "v0_9"), ("v0.7.3", "v0_7")]


def records_at(rev):
    paths = [p for p in L.list_files(MIRROR, rev, suffixes=(".py",)) if p.startswith("vllm_ascend/") and not is_test_path(p)]
    return python_records(MIRROR, rev, paths, vllm_log_line)


def main():
    commit = L.head_commit(MIRROR)
    records = records_at(commit)
    seen = {r.fmt for r in records}
    for tag, suffix in LEGACY:
        rev = L.head_commit(MIRROR, tag + "^{commit}")
        old = [r for r in records_at(rev) if r.fmt not in seen]
        seen |= {r.fmt for r in old}
        F.build(F.Component(
            family=f"src-vllm-ascend-{suffix.replace('_', '-')}", name=f"vLLM-Ascend {tag} (formats removed since)",
            label="vLLM-Ascend", repo_name="vllm-project/vllm-ascend", mirror=MIRROR, commit=rev,
            out=f"kb/messages/vllm_ascend_{suffix}.yaml",
            description=f"ERROR-level messages of vLLM-Ascend {tag} (vllm-project/vllm-ascend, vllm_ascend/) that the newest "
                        "code and the newer releases read here no longer print, so that logs of this release are still "
                        "recognised: raises, asserts with a message, logger.error / exception / critical calls.",
            layer="framework", default_category="other", overrides="scripts/catalog/overrides/vllm_ascend.yaml"),
            old, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)
    comp = F.Component(
        family="src-vllm-ascend", name="vLLM-Ascend", label="vLLM-Ascend", repo_name="vllm-project/vllm-ascend",
        mirror=MIRROR, commit=commit, out="kb/messages/vllm_ascend.yaml",
        description="ERROR-level messages of vLLM-Ascend (vllm-project/vllm-ascend, the Python package vllm_ascend/): "
                    "exceptions raised to the user (raise, assert with a message) and logger.error / exception / critical calls.",
        layer="framework", default_category="other", overrides="scripts/catalog/overrides/vllm_ascend.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
