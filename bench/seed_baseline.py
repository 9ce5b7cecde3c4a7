#!/usr/bin/env python3
# Verbatim copy of the seed guide's diagnosis script as reconstructed in
# /work/shared/tools/seed_baseline.py (team shared tools), kept here because CI machines
# have no ../shared. The speed baseline of bench/compare.sh: npu-doctor must beat it by 50x.
# Do not edit below this line; re-copy it if the shared original changes.
"""The seed document's own diagnosis script (section 1.2), reconstructed as the
baseline that npu-doctor must beat in accuracy and speed.  Usage:
  seed_baseline.py FILE...          print the seed's diagnosis per file
  seed_baseline.py --category FILE  print one category word (accuracy harness)
"""
import re
import sys

PATTERN = re.compile(r'(?:ACL|HCCL|ATC|ERROR)[\s:]*(\d{6})')


def diagnose_error_log(log_content):
    error_codes = PATTERN.findall(log_content)
    diagnosis = []
    for code in set(error_codes):
        c = int(code)
        if 100000 <= c < 700000:
            diagnosis.append(f"检测到错误码: {code}")
            if 100000 <= c < 200000:
                diagnosis.append(" - 疑似内存/资源问题 (OOM或泄漏)")
            elif 200000 <= c < 300000:
                diagnosis.append(" - 疑似通信问题 (网络或配置)")
            elif 300000 <= c < 400000:
                diagnosis.append(" - 疑似模型编译问题 (算子不支持)")
            elif 400000 <= c < 500000:
                diagnosis.append(" - 疑似计算逻辑问题 (NaN/Overflow)")
            else:
                diagnosis.append(" - 疑似环境问题 (驱动/固件)")
        else:
            diagnosis.append(f"未知错误码: {code}")
    return "\n".join(diagnosis)


def category(log_content):
    """Map the seed's first recognised code to the corpus label scheme."""
    for code in PATTERN.findall(log_content):
        c = int(code)
        if 100000 <= c < 200000:
            return "memory"
        if 200000 <= c < 300000:
            return "communication"
        if 300000 <= c < 400000:
            return "compile_op_unsupported"
        if 400000 <= c < 500000:
            return "compute_overflow_nan"
        if 500000 <= c < 700000:
            return "driver_firmware_env"
    return "none"


if __name__ == "__main__":
    args = sys.argv[1:]
    want_cat = bool(args) and args[0] == "--category"
    if want_cat:
        args = args[1:]
    for path in args:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        print(category(text) if want_cat else diagnose_error_log(text))
