#!/usr/bin/env python3
"""The Vision SDK's (mxVision's) ERROR-level messages -> kb/messages/vision_sdk.yaml.

Ascend/VisionSDK (MindX SDK mxVision: mxBase, mxPlugins, mxStream, mxTools; C++):
- `LogError << ... ;` and `LogFatal << ... ;` statements (stream operands as %s). LogError is
  glog's LOG(ERROR) (mxBase/.../Log/Log.h), printed as 'E1205 10:55:12.313101 12345 file.cpp:123] message'.
- The error-code texts of mxBase/.../ErrorCode/ErrorCode.h (APP_ERR_*_LOG_STRING): GetErrorInfo()
  appends them to a message as '(Code = 6003, Message = "stream change state fail")'. The ACL
  table is left out: for an AscendCL code the SDK prints 'ACL error, please refer to the document
  of CANN.' instead, and the code itself is read by the `acl.calling-function-code` extractor.

usage: extract_vision_sdk.py [MIRROR]   (default /work/.mirror/Ascend+VisionSDK/repo)
"""
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import expr_format

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+VisionSDK/repo"
ERROR_TEXTS = "mxBase/src/mxbase/include/MxBase/ErrorCode/ErrorCode.h"
SOURCE_DIRS = ("mxBase/", "mxPlugins/", "mxStream/", "mxTools/")


def glog_line(message, path, line):
    return f"E1205 10:55:12.313101 12345 {os.path.basename(path)}:{line}] {message}"


def log_records(commit, paths):
    out = []
    stmt = re.compile(r"\b(LogError|LogFatal)\s*<<(.*?);", re.S)
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        clean = L.strip_c_comments(text)
        lines = text.splitlines()
        for m in stmt.finditer(clean):
            fmt = expr_format(m.group(2))
            if fmt is None or fmt.strip() in ("%s", ""):
                continue
            fmt = fmt.strip()
            line = clean.count("\n", 0, m.start()) + 1
            out.append(Record(path, line, fmt, "printf", "log", "error", "error", context_lines(lines, line),
                              glog_line(L.fill(fmt), path, line)))
    return out


def code_text_records(commit):
    """The texts GetErrorInfo() prints after 'Message = ' for the SDK's own codes."""
    out = []
    text = L.read_file(MIRROR, ERROR_TEXTS, commit)
    lines = text.splitlines()
    table = None
    for i, raw in enumerate(lines, 1):
        start = re.match(r"\s*const std::string (APP_ERR_\w+)\[\]\s*=", raw)
        if start:
            table = start.group(1)
            continue
        m = re.match(r'\s*\[[^\]]+\]\s*=\s*"([^"]+)"', raw)
        if not m or table is None or table == "APP_ERR_ACL_LOG_STRING":
            continue
        desc = m.group(1)
        if desc in ("Success", "Placeholder"):
            continue
        fmt = desc.replace("%", "%%")
        sample = glog_line(f'Failed to run the stream. (Code = 6001, Message = "{desc}") ', "MxStreamManager.cpp", 123)
        out.append(Record(ERROR_TEXTS, i, fmt, "printf", "log", "error", "error", context_lines(lines, i), sample))
    return out


RULES = [
    # Start-up and call wrappers: the plugin or API only reports that its callee failed.
    Rule("other", role="wrapper",
         words=r"^(?:failed to |fail to )?(?:call|execute|run|init(?:iali[sz]e)?)\w* .{0,40}fail|\bcall .{0,40} failed|see .{0,30}\blogs?\b",
         why="a call wrapper that points at the callee's error"),
    # DVPP's channels are few per chip: all taken is the resource limit, not a permission.
    Rule("resource", words=r"channels? (?:are|were) (?:all )?occupied|all .{0,20}channels .{0,10}occupied|no (?:free|idle|available) channel",
         why="every DVPP channel of the chip is taken"),
    # A stream's input (an RTSP or video source) and its waits: the pipeline's data, not a
    # link between processes of a job.
    Rule("other", words=r"rtsp|connect stream|stream exists|video source|timed? ?out|timeout",
         why="a stream's input source or a wait inside the pipeline"),
    # The stream's pipeline (its JSON): elements, plugins, properties, links, ports.
    Rule("other", words=r"pipeline|element|plugin|propert|\blink|pad\b|\bports?\b|factory|stream config|config file|json",
         why="the pipeline's configuration (elements, properties, links) is wrong"),
    # Model files and their inputs: what the application passes, not the device.
    Rule("compile_shape", words=r"input (?:shape|size|tensor)|output (?:shape|size)|shape|dims?\b|dimension|tensor size|does not match the model",
         why="a tensor's shape or size does not fit the model"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".cpp", ".cc", ".h", ".hpp"))
    cpp = [p for p in files if p.startswith(SOURCE_DIRS) and "/test" not in p and "/Log/" not in p]
    records = log_records(commit, cpp)
    records += code_text_records(commit)
    comp = F.Component(
        family="src-vision-sdk", name="Vision SDK (mxVision)", label="Vision SDK", repo_name="Ascend/VisionSDK",
        mirror=MIRROR, commit=commit, out="kb/messages/vision_sdk.yaml",
        description="ERROR-level messages of the Vision SDK (Ascend/VisionSDK, MindX SDK mxVision): C++ LogError / "
                    "LogFatal lines of mxBase, mxPlugins, mxStream and mxTools (stream operands as %s), and the texts "
                    "of its own error codes that GetErrorInfo() prints as '(Code = N, Message = \"...\")'.",
        layer="framework", default_category="other", overrides="")
    F.build(comp, records, RULES + F.GENERAL_STRONG + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
