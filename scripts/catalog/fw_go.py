"""Go sources of the container stack (Ascend docker runtime, device plugin, the DCMI wrapper of
Ascend/mind-cluster): ERROR-level messages as records (fw_common.Record) with sample lines."""
import os
import re

import catalog_lib as L
from fw_common import Record, context_lines

# hwlog's ERROR calls: the message is logged at ERROR level. ErrorfWithLimit(domain, id, fmt, ...)
# and ErrorfWithSpecifiedCounts(domain, id, n, fmt, ...) carry their format further right.
HWLOG_ERROR = {"Errorf": 0, "Error": 0, "ErrorfWithLimit": 2, "ErrorfWithSpecifiedCounts": 3, "ErrorWithCtx": 1,
               "ErrorfWithCtx": 1}
HWLOG_CALL = r"RunLog\.(?:" + "|".join(HWLOG_ERROR) + r")"
# Errors built and returned to the caller (printed later by hwlog, docker or kubelet).
RETURNED = r"fmt\.Errorf|errors\.New"
FATAL = r"log\.Fatalf?|hwlog\.RunLog\.Critical\w*"


def hwlog_line(message, path, line, level="ERROR"):
    """hwlog's line (ascend-common/common-utils/hwlog): '[time][ERROR]    <goroutine> <dir/file.go:line>    message'."""
    where = "/".join(path.split("/")[-2:])
    return f"[2025-03-02 10:55:12.313101][{level}]    1       {where}:{line}    {message}"


def go_records(repo, rev, paths, line_of=hwlog_line):
    out = []
    callee = "|".join((HWLOG_CALL, RETURNED, FATAL))
    for path in paths:
        text = L.read_file(repo, path, rev)
        lines = text.splitlines()
        for name, args, line in L.find_go_calls(text, callee):
            short = name.split(".")[-1]
            if "RunLog" in name and short in HWLOG_ERROR:
                idx = HWLOG_ERROR[short]
                kind, level = "log", "error"
            elif short in ("Errorf", "New"):
                idx, kind, level = 0, "returned", ""
            else:  # log.Fatal / Critical: printed without an ERROR word hwlog's level detection knows
                idx, kind, level = 0, "log", ""
            if len(args) <= idx:
                continue
            fmt = L.go_format_of(args[idx])
            if fmt is None:
                continue
            if short in ("Error", "Fatal", "ErrorWithCtx") and len(args) > idx + 1:
                fmt += " %s" * (len(args) - idx - 1)  # Println-style: the other operands follow
            sample = line_of(L.fill(fmt), path, line)
            rec = Record(path, line, fmt, "printf", kind, short, level,
                         context_lines(lines, line), sample)
            out.append(rec)
    return out


def c_logger_records(repo, rev, paths, calls, line_of):
    """C calls whose message is an ERROR: `calls` maps a function name to (format argument
    index, a regex the call's text must match to be at error level, or "")."""
    out = []
    for path in paths:
        text = L.read_file(repo, path, rev)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, list(calls)):
            idx, need = calls[name]
            if len(args) <= idx:
                continue
            fmt = L.c_format_of(args[idx])
            if fmt is None:
                continue
            if need and not re.search(need, "\n".join(lines[line - 1:line + 3])):
                continue
            out.append(Record(path, line, fmt, "printf", "log", name, "", context_lines(lines, line),
                              line_of(L.fill(fmt), path, line)))
    return out


def go_paths(repo, rev, prefixes):
    return [p for p in L.list_files(repo, rev, suffixes=(".go",))
            if p.startswith(prefixes) and not p.endswith("_test.go") and "/testdata/" not in p and "/mock" not in p]


def basename(path):
    return os.path.basename(path)
