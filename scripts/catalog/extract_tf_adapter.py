#!/usr/bin/env python3
"""The TensorFlow adapter's ERROR-level messages -> kb/messages/tf_adapter.yaml.

hicann/tensorflow (TF Adapter: TensorFlow 1.15 on the NPU through GE, tf_adapter/, and the
TensorFlow 2.x NPU device, tf_adapter_2.x/):
- C++ ADP_LOG(ERROR) / ADP_LOG(FATAL) << ... (tf_adapter/common/adapter_logger.h): the stream
  goes to DlogSub(FMK, "TF_ADAPTER", ...), which prints into the plog
  '[ERROR] FMK(pid,python):time [adapter_logger.cc:25][TF_ADAPTER] [file.cc:line]tid message'
  (ADP_LOG(FATAL) at error level too).
- C++ LOG(ERROR) / LOG(FATAL) << ...: TensorFlow's own logging,
  'time: E tf_adapter/kernels/geop_npu.cc:123] message'. The scanner does not read that level
  marker, so such an entry stays `level: any` and is kept only when a gate word covers it.
- tensorflow::errors::Internal / InvalidArgument / ... (StrCat-style arguments: literals
  joined, other operands as %s), returned through OP_REQUIRES / NPU_REQUIRES and raised in
  Python as tensorflow.python.framework.errors_impl.<Code>Error.
- Python (tf_adapter/python/npu_bridge/, tf_adapter_2.x/python/npu_device/, the compat_v1
  upgrade tool): raises, asserts with a message, logging.error calls. tf_logging prints
  'ERROR:tensorflow:message', absl.logging 'E0302 10:55:12.313101 12345 file.py:123] message'.
A message's first line only (what a log line shows).

usage: extract_tf_adapter.py [MIRROR]   (default /work/.mirror/hicann+tensorflow/repo)
"""
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import diagnostic_records, expr_format, _split_top
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+tensorflow/repo"


def adp_line(message, path, line, level="ERROR"):
    """ADP_LOG: AdapterLogger's ' [file:line]tid message' inside DlogSub's '[file:line][TF_ADAPTER]'."""
    return (f"[{level}] FMK(12345,python):2025-03-02-10:55:12.313.101 [adapter_logger.cc:25][TF_ADAPTER] "
            f"[{os.path.basename(path)}:{line}]12346 {message}")


def tf_line(message, path, line, level="E"):
    """TensorFlow's LOG(ERROR) (tensorflow/core/platform/default/logging.cc)."""
    return f"2025-03-02 10:55:12.313101: {level} {path}:{line}] {message}"


def py_log_line(absl):
    def line_of(message, path, line, level="ERROR"):
        if absl:
            return f"{level[0]}0302 10:55:12.313101 140234 {os.path.basename(path)}:{line}] {message}"
        return f"{level}:tensorflow:{message}"
    return line_of


# tensorflow::errors::<Code>(...) -> the class Python raises (tensorflow/python/framework/errors_impl.py).
STATUS_CLASSES = {
    "Internal": "InternalError", "InvalidArgument": "InvalidArgumentError", "Unimplemented": "UnimplementedError",
    "OutOfRange": "OutOfRangeError", "FailedPrecondition": "FailedPreconditionError", "Unavailable": "UnavailableError",
    "NotFound": "NotFoundError", "Aborted": "AbortedError", "ResourceExhausted": "ResourceExhaustedError",
    "Unknown": "UnknownError", "AlreadyExists": "AlreadyExistsError", "PermissionDenied": "PermissionDeniedError",
    "DeadlineExceeded": "DeadlineExceededError", "Cancelled": "CancelledError", "DataLoss": "DataLossError",
}
_STATUS = re.compile(r"\berrors::(" + "|".join(STATUS_CLASSES) + r")\s*\(")


def status_records(commit, paths):
    out = []
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        clean = L.strip_c_comments(text)
        lines = text.splitlines()
        for m in _STATUS.finditer(clean):
            line_start = clean.rfind("\n", 0, m.start()) + 1
            if clean[line_start:m.start()].lstrip().startswith("#"):
                continue
            args, _ = L._call_args(clean, m.end() - 1)
            if not args or not any('"' in a for a in args):
                continue
            # StrCat's arguments: each literal as it is, each other operand as %s.
            parts = [expr_format(a) or "%s" for a in args]
            fmt = re.sub(r"(?:%s)+", "%s", "".join(parts)).split("\n")[0].strip()
            if not fmt or fmt == "%s":
                continue
            line = clean.count("\n", 0, m.start()) + 1
            cls = STATUS_CLASSES[m.group(1)]
            out.append(Record(path, line, fmt, "printf", "raise", cls, "", context_lines(lines, line),
                              f"tensorflow.python.framework.errors_impl.{cls}: {L.fill(fmt)}"))
    return out


def level_is(*levels):
    return lambda name, args: args and args[0].strip() in levels


