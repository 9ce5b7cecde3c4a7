#!/usr/bin/env python3
"""Runs golden cases (tests/golden/<command>/<case>/) against the built npu-doctor.

usage: run_golden.py BINARY SOURCE_DIR VERSION CASE_DIR_OR_COMMAND_DIR...

The case runs in a fresh directory holding a symlink `src` to the source tree, so the
command line names fixtures by short relative paths (src/examples/x.log) whose length,
and so the text reports' wrapping, is the same in every checkout. Its stdout, stderr,
exit code and the files it wrote there are normalised (README.md, "What is normalised")
and compared byte for byte with the case's expected files; a mismatch prints a unified
diff. Every JSON document written (stdout, files, JSON lines) is also validated against
docs/schemas/<name>.schema.json, chosen by its `schema` field.

NPU_DOCTOR_GOLDEN_UPDATE=1 rewrites the expected files instead (review with git diff).

A case's optional `templates` file lists fixtures to copy into its directory before it runs,
one `SOURCE<TAB>DEST` per line (SOURCE under the source tree, DEST under the case's
directory), with `{kb_version}` replaced by the binary's knowledge-base version: node
summaries name the knowledge base that wrote them, and a fixed one would make `merge` warn
about a version mismatch whenever the knowledge base changes.
"""
import difflib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_check  # noqa: E402

TIMEOUT_S = 60
FORMAT_EXT = {"text": "txt", "json": "json", "markdown": "md", "html": "html", "prometheus": "prom"}
# Documents npu-doctor writes with no docs/json-*.md contract, so no schema file: internal
# formats (the replay record, the bundle marker) and outputs whose contract is not written yet.
NO_CONTRACT = {"npu-doctor/probe-record/v1", "npu-doctor/bundle/v1"}
# The build tree's cache (CMake sets it), else one for this run.
# Absolute: a relative one would land in each case's directory, among the files it wrote.
CACHE_DIR = os.path.abspath(os.environ.get("NPU_DOCTOR_GOLDEN_CACHE_DIR") or
                            tempfile.mkdtemp(prefix="npu-doctor-golden-cache-"))


_KB_VERSIONS = {}


def kb_version_of(binary, env):
    """The knowledge-base version `BINARY --version` names ("knowledge base: kb-1234abcd, ...")
    in the case's environment (NPU_DOCTOR_KB_SNAPSHOT may replace the built-in base)."""
    key = (binary, env.get("NPU_DOCTOR_KB_SNAPSHOT", ""))
    if key not in _KB_VERSIONS:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=TIMEOUT_S, env=env).stdout
        m = re.search(r"knowledge base: (kb-[0-9a-f]+)", out)
        if not m:
            raise SystemExit(f"{binary} --version names no knowledge base:\n{out}")
        _KB_VERSIONS[key] = m.group(1)
    return _KB_VERSIONS[key]


def read(path, default=None):
    if not os.path.exists(path):
        return default
    with open(path, "rb") as f:
        return f.read().decode("utf-8", errors="replace")


def lines_of(path):
    text = read(path, "")
    return [l for l in text.split("\n") if l.strip() and not l.startswith("#")]


