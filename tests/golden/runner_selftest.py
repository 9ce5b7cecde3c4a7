#!/usr/bin/env python3
"""The golden runner fails when an output differs (a comparison that cannot fail is a defect).

usage: runner_selftest.py BINARY SOURCE_DIR VERSION

Copies a real case (explain/code-text) into a temporary folder three times: unchanged (must
pass), with one character of its expected stdout changed, and with another expected exit
code (both must fail, the first with a unified diff naming the line).
"""
import os
import shutil
import subprocess
import sys
import tempfile

RUNNER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "run_golden.py")


def run(binary, source, version, case):
    env = {k: v for k, v in os.environ.items() if k != "NPU_DOCTOR_GOLDEN_UPDATE"}
    p = subprocess.run([sys.executable, RUNNER, binary, source, version, case], capture_output=True, text=True,
                       env=env, timeout=60)
    return p.returncode, p.stdout + p.stderr


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    binary, source, version = sys.argv[1:]
    original = os.path.join(source, "tests", "golden", "explain", "code-text")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        same, text, code = (os.path.join(tmp, n) for n in ("same", "text", "code"))
        for d in (same, text, code):
            shutil.copytree(original, d)
        with open(os.path.join(text, "stdout.txt"), encoding="utf-8") as f:
            lines = f.read().split("\n")
        lines[0] = lines[0][:-1] + ("X" if not lines[0].endswith("X") else "Y")
        with open(os.path.join(text, "stdout.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
        with open(os.path.join(code, "exit"), "w") as f:
            f.write("7\n")

        rc, out = run(binary, source, version, same)
        if rc != 0:
            failures.append(f"the unchanged case failed:\n{out}")
        rc, out = run(binary, source, version, text)
        if rc == 0 or "--- expected/stdout.txt" not in out or "+++ actual/stdout.txt" not in out or f"-{lines[0]}" not in out:
            failures.append(f"a changed expected stdout passed or gave no diff (exit {rc}):\n{out}")
        rc, out = run(binary, source, version, code)
        if rc == 0 or "exit: differs" not in out:
            failures.append(f"a changed exit code passed (exit {rc}):\n{out}")
    for f in failures:
        print("FAIL", f)
    print("the runner passes an unchanged case and fails a changed one" if not failures else "")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
