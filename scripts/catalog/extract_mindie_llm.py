#!/usr/bin/env python3
"""MindIE-LLM's ERROR-level messages -> kb/messages/mindie_llm.yaml.

Ascend/MindIE-LLM (the MindIE inference server and its LLM back end):
- Python (mindie_llm/, and the model library examples/atb_models/atb_llm/): raises, asserts
  with a message, logger.error / exception / critical calls. Its logger prints
  '[time] [pid] [tid] [name] [ERROR] [file.py-line] : message' (mindie_llm/utils/log/logging_base.py).
- C++ (src/: the server, scheduler, engine, block manager): ULOG_ERROR(submodule, code, msg)
  and MINDIE_LLM_LOG_ERROR / ATB_SPEED_LOG_ERROR (msg, ...) with `<<` chains (operands as %s);
  spdlog prints '[time] [pid] [tid] [server] [ERROR] [file.cpp:line] : [submodule] message'.

The server's start-up summaries and its error codes have hand-written entries in
kb/launchers.yaml, which take the line when both recognise it.

usage: extract_mindie_llm.py [MIRROR]   (default /work/.mirror/Ascend+MindIE-LLM/repo)
"""
import os
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines
from fw_cpp import expr_format
from fw_python import is_test_path, python_records

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+MindIE-LLM/repo"
ATB_LLM = "examples/atb_models/"


def py_line(message, path, line, level="ERROR"):
    return f"[2025-03-02 10:55:12,313] [12345] [281473] [mindie_llm] [{level}] [{os.path.basename(path)}-{line}] : {message}"


def cpp_line(message, path, line, submodule="llm"):
    return f"[2025-03-02 10:55:12.313+08:00] [12345] [12346] [server] [ERROR] [{os.path.basename(path)}:{line}] : [{submodule}] {message}"


# The message argument of each C++ logging macro.
CPP_CALLS = {"ULOG_ERROR": 2, "MINDIE_LLM_LOG_ERROR": 0, "MINDIE_LLM_LOG_FATAL": 0, "ATB_SPEED_LOG_ERROR": 0,
             "ATB_SPEED_LOG_FATAL": 0}


def cpp_records(commit, paths):
    out = []
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, list(CPP_CALLS)):
            idx = CPP_CALLS[name]
            if len(args) <= idx or '"' not in args[idx]:
                continue
            fmt = expr_format(args[idx])
            if fmt is None or fmt.strip() in ("%s", ""):
                continue
            fmt = fmt.strip()
            out.append(Record(path, line, fmt, "printf", "log", "error", "error", context_lines(lines, line),
                              cpp_line(L.fill(fmt), path, line)))
    return out


RULES = [
    # Start-up and call wrappers: the component only reports that its callee failed.
    F.CALL_WRAPPER_RULE,
    # The cards MindIE is given and how the model is spread over them (config.json).
    Rule("rank_config", words=r"npudeviceids|npu_device_ids|worldsize|world_size|\bdp\b|\btp\b|\bmoe_tp\b|\bmoe_ep\b|rank_?table|ranktable",
         why="config.json's cards, world size or parallel sizes do not fit"),
    # Prefill/decode separation and the request router: links between instances.
    Rule("communication", path=r"connector/|request_router|splitwise|/pd_|_pd\b|grpc|llm_datadist|kv_transfer",
         words=r"link|pull|connect|socket|grpc|timeout|timed out|peer|remote|send|recv|receive",
         why="a link between MindIE instances (PD separation, the router) failed"),
]

MODULE_RULES = [
    # config.json values checked against their ranges: the user fixes the configuration,
    # which none of the 12 categories names more precisely.
    Rule("other", path=r"config", words=r"must be|should be|out of range|range|invalid|not in|greater than|less than",
         why="a config.json value is out of its range"),
]


def main():
    commit = L.head_commit(MIRROR)
    files = L.list_files(MIRROR, commit, suffixes=(".py", ".cpp", ".cc", ".h"))
    py = [p for p in files if p.endswith(".py") and (
        (p.startswith("mindie_llm/") and not is_test_path(p))
        or (p.startswith(ATB_LLM + "atb_llm/") and not is_test_path(p[len(ATB_LLM):])))]
    cpp = [p for p in files if p.endswith((".cpp", ".cc", ".h")) and p.startswith("src/") and "/test" not in p
           and not p.startswith("src/include/utils/log") and not p.endswith(("logger_def.h", "log.h"))]
    records = python_records(MIRROR, commit, py, py_line)
    records += cpp_records(commit, cpp)
    # A log line shows a message's first line; the rest goes to lines of their own.
    for r in records:
        r.fmt = r.fmt.split("\n")[0].rstrip()
    comp = F.Component(
        family="src-mindie-llm", name="MindIE-LLM", label="MindIE", repo_name="Ascend/MindIE-LLM", mirror=MIRROR,
        commit=commit, out="kb/messages/mindie_llm.yaml",
        description="ERROR-level messages of MindIE-LLM (Ascend/MindIE-LLM: the MindIE server and its LLM back end): Python "
                    "raises, asserts and logger errors of mindie_llm/ and the model library atb_llm/, C++ ULOG_ERROR / "
                    "MINDIE_LLM_LOG_ERROR / ATB_SPEED_LOG_ERROR lines of src/ (stream operands as %s).",
        layer="framework", default_category="other", overrides="")
    F.build(comp, records, RULES + F.GENERAL_STRONG + MODULE_RULES + F.GENERAL_WEAK)


if __name__ == "__main__":
    main()