class Case:
    def __init__(self, binary, source, version, case_dir):
        self.binary = os.path.abspath(binary)
        self.source = os.path.realpath(source)
        self.version = version
        self.dir = os.path.abspath(case_dir)
        # Always under /tmp: the same path length on every machine, so text reports that
        # name a path wrap the same way.
        self.work = os.path.realpath(tempfile.mkdtemp(prefix="npu-doctor-golden-", dir="/tmp"))
        self.cwd = os.path.join(self.work, "run")
        os.makedirs(self.cwd)
        os.symlink(self.source, os.path.join(self.cwd, "src"))
        for d in ("home", "site-kb"):
            os.makedirs(os.path.join(self.work, d))
        self.rules = [line.split("\t", 1) for line in lines_of(os.path.join(self.dir, "normalize"))]
        for rule in self.rules:
            if len(rule) != 2:
                raise SystemExit(f"{self.dir}/normalize: each line is REGEX<TAB>REPLACEMENT")

    inputs = None  # the templates' destinations: inputs, not files the command wrote

    def copy_templates(self):
        self.inputs = set()
        templates = lines_of(os.path.join(self.dir, "templates"))
        kb_version = kb_version_of(self.binary, self.environment()) if templates else ""
        for line in templates:
            src, sep, dest = line.partition("\t")
            if not sep:
                raise SystemExit(f"{self.dir}/templates: each line is SOURCE<TAB>DEST")
            with open(os.path.join(self.source, src), encoding="utf-8") as f:
                text = f.read().replace("{kb_version}", kb_version)
            path = os.path.join(self.cwd, dest)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            self.inputs.add(os.path.normpath(dest))

    def expand(self, s):
        if s == "{empty}":
            return ""
        # {renderer_kb}: the fixed knowledge base of the renderer goldens (tests.cmake builds it).
        renderer_kb = os.environ.get("NPU_DOCTOR_GOLDEN_RENDERER_KB", "")
        return (s.replace("{src}", self.source).replace("{tmp}", self.cwd).replace("{bin}", self.binary)
                .replace("{renderer_kb}", renderer_kb))

    def environment(self):
        # A clean, fixed environment: nothing of the caller's (a site knowledge base,
        # NPU_DOCTOR_KB_PATH, ASCEND_* variables, LANG=zh_CN) reaches the case.
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": os.path.join(self.work, "home"),
            "LANG": "C.UTF-8",
            "TZ": "UTC",
            "COLUMNS": "100",
            "NO_COLOR": "1",
            "TMPDIR": self.work,
            # Compiled pattern databases, shared by the cases (a fresh cache costs each case ~0.25 s).
            "NPU_DOCTOR_CACHE_DIR": CACHE_DIR,
            "NPU_DOCTOR_SYSTEM_KB_DIR": os.path.join(self.work, "site-kb"),
        }
        # The sanitizer trees' settings (CMakePresets.json: halt_on_error, the LSan suppressions).
        env.update({k: v for k, v in os.environ.items() if k.endswith("SAN_OPTIONS")})
        # The input store's budget (GoldenSpilled.*: 0, every input's record in its file).
        if "NPU_DOCTOR_INPUT_MEMORY" in os.environ:
            env["NPU_DOCTOR_INPUT_MEMORY"] = os.environ["NPU_DOCTOR_INPUT_MEMORY"]
        for line in lines_of(os.path.join(self.dir, "env")):
            name, _, value = line.partition("=")
            if value == "" and not line.endswith("="):
                env.pop(name, None)  # a bare NAME unsets it
            else:
                env[name] = self.expand(value)
        return env

    def normalise(self, text):
        # Longest first: the work directory holds the run directory.
        text = text.replace(self.cwd, "{tmp}").replace(self.work, "{work}").replace(CACHE_DIR, "{cache}")
        # Archive members name the host path without its leading slash (bundle's logs/).
        text = text.replace(self.cwd.lstrip("/"), "{tmp}")
        # The binary first: it lies under the source tree (build/ or the sanitizers' build-fuzz/).
        text = text.replace(self.binary, "npu-doctor").replace(self.source, "{src}")
        v = re.escape(self.version)
        text = re.sub(r'("version": ?)"' + v + '"', r'\1"{version}"', text)
        text = re.sub(r'("tool_version": ?)"' + v + '"', r'\1"{version}"', text)
        text = re.sub(r"npu-doctor([ /])" + v + r"\b", r"npu-doctor\1{version}", text)
        text = re.sub(r'version="' + v + '"', 'version="{version}"', text)  # prometheus labels
        # The knowledge base's version and size change with every edit of kb/.
        text = re.sub(r"\bkb-[0-9a-f]{8}\b", "kb-{version}", text)
        host = re.escape(socket.gethostname())
        text = re.sub(r'("host": ?)"' + host + '"', r'\1"{hostname}"', text)
        text = re.sub(r'("kb_entries": ?)\d+', r"\1{n}", text)
        text = re.sub(r"kb_entries \d+", "kb_entries {n}", text)
        text = re.sub(r"(kb-\{version\}, )\d+( entries)", r"\1{n}\2", text)
        # Times of the run itself (never the logs' times, which carry no zone letter).
        text = re.sub(r"\b20\d\d-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "{utc}", text)
        text = re.sub(r"(_timestamp_seconds(\{[^}]*\})?) \d+(\.\d+)?", r"\1 {time}", text)
        # Durations measured at run time.
        text = re.sub(r'("seconds": ?)\d+(\.\d+)?(e-?\d+)?', r"\1{seconds}", text)
        # The GoldenSpilled.* runs' own setting, which bundle's environment dump records.
        text = re.sub(r"(?m)^NPU_DOCTOR_INPUT_MEMORY=\d*\n", "", text)
        for pattern, replacement in self.rules:
            text = re.sub(pattern, replacement, text)
        return text

    def stdout_name(self, args):
        existing = [f for f in os.listdir(self.dir) if f.startswith("stdout.")]
        if existing:
            return existing[0]
        for i, a in enumerate(args):
            if a in ("-f", "--format") and i + 1 < len(args):
                return "stdout." + FORMAT_EXT.get(args[i + 1], "txt")
            if a.startswith("--format="):
                return "stdout." + FORMAT_EXT.get(a.split("=", 1)[1], "txt")
        return "stdout.txt"

    def written_files(self):
        """Files the command wrote in its directory: name -> text (archives listed and unpacked)."""
        out = {}
        for root, dirs, files in os.walk(self.cwd):
            dirs[:] = sorted(d for d in dirs if os.path.join(root, d) != os.path.join(self.cwd, "src"))
            for f in sorted(files):
                path = os.path.join(root, f)
                rel = os.path.relpath(path, self.cwd)
                if rel in (self.inputs or ()):
                    continue
                if f.endswith((".tar.gz", ".tgz")):
                    out.update(archive_members(path, rel))
                else:
                    with open(path, "rb") as fh:
                        data = fh.read()
                    # Binary files are not golden material: say so instead of storing bytes.
                    out[rel] = None if b"\0" in data else data.decode("utf-8", errors="replace")
        return out

    def run(self):
        self.copy_templates()
        args = [self.expand(a) for a in lines_of(os.path.join(self.dir, "cmd"))]
        stdin_path = os.path.join(self.dir, "stdin")
        stdin = open(stdin_path, "rb") if os.path.exists(stdin_path) else subprocess.DEVNULL
        try:
            p = subprocess.run([self.binary] + args, cwd=self.cwd, env=self.environment(), stdin=stdin,
                               capture_output=True, timeout=TIMEOUT_S)
        finally:
            if stdin is not subprocess.DEVNULL:
                stdin.close()
        actual = {
            self.stdout_name(args): p.stdout.decode("utf-8", errors="replace"),
            "stderr.txt": p.stderr.decode("utf-8", errors="replace"),
            "exit": f"{p.returncode}\n",
        }
        for rel, text in self.written_files().items():
            actual["files/" + self.normalise(rel)] = text
        binary = [k for k, v in actual.items() if v is None]
        if binary:
            raise CaseError(f"binary files written, which a golden case cannot compare: {', '.join(binary)}")
        return actual

    def expected(self):
        exp = {}
        for root, dirs, files in os.walk(self.dir):
            dirs.sort()
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(root, f), self.dir)
                if rel.startswith("files/") or rel.startswith("stdout.") or rel in ("stderr.txt", "exit"):
                    exp[rel] = read(os.path.join(root, f))
        return exp