RULES = [
    # Start-up and call wrappers: the adapter only reports that GE, the runtime or a callee failed.
    Rule("other", role="wrapper",
         words=r"init(?:iali[sz]e)?\w* (?:\w+ )?fail|fail(?:ed)? to init|call .{0,40} fail|execute .{0,30} fail"
         r"|\bret(?:urn)? ?(?:code|value)?\s*[:=]|error ?code|error message|errormsg|error_msg|err_msg"
         r"|\b(?:acl|rt|ge|hccl|tdt|hdc|mm)[a-z]\w* (?:\w+ )?fail|dorunasync fail",
         why="the adapter reports that GE, the runtime or a callee failed and passes on its code"),
    # The CANN packages under the adapter: GE's libraries, the plugin, the TF version.
    Rule("install_version_mismatch", words=r"tensorflow version|tf version|version of tensorflow|dlopen|dlsym|\.so\b|ascend_opp_path"
         r"|tbe_impl|opp path|ascend_home|install",
         why="the TensorFlow / CANN packages under the adapter do not fit"),
]

MODULE_RULES = [
    # The cluster: rank table, rank id, device id, HCCL groups of the NPU strategy.
    Rule("rank_config", words=r"rank_?table|rank_?id|rank_?size|rank id|rank size|device_?id|device id|\bworld\b|group_?name|rank ?list"
         r"|visible_devices|local_?device|worker(?:_| )?num|chief",
         why="the rank table, rank or device ids of the job do not fit"),
    # Dynamic shapes and the options that fix them (input_shape, dynamic_dims, getnext shapes).
    Rule("compile_shape", words=r"shape|\bdims?\b|dynamic_dims|dynamic dims|dynamic_input|dimension|dim_?num|rank of|\brank must",
         why="the graph's shapes or the dynamic-shape options do not fit"),
    # Session and NPU options (npu_config, the ConfigProto's custom optimizer parameters).
    Rule("other", words=r"option|config|must be|should be|out of range|invalid (?:value|param|argument)|not in \[|environment",
         why="an option of the NPU session or device is out of its range"),
    # The dataset / GetNext path to the device (tdt, host queues, data transfer).
    Rule("communication", words=r"\btdt\b|hdc|host ?queue|channel|data ?transfer|send data|recv|receive",
         why="moving the dataset's batches to the device failed"),
    # Turning the TensorFlow graph into GE graphs: the graph passes (optimizers/), the GeOp's
    # partition and build, operators and functions the conversion cannot take.
    Rule("compile_op_unsupported", path=r"/optimizers/|om_partition|/ops/|infershape|convert",
         why="a graph pass of the adapter could not convert the TensorFlow graph"),
    Rule("compile_op_unsupported",
         words=r"(?:build|compile|add|convert|pars|optimiz|partition|run)\w* (?:the |ge |tf |sub)?graph|subgraph|functiondef|function ?def"
         r"|\bgraph ?def|not registered|no (?:op|kernel)|op ?type|optype|\bop(?:erator)? \{\}|node .{0,30}not|\bgeop\b.{0,40}fail",
         why="building or converting the graph for GE failed"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".py", ".cpp", ".cc", ".h"))

    def ours(p):
        return p.startswith(("tf_adapter/", "tf_adapter_2.x/")) and not is_test_path(p) \
            and not re.search(r"(?:^|/)(?:tests?|st|ut|llt|docs?|examples?)/", p)
    py = [p for p in files if p.endswith(".py") and ours(p) and p.startswith(
        ("tf_adapter/python/npu_bridge/", "tf_adapter_2.x/python/npu_device/", "tf_adapter_2.x/compat_v1/"))]
    cpp = [p for p in files if p.endswith((".cpp", ".cc", ".h")) and ours(p)
           and not p.endswith(("adapter_logger.h", "npu_micros.h", "npu_logger.h"))]
    records = []
    for p in py:
        absl = "absl" in L.read_file(MIRROR, p, commit).split("\nclass ")[0].split("\ndef ")[0]
        records += python_records(MIRROR, commit, [p], py_log_line(absl))
    records += diagnostic_records(MIRROR, commit, cpp, ["ADP_LOG"], lambda m, p, ln, c: adp_line(m, p, ln),
                                  want=level_is("ERROR", "FATAL"), level="error")
    records += diagnostic_records(MIRROR, commit, cpp, ["LOG"], lambda m, p, ln, c: tf_line(m, p, ln),
                                  want=level_is("ERROR", "FATAL"))
    records += status_records(commit, cpp)
    for r in records:
        r.fmt = r.fmt.split("\n")[0].rstrip()
    comp = F.Component(
        family="src-tf-adapter", name="TF Adapter", label="TF Adapter", repo_name="hicann/tensorflow", mirror=MIRROR,
        commit=commit, out="kb/messages/tf_adapter.yaml",
        description="ERROR-level messages of the TensorFlow adapter (hicann/tensorflow: tf_adapter/ for TensorFlow 1.15, "
                    "tf_adapter_2.x/ for the TensorFlow 2.x NPU device): C++ ADP_LOG(ERROR) plog lines and LOG(ERROR) lines "
                    "(stream operands as %s), tensorflow::errors statuses raised in Python as errors_impl.<Code>Error, "
                    "Python raises, asserts and logging errors.",
        layer="framework", default_category="other", overrides="")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
