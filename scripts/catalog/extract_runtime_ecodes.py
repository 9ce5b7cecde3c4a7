#!/usr/bin/env python3
"""The CANN error-manager catalogue -> kb/messages/runtime_ecodes.yaml (family src-runtime-ecodes).

Source: hicann/runtime, src/dfx/error_manager/error_code.json: every module's E-code with its
message template (ErrMessage, %s placeholders filled from Arglist) and its class (errClass,
errTitle). The error manager prints these messages in the exception text and the plog as
"EE1002: [PID: 42] 2025-... Stream synchronize timeout. ..." (or "Xxx_Error(EE1002): ..."), which
the scanner reads as an error-level line, so the entries have `level: error`.

Kept: every E-code (ERROR level). Left out: W-codes (warnings: `skipped: warning`), formats
with no literal of 4 characters (`too_generic`) or whose words only say that something failed
(`content_free`: "%s failed. Reason: %s." would match any error line). Two codes with the same message become one
entry whose title names both (`skipped: duplicate` counts the second).

Category: the curated entry of the same code (kb/cann_ecodes.yaml) when there is one (so both
agree), else the class title's words (Not_Supported_Shape -> compile_shape, Insufficient_Stream_Resources
-> resource ...), else the module by the code's second character (I: HCCL -> communication,
L: driver -> driver_firmware_env, 3: AI CPU -> aicore_exception ...).

Usage: extract_runtime_ecodes.py [--repo DIR] [--out FILE] [--dump-tsv FILE]
"""
import argparse
import json
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as lib  # noqa: E402
import cann_entries  # noqa: E402