class CaseError(Exception):
    """A case that cannot be compared (its command wrote something no golden file can hold)."""


def archive_members(path, rel):
    """A .tar.gz the command wrote, as its member list plus each text member."""
    out = {}
    with tarfile.open(path, "r:gz") as tar:
        members = [m for m in tar.getmembers() if m.isfile()]
        out[rel + "/(members)"] = "".join(m.name.split("/", 1)[-1] + "\n" for m in members)
        for m in members:
            data = tar.extractfile(m).read()
            if b"\0" in data:
                continue
            out[rel + "/" + m.name.split("/", 1)[-1]] = data.decode("utf-8", errors="replace")
    return out


def json_documents(name, text):
    """The JSON documents in an output: one, or one per line (JSON lines)."""
    if not (name.endswith(".json") or name.endswith(".jsonl")):
        return []
    stripped = text.strip()
    if not stripped:
        return []
    try:
        return [json.loads(stripped)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in stripped.split("\n") if line.strip()]


def validate_outputs(case, actual):
    problems = []
    for name, text in actual.items():
        if name.endswith((".json", ".jsonl")):
            try:
                docs = json_documents(name, text)
            except json.JSONDecodeError as e:
                problems.append(f"{name}: not JSON: {e}")
                continue
            for doc in docs:
                sid = doc.get("schema") if isinstance(doc, dict) else None
                if sid is None or sid in NO_CONTRACT:
                    continue
                for error in schema_check.validate(case.source, sid, doc):
                    problems.append(f"{name}: {sid}: {error}")
    return problems


