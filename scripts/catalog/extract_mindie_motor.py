#!/usr/bin/env python3
"""MindIE-Motor's ERROR-level messages -> kb/messages/mindie_motor.yaml.

Ascend/MindIE-Motor (the MindIE service's cluster side: the controller, the coordinator that
routes requests between prefill and decode instances, the node manager, the O&M adapter):
- C++ (mindie_motor/src/: controller, coordinator, common, http_client_ctl): LOG_E(fmt, ...) and
  LOG_C(fmt, ...), printf-style (mindie_motor/src/http_client_ctl/log/Logger.h). The logger
  prints '[time] [pid] [tid] [ms] [ERROR] [file.cpp:line] : message', and the message's first
  %s is the MindIE error code ('[MIE03E010402] [Module] ...'); LOG_C's level is '[CRITICAL] '.
- Python (mindie_motor/python/mindie_motor/: node manager, O&M adapter, the launchers): raises,
  asserts with a message, logger.error / exception / critical calls. Its loggers print
  '[time] [pid] [tid] [name] [ERROR] [file.py:line] message' (node_manager/common/logging.py).

usage: extract_mindie_motor.py [MIRROR]   (default /work/.mirror/Ascend+MindIE-Motor/repo)
"""
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import expr_format
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+MindIE-Motor/repo"
TIME = "[2025-03-02 10:55:12.313101+08:00]"


def py_line(message, path, line, level="ERROR"):
    name = path.split("/")[3] if path.count("/") > 3 else "mindie_motor"
    return f"{TIME} [12345] [281473] [{name}] [{level}] [{os.path.basename(path)}:{line}] {message}"


def cpp_line(message, path, line, level="ERROR"):
    return f"{TIME} [12345] [281473] [ms] [{level}] [{os.path.basename(path)}:{line}] : {message}"


# LOG_E / LOG_C (Logger.h): the first argument is the printf format, the rest its operands.
CPP_CALLS = {"LOG_E": "ERROR", "LOG_C": "CRITICAL"}
# The error code GetErrorCode() gives the first %s of most messages: "MIE03" + E + module,
# feature and error type in hex.
CODE = re.compile(r"^\[%s\]")


def cpp_records(commit, paths):
    out = []
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, list(CPP_CALLS)):
            if not args or '"' not in args[0]:
                continue
            fmt = L.c_format_of(args[0])
            if fmt is None:
                fmt = expr_format(args[0])
            if fmt is None or fmt.strip() in ("%s", ""):
                continue
            fmt = fmt.strip()
            message = L.fill(fmt)
            if CODE.match(fmt):
                message = "[MIE03E010402]" + L.fill(fmt[4:])
            level = CPP_CALLS[name]
            out.append(Record(path, line, fmt, "printf", "log", name, "error" if level == "ERROR" else "",
                              context_lines(lines, line), cpp_line(message, path, line, level)))
    return out


RULES = [
    # Start-up and call wrappers: the component only reports that its callee failed.
    F.CALL_WRAPPER_RULE,
    # Certificates, keys, CRLs, TLS options and their passwords (KMC): the deployment's
    # security configuration, which none of the 12 categories names more precisely.
    Rule("other", words=r"\bcert|\bcrl\b|\bca\b|\btls\b|\bssl\b|private key|\bkmc\b|decrypt|encrypt|password|cipher",
         why="a certificate, key or TLS option of the deployment is wrong or expired"),
    # The global rank table and the instances' cards: which servers and devices form the cluster.
    Rule("rank_config", words=r"rank_?table|ranktable|global_rank|server_?list|server_?count|device_?ip|\bdevice_?id\b"
         r"|super_?pod|\bdp\b|\btp\b|world_?size|instance_?num|group_?num|\bp_?num\b|\bd_?num\b",
         why="the rank table or the instances' parallel layout do not fit the cluster"),
    # Values missing from or refused in the configuration files (ms_controller.json,
    # ms_coordinator.json, the node manager's config), ports and addresses included: the user
    # fixes the file. Motor has no operators or data types: what it "does not support" is a
    # configuration value or a deployment mode.
    Rule("other", words=r"config|missing|not supported|unsupported|only supports?\b|not support|not implemented"
         r"|(?:port|\bip\b|address)\w* .{0,30}(?:invalid|range|must|should|not)|invalid (?:port|\bip\b|address)",
         why="a configuration value is missing, out of its range or not accepted by this Motor"),
    # Links between the controller, the coordinator, the instances and etcd.
    Rule("communication", words=r"timed? ?out|timeout|heartbeat\w* .{0,30}(?:fail|lost|time)|\bgrpc\b|\betcd\b|connect|socket"
         r"|unreachable|handshake|failed on (?:read|write|accept)|send\w* .{0,40}(?:fail|error)|(?:request|forward|post)\w* (?:to|from) .{0,40}fail"
         r"|response from",
         why="a link between the Motor's components, the instances or etcd failed"),
]

MODULE_RULES = [
    # Configuration files (ms_controller.json, ms_coordinator.json, node_manager's config) and
    # their values: the user fixes the configuration.
    Rule("other", words=r"must be|should be|out of range|range|invalid|not in|greater than|less than",
         why="a configuration value is out of its range"),
]


# "Exception: %s" and the like say only that something was thrown: the text after them is
# the message, which the catalogue cannot know. The shared list of generic words lacks them.
MOTOR_GENERIC_WORDS = F.GENERIC_WORDS | {"exception", "exceptions", "caught", "catch", "throw", "thrown"}


def motor_generic(fmt, style):
    return F.is_generic(fmt, style, MOTOR_GENERIC_WORDS)


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".py", ".cpp", ".cc", ".h"))
    py = [p for p in files if p.endswith(".py") and p.startswith("mindie_motor/python/mindie_motor/") and not is_test_path(p)]
    cpp = [p for p in files if p.endswith((".cpp", ".cc", ".h")) and p.startswith("mindie_motor/src/")
           and "/test/" not in p and "/example/" not in p and not p.endswith(("/log/Logger.h", "/log/Logger.cpp"))]
    records = python_records(MIRROR, commit, py, py_line)
    records += cpp_records(commit, cpp)
    # A log line shows a message's first line; the rest goes to lines of their own.
    for r in records:
        r.fmt = r.fmt.split("\n")[0].rstrip()
    comp = F.Component(
        family="src-mindie-motor", name="MindIE-Motor", label="MindIE-Motor", repo_name="Ascend/MindIE-Motor",
        mirror=MIRROR, commit=commit, out="kb/messages/mindie_motor.yaml",
        description="ERROR-level messages of MindIE-Motor (Ascend/MindIE-Motor, mindie_motor/: the MindIE service's "
                    "controller, coordinator, node manager and O&M adapter): C++ LOG_E / LOG_C lines of src/, Python raises, "
                    "asserts and logger errors of python/mindie_motor/.",
        layer="framework", default_category="other", overrides="")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK, generic=motor_generic)


if __name__ == "__main__":
    main()
