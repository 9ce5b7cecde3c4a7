#!/usr/bin/env python3
"""MindSpeed's ERROR-level messages -> kb/messages/mindspeed.yaml.

Ascend/MindSpeed (the acceleration library under MindSpeed-LLM / -MM: Megatron patches,
feature managers and argument checks, parallelism, fused operators and their builders):
raises, asserts with a message, logger.error / critical calls of the package mindspeed/.
MindSpeed's loggers print '[ERROR] <logger>: message'.

usage: extract_mindspeed.py [MIRROR]   (default /work/.mirror/Ascend+MindSpeed/repo)
"""
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Rule
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+MindSpeed/repo"


def log_line(message, path, line, level="ERROR"):
    return f"[{level}] {path[:-3].replace('/', '.')}: {message}"


RULES = [
    # Building the fused operators needs the CANN toolkit and a matching torch_npu.
    Rule("install_version_mismatch", path=r"op_builder/",
         words=r"ascend_home|cann|toolkit|install|version|not found|cannot find|can not find|load|import|build|compile|path",
         why="building a MindSpeed operator needs the CANN toolkit / torch_npu it was made for"),
    Rule("install_version_mismatch", words=r"megatron(?:-core)? version|torch_npu version|transformer_engine|apex",
         why="the Megatron / torch_npu / apex version does not fit this MindSpeed"),
    # Training arguments: parallel sizes and their products.
    Rule("rank_config", words=r"--[\w-]*(?:parallel|world|rank|expert-model)|[\w-]*parallel[_-]size|world[_ ]size|\bcp\b|\bep\b|\bvpp\b"
         r"|micro[_ ]batch|global[_ ]batch|num[_ ]layers .{0,40}(?:divisible|pipeline)",
         why="the training arguments' parallel sizes do not fit together"),
]

MODULE_RULES = [
    # Fused operators (ops/): shape and dtype checks of their inputs.
    Rule("compile_shape", path=r"^mindspeed/ops/", words=r"shape|dim|size|length|len\b|head|seq",
         why="a fused operator's input shapes do not fit"),
    Rule("compile_op_unsupported", path=r"^mindspeed/ops/", why="a fused operator rejected its inputs"),
]


def main():
    commit = L.head_commit(MIRROR)
    paths = [p for p in L.list_files(MIRROR, commit, suffixes=(".py",)) if p.startswith("mindspeed/") and not is_test_path(p)]
    records = python_records(MIRROR, commit, paths, log_line)
    comp = F.Component(
        family="src-mindspeed", name="MindSpeed", label="MindSpeed", repo_name="Ascend/MindSpeed", mirror=MIRROR,
        commit=commit, out="kb/messages/mindspeed.yaml",
        description="ERROR-level messages of MindSpeed (Ascend/MindSpeed, package mindspeed/): exceptions raised to the user "
                    "(raise, assert with a message) and logger.error / critical calls.",
        layer="framework", default_category="other", overrides="scripts/catalog/overrides/mindspeed.yaml")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