def skip_reason(case_dir):
    """Why this machine cannot run the case (its `requires` file), or None."""
    for need in lines_of(os.path.join(case_dir, "requires")):
        if need == "root" and os.geteuid() != 0:
            return "needs root (the fixture's device nodes are root's)"
    return None


def run_case(binary, source, version, case_dir):
    """Runs one case; returns the list of problems (empty: it passed or was updated)."""
    case = Case(binary, source, version, case_dir)
    try:
        try:
            raw = case.run()
        except (CaseError, subprocess.TimeoutExpired) as e:
            return [str(e)]
        problems = validate_outputs(case, raw)
        actual = {k: case.normalise(v) for k, v in raw.items()}
        # An empty stderr is not stored: no file means "nothing on stderr".
        if actual.get("stderr.txt") == "":
            del actual["stderr.txt"]
        if os.environ.get("NPU_DOCTOR_GOLDEN_UPDATE") == "1":
            for rel in case.expected():
                os.remove(os.path.join(case.dir, rel))
            shutil.rmtree(os.path.join(case.dir, "files"), ignore_errors=True)
            for rel, text in actual.items():
                path = os.path.join(case.dir, rel)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="") as f:
                    f.write(text)
            return problems
        expected = case.expected()
        for rel in sorted(set(expected) | set(actual)):
            want, got = expected.get(rel), actual.get(rel)
            if want == got:
                continue
            if want is None:
                problems.append(f"{rel}: written but not expected (NPU_DOCTOR_GOLDEN_UPDATE=1 adds it)")
                want = ""
            elif got is None:
                problems.append(f"{rel}: expected but not written")
                got = ""
            else:
                problems.append(f"{rel}: differs from the expected file")
            sys.stdout.writelines(difflib.unified_diff(
                want.splitlines(True), got.splitlines(True), "expected/" + rel, "actual/" + rel))
            sys.stdout.write("\n")
        return problems
    finally:
        shutil.rmtree(case.work, ignore_errors=True)


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    binary, source, version = sys.argv[1:4]
    cases = []
    for d in sys.argv[4:]:
        if not os.path.isdir(d):
            continue
        if os.path.exists(os.path.join(d, "cmd")):
            cases.append(d)
        else:  # a command's folder: every case in it
            cases += sorted(os.path.join(d, c) for c in os.listdir(d) if os.path.exists(os.path.join(d, c, "cmd")))
    if not cases:
        print(f"no golden cases in {sys.argv[4:]}", file=sys.stderr)
        return 1
    failed = 0
    for case_dir in cases:
        name = os.path.relpath(case_dir, os.path.join(source, "tests", "golden"))
        reason = skip_reason(case_dir)
        if reason:
            print(f"skipped {name}: {reason}")
            continue
        start = time.monotonic()
        problems = run_case(binary, source, version, case_dir)
        ms = round((time.monotonic() - start) * 1000)
        if problems:
            failed += 1
            print(f"FAIL {name}", *problems, sep="\n  ")
        else:
            print(("updated " if os.environ.get("NPU_DOCTOR_GOLDEN_UPDATE") == "1" else "ok ") + f"{name} ({ms} ms)")
    print(f"{len(cases) - failed} of {len(cases)} golden cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
