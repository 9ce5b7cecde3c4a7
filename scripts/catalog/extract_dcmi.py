#!/usr/bin/env python3
"""DCMI and npu-smi messages -> kb/messages/dcmi.yaml.

hicann/driver, only its DCMI and npu-smi part (a colleague catalogues the rest of the driver):
- the DCMI library (src/custom/dev_prod/user/dcmi/): gplog(LOG_ERR, ...) calls, written to
  /var/log/nputools_LOG_ERR.log as '[time][tid][user][ip][file,function,line]:message';
- npu-smi (src/custom/dev_prod/user/npucli/): the error messages it prints on the terminal
  (printf formats whose words say something failed or is not allowed / supported) and its
  own gplog(LOG_ERR, ...) calls.

usage: extract_dcmi.py [MIRROR]   (default /work/.mirror/hicann+driver/repo)
"""
import os
import re
import sys

import catalog_lib as L
import fw_common as F
from fw_common import Record, Rule, context_lines

MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+driver/repo"
DCMI = "src/custom/dev_prod/user/dcmi/"
NPUSMI = "src/custom/dev_prod/user/npucli/"
# An npu-smi printf is an error message when its words say so (tables and values are not).
NPUSMI_ERROR = re.compile(r"fail|error|invalid|not support|cannot|can't|not permitted|unable|not exist|illegal|not found|"
                          r"does not|is not|not allowed|timed out|out of range|wrong", re.I)
TABLE_ROW = re.compile(r"^\s*%|^\s*-|,\s*$")  # table cells, option help, lists of names


def gplog_line(message, path, line):
    return f"[2025/03/02 10:55:12][1234][root][127.0.0.1][{os.path.basename(path)},func,{line}]:{message}"


def records(commit):
    out = []
    paths = [p for p in L.list_files(MIRROR, commit, suffixes=(".c", ".cc", ".cpp"))
             if p.startswith((DCMI, NPUSMI)) and "/test" not in p]
    for path in paths:
        text = L.read_file(MIRROR, path, commit)
        lines = text.splitlines()
        for name, args, line in L.find_c_calls(text, ["gplog", "printf"]):
            if name == "gplog":
                if len(args) < 2 or args[0].strip() != "LOG_ERR":
                    continue
                fmt = L.c_format_of(args[1])
                if fmt is None:
                    continue
                fmt = fmt.strip()
                out.append(Record(path, line, fmt, "printf", "log", "gplog", "", context_lines(lines, line),
                                  gplog_line(L.fill(fmt), path, line)))
            elif path.startswith(NPUSMI):
                fmt = L.c_format_of(args[0]) if args else None
                if fmt is None or not NPUSMI_ERROR.search(fmt) or TABLE_ROW.match(fmt):
                    continue
                fmt = fmt.strip()
                out.append(Record(path, line, fmt, "printf", "log", "printf", "", context_lines(lines, line),
                                  L.fill(fmt).strip()))
    return out


RULES = [
    # Who may run it and where: root on the host, not in a VM or container, device busy.
    Rule("permission_device",
         words=r"not permitted|permission|root user|privilege|cannot be executed on a (?:vm|container)|in (?:a |the )?container"
         r"|device is used|occupied|\bbusy\b|not allowed",
         why="npu-smi / DCMI refuse: not root, inside a VM or container, or the device is in use"),
    # The user typed a wrong id or option.
    Rule("other", path=NPUSMI, words=r"error parameter|invalid (?:card|chip|device|vnpu|template|\w+ )?id|command or option|parameter|argument",
         why="a wrong npu-smi option or id"),
    # Host memory of the tool itself.
    Rule("memory", words=r"alloc(?:ate)? memory|malloc|out of memory", why="the tool could not allocate host memory"),
]


def main():
    commit = L.head_commit(MIRROR)
    comp = F.Component(
        family="src-dcmi", name="DCMI and npu-smi", label="DCMI", repo_name="hicann/driver", mirror=MIRROR,
        commit=commit, out="kb/messages/dcmi.yaml",
        description="ERROR-level messages of the DCMI library and of npu-smi (hicann/driver, only "
                    "src/custom/dev_prod/user/dcmi and npucli; the rest of the driver is catalogued separately): "
                    "gplog(LOG_ERR, ...) calls (/var/log/nputools_LOG_ERR.log) and the error messages npu-smi prints.",
        layer="driver", default_category="driver_firmware_env", overrides="scripts/catalog/overrides/dcmi.yaml")
    F.build(comp, records(commit), RULES)


if __name__ == "__main__":
    main()
