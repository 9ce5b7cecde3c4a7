#!/usr/bin/env python3
"""Compiles each source file of a unity build on its own, syntax only.

The unity build (scripts/test.sh, the sanitizer presets) compiles eight .cpp files as one unit,
so a file that forgets an include, or leans on a neighbour's `using` or helper, still builds
there and breaks only a build without CMAKE_UNITY_BUILD (a packager's, an IDE's). This check
reads the build tree's compile_commands.json, finds the files behind each CMake unity source,
and runs the same compiler command on each of them alone with -fsyntax-only (no code is
generated, so it costs a fraction of a second build). Exit 0: every file compiles alone;
1: some do not (their diagnostics are printed); 2: bad usage or no unity sources found.

Usage: check-includes.py BUILD_DIR [-j JOBS]
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

INCLUDE = re.compile(r'^#include "([^"]+)"', re.M)
TIMEOUT_SECONDS = 300


def standalone_commands(build_dir):
    """(source, argv) for every file a unity source includes, with that unity source's flags."""
    with open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8") as f:
        entries = json.load(f)
    commands = []
    for entry in entries:
        unity = entry["file"]
        if "/Unity/unity_" not in unity:
            continue
        argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        flags = []
        skip_next = False
        for arg in argv:
            if skip_next:
                skip_next = False
            elif arg in ("-o", "-c"):
                skip_next = True  # the object file and the unity source
            else:
                flags.append(arg)
        with open(unity, encoding="utf-8") as f:
            for source in INCLUDE.findall(f.read()):
                commands.append((source, flags + ["-fsyntax-only", source], entry["directory"]))
    return commands


def check(command):
    source, argv, directory = command
    try:
        done = subprocess.run(argv, cwd=directory, capture_output=True, text=True,
                              timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        return source, f"timed out after {TIMEOUT_SECONDS} s\n"
    return source, (done.stdout + done.stderr) if done.returncode != 0 else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 2)
    args = parser.parse_args()
    try:
        commands = standalone_commands(args.build_dir)
    except (OSError, ValueError, KeyError) as error:
        print(f"check-includes: cannot read {args.build_dir}/compile_commands.json: {error}",
              file=sys.stderr)
        return 2
    if not commands:
        print(f"check-includes: no unity sources in {args.build_dir} "
              "(configure it with -DCMAKE_UNITY_BUILD=ON)", file=sys.stderr)
        return 2
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        failures = [(source, output) for source, output in pool.map(check, commands) if output]
    for source, output in failures:
        print(f"== {source} does not compile on its own:\n{output}", file=sys.stderr)
    print(f"check-includes: {len(commands) - len(failures)} of {len(commands)} files of the "
          "unity build compile on their own")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