REPO_NAME = "hicann/runtime"
DEFAULT_REPO = "/work/.mirror/hicann+runtime/repo"
PATH = "src/dfx/error_manager/error_code.json"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The module a code belongs to, by its second character (error_code.json's errClass).
MODULES = {
    "2": ("FE", "compile_op_unsupported"), "3": ("AI CPU", "aicore_exception"),
    "4": ("TE fusion", "compile_op_unsupported"), "5": ("Operator", "compile_op_unsupported"),
    "6": ("Operator", "compile_op_unsupported"), "7": ("Vector operator plugin", "compile_op_unsupported"),
    "8": ("Vector", "compile_op_unsupported"), "9": ("Operator compiler", "compile_op_unsupported"),
    "A": ("Operator compiler", "compile_op_unsupported"), "B": ("TBE pass", "compile_op_unsupported"),
    "E": ("Runtime", "other"), "F": ("Deployer", "other"), "H": ("AscendCL", "other"),
    "I": ("HCCL", "communication"), "J": ("HCCP", "communication"), "K": ("Profiling", "other"),
    "L": ("Driver", "driver_firmware_env"), "M": ("Queue schedule", "other"), "O": ("AMCT", "other"),
    "P": ("Dump", "other"), "Z": ("Operator", "compile_op_unsupported"),
}

# The class title's words (and the message's): what the user must fix. First match wins.
TITLE_RULES = [
    ("stream-sync-timeout", "communication", "symptom", r"Stream_Synchronize_Timeout|stream synchroni[sz]e time ?out"),
    ("divide-by-zero", "compute_overflow_nan", None, r"Divide_By_Zero|divid\w* by zero"),
    ("aicpu-timeout", "aicore_exception", None, r"AICPU_Operator_Timeout"),
    ("device-memory", "memory", None, r"Insufficient_Device_Memory|Insufficient_Host_Memory|Memory_Allocation|out of memory|memory (is )?insufficient"),
    ("resources", "resource", None, r"Insufficient_\w*Resources|Full_Service_Queue|Bind_Stream|Insufficient_CDQM"),
    ("ranktable", "rank_config", None, r"Ranktable|Inconsistent_Collective|IP_Address|Invalid_Device_ID|Collective_Communication_Operator|rank ?table|\brank(id|size)?\b.{0,40}(invalid|inconsistent|mismatch)"),
    ("communication", "communication", None, r"Communication_Error|ROCE|Execution_Error_SDMA|P2P|HCCP_Process|socket|notify wait"),
    ("permission", "permission_device", None, r"No_Permission|Invalid_Device_Access|Resource_Busy|permission|occupied"),
    ("driver-version", "driver_firmware_env", None, r"Incorrect_Driver_Version|driver version"),
    ("device-daemon", "driver_firmware_env", None, r"Device_Absent|Device_Connection|Driver_API|TSDaemon|Device_Status|Device_Subprocess|NN_Process|Load_Package|OPP_To_Device|AICPU_Scheduler_Init|Queue_Scheduler_Init|Cgroup|Group_Attach|Verify_NN|System_Terminated|heartbeat"),
    ("packages", "install_version_mismatch", None, r"Package_Error|Environment_Error|Python|Import|version"),
    ("environment", "install_version_mismatch", None, r"environment (path|variable)s? .{0,20}(is )?not set|ASCEND_\w*PATH"),
    ("shape", "compile_shape", None, r"Shape|Tiling|\bshape\b|\bdim(ension)?s?\b|tiling"),
    ("unsupported", "compile_op_unsupported", None, r"Not_Supported|NOT_SUPPORTED|Unsupported|Data_Type|Dtype|Format|Compil|Fusion|Graph_Pattern|Emit_Insn|Primitives|not supported"),
    ("model-execution", "aicore_exception", "symptom", r"Execution_Error_Model"),
]


def humanise(title):
    t = (title or "").strip().replace("_", " ")
    return re.sub(r"\s+", " ", t).strip()


def curated_codes():
    with open(os.path.join(ROOT, "kb/cann_ecodes.yaml"), encoding="utf-8") as f:
        d = yaml.safe_load(f)
    out = {}
    for e in d["entries"]:
        for c in ([e["code"]] if e.get("code") else []) + list(e.get("codes", []) or []):
            out[str(c).upper()] = (e["id"], e.get("category"), e.get("role", d.get("defaults", {}).get("role")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=DEFAULT_REPO)
    ap.add_argument("--out", default=os.path.join(ROOT, "kb/messages/runtime_ecodes.yaml"))
    ap.add_argument("--overrides", default=os.path.join(ROOT, "scripts/catalog/overrides/runtime_ecodes.yaml"))
    ap.add_argument("--dump-tsv")
    a = ap.parse_args()
    commit = lib.head_commit(a.repo)
    text = lib.read_file(a.repo, PATH, commit)
    lines = text.split("\n")
    items = json.loads(text)["error_info_list"]
    curated = curated_codes()
    overrides = cann_entries.load_overrides(a.overrides)
    skipped = {"too_generic": 0, "content_free": 0, "warning": 0, "duplicate": 0}
    by_format = {}
    for item in items:
        code = item["ErrCode"].strip()
        fmt = item["ErrMessage"].strip()
        if code.startswith("W"):
            skipped["warning"] += 1
            continue
        if not cann_entries.recognisable(fmt):
            skipped["too_generic"] += 1
            continue
        if cann_entries.content_free(fmt):
            skipped["content_free"] += 1
            continue
        line = next((i + 1 for i, ln in enumerate(lines) if f'"{code}"' in ln), 1)
        if fmt in by_format:
            by_format[fmt]["codes"].append(code)
            skipped["duplicate"] += 1
            continue
        by_format[fmt] = {"codes": [code], "title": item.get("errTitle"), "line": line}
    entries, rows = [], []
    found = len([i for i in items]) - skipped["warning"]
    for fmt, info in by_format.items():
        code = info["codes"][0]
        module, default = MODULES.get(code[1], ("CANN", "other"))
        category, role, why = None, None, None
        for c in info["codes"]:
            if c in curated and curated[c][1]:
                category, why = curated[c][1], "curated:" + curated[c][0]
                role = curated[c][2] if curated[c][2] in ("symptom", "wrapper") else None
                break
        if category is None:
            probe = f"{info['title'] or ''} {fmt}"
            for name, cat, rl, pat in TITLE_RULES:
                if re.search(pat, probe, re.I):
                    category, role, why = cat, rl, name
                    break
        if category is None:
            category, why = default, "module:" + module
        codes = "/".join(info["codes"][:3]) + ("…" if len(info["codes"]) > 3 else "")
        label = humanise(info["title"]) or lib.fill(fmt)[:40]
        title = {"en": f"{codes} ({module}): {label}", "zh": f"{codes}（{module}）：{label}"}
        ident = f"src-runtime-ecodes.{code.lower()}"
        sample = f"{code}: [PID: 12345] 2025-03-02-10:55:12.313.101 {lib.fill(fmt)}"
        e = {"id": ident, "format": fmt, "category": category, "role": role, "title": title,
             "references": [lib.blob_url(REPO_NAME, commit, PATH, info["line"])], "samples": [sample]}
        for k in ("category", "role", "symptom_of", "title", "cause", "remedies"):
            if k in overrides.get(ident, {}):
                e[k] = overrides[ident][k]
        entries.append(e)
        rows.append((ident, category, role or "cause", why, fmt))
    header = {
        "family": "src-runtime-ecodes",
        "description": "The CANN error-manager catalogue (hicann/runtime src/dfx/error_manager/error_code.json): "
                       "every module's E-code message, as the error manager prints it in exceptions and plogs. "
                       "Generated by scripts/catalog/extract_runtime_ecodes.py; the code is in each title.",
        "source": {"component": "CANN error codes", "repo": REPO_NAME, "commit": commit,
                   "formats_found": found, "skipped": skipped},
        "defaults": {"origin": "source", "layer": "runtime", "level": "error", "category": "other", "role": "cause"},
    }
    lib.write_messages_file(a.out, header, entries)
    if a.dump_tsv:
        with open(a.dump_tsv, "w", encoding="utf-8") as out:
            for r in rows:
                out.write("\t".join(map(str, r)) + "\n")
    print(f"{a.out}: {len(entries)} entries from {found} E-codes; skipped {skipped}", file=sys.stderr)


if __name__ == "__main__":
    main()
