#!/usr/bin/env python3
"""Runs scripts/check-includes.py on a two-file unity build made here, with the build's compiler.

The unity source compiles (the second file finds <vector> through the first); the check must
say the second file does not compile on its own, pass the first, and exit 1.
Usage: check_includes_test.py COMPILER
"""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "..", "scripts", "check-includes.py")


def main():
    compiler = sys.argv[1]
    with tempfile.TemporaryDirectory() as build:
        unity_dir = os.path.join(build, "CMakeFiles", "demo.dir", "Unity")
        os.makedirs(unity_dir)
        unity = os.path.join(unity_dir, "unity_0_cxx.cxx")
        with open(unity, "w", encoding="utf-8") as f:
            for name in ("includes_vector.cpp", "leans_on_neighbour.cpp"):
                f.write(f'#include "{os.path.join(HERE, name)}"\n')
        command = f"{compiler} -std=c++20 -o unity_0_cxx.cxx.o -c {unity}"
        subprocess.run(command.split() + ["-fsyntax-only"], check=True)  # the unity unit builds
        with open(os.path.join(build, "compile_commands.json"), "w", encoding="utf-8") as f:
            json.dump([{"directory": build, "command": command, "file": unity}], f)
        done = subprocess.run([sys.executable, SCRIPT, build, "-j", "2"], capture_output=True,
                              text=True, timeout=300)
    print(done.stdout + done.stderr)
    if done.returncode != 1:
        print(f"FAIL: exit {done.returncode}, expected 1")
        return 1
    if "leans_on_neighbour.cpp does not compile on its own" not in done.stderr:
        print("FAIL: the file that leans on its neighbour was not named")
        return 1
    if "includes_vector.cpp does not compile" in done.stderr or "1 of 2 files" not in done.stdout:
        print("FAIL: the file that includes what it uses was not passed")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
