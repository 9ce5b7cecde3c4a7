"""Python sources of the frameworks (vLLM, vLLM-Ascend, MindSpeed, torchair, Triton-Ascend):
the ERROR-level messages as records (fw_common.Record) with their sample lines."""
import os
import re

import catalog_lib as L
from fw_common import Record, context_lines

# A logging call's receiver: logger, LOG, log, self.logger, _logger ... (not argparse's
# parser.error or a future's exception()).
_LOGGER_CALL = re.compile(r"\b(?:\w*log\w*|LOG\w*|logging)\s*\.\s*(?:error|exception|critical|fatal)\s*\(", re.I)
_LEVEL = {"error": "error", "exception": "error", "critical": "", "fatal": ""}


def is_test_path(path):
    parts = path.split("/")
    return any(p in ("tests", "test", "unittest", "unit_tests", "examples", "benchmarks", "docs") for p in parts[:-1]) \
        or parts[-1].startswith("test_") or parts[-1].endswith("_test.py") or parts[-1] == "conftest.py"


def python_records(repo, rev, paths, log_line, exception_line=L.exception_line, asserts=True):
    """Records for the .py files in `paths`: raises (with their class), asserts with a
    message, and logging calls at error level or above. `log_line(message, path, line, level)`
    gives the line a logging call prints."""
    out = []
    for path in paths:
        text = L.read_file(repo, path, rev)
        lines = text.splitlines()
        for kind, name, fmt, line in L.find_py_messages(text, asserts=asserts, resolve_names=True):
            ctx = context_lines(lines, line)
            if kind == "log":
                call = "\n".join(lines[max(0, line - 1):line + 1])
                if not _LOGGER_CALL.search(call):
                    continue
                level = _LEVEL[name]
                sample = log_line(L.fill(fmt, "python"), path, line, "ERROR" if level else "CRITICAL")
                out.append(Record(path, line, fmt, "python", "log", name, level, ctx, sample))
            else:
                sample = exception_line(name, L.fill(fmt, "python"))
                out.append(Record(path, line, fmt, "python", kind, name, "", ctx, sample))
    return out


def vllm_log_line(message, path, line, level="ERROR"):
    """vLLM's logging format (vllm/logger.py): 'ERROR 03-02 10:55:12 [file.py:100] message'."""
    return f"{level} 03-02 10:55:12 [{os.path.basename(path)}:{line}] {message}"
