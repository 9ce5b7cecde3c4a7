"""What the catalogue extractors' fixture-tree tests share (docs/kb-messages.md): a small git
repository made from {path: text} (more commits and release tags on top), a stand-in for this
repository where an extractor's main() writes its files, the written file read back, the
extractor modules imported from the tree under test, expect() that records a failure and goes
on, and the two checks by the real binary: `kb lint` of the written file, and `--kb FILE
diagnose` finding each generated sample by its own entry.

Used by tests/kb/catalog_*_fixture_test.py, each run as `TEST.py REPO_ROOT NPU_DOCTOR`.
"""
import json
import os
import re
import subprocess
import sys

ROOT, DOCTOR = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "scripts", "catalog"))
import catalog_lib  # noqa: E402

GIT_ENV = dict(GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t",
               GIT_AUTHOR_DATE="2026-01-01T00:00:00Z", GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                          env=dict(os.environ, **GIT_ENV)).stdout.decode().strip()


def write_files(base, files):
    """Writes `files` ({path relative to `base`: text})."""
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(base, path)), exist_ok=True)
        with open(os.path.join(base, path), "w", encoding="utf-8") as f:
            f.write(text)


def commit_files(repo, files, tag=None):
    """One more commit of `repo` with `files` ({path: text}) written over its tree, tagged `tag`
    (a release); returns the commit."""
    write_files(repo, files)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", tag or "fixture")
    if tag:
        git(repo, "tag", tag)
    return git(repo, "rev-parse", "HEAD")


def make_repo(repo, files, tag=None):
    """A git repository at `repo` holding `files` ({path: text}) in one commit; returns the commit."""
    os.makedirs(repo, exist_ok=True)
    subprocess.run(["git", "init", "-q", repo], check=True)
    return commit_files(repo, files, tag)


def line_of(text, needle):
    """The number of the first line of `text` holding `needle` (where a fixture's call is)."""
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def stand_in_repository(root, files, module):
    """An extractor's shared module (fw_common, ge_ops_common) reads overrides, texts and curated
    entries under its ROOT and writes kb/messages/ there: `root`, holding `files`, stands in for
    this repository, so that the extractor's main() runs unchanged and writes into `root`."""
    write_files(root, files)
    os.makedirs(os.path.join(root, "kb", "messages"), exist_ok=True)
    module.ROOT = root
    return root


def entries_by_format(path):
    """A written kb/messages file: (its header, its entries by (format, format_style))."""
    doc = catalog_lib.load_yaml(path)
    entries = {(e["format"], e.get("format_style", "printf")): e for e in doc["entries"]}
    return doc, entries


failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def lint(path, entries):
    """The real loader accepts the written file: `kb lint` exits 0 and checked `entries` entries."""
    p = subprocess.run([DOCTOR, "kb", "lint", path], capture_output=True, text=True, timeout=120)
    expect("kb lint of the generated file (exit status)", p.returncode, 0)
    if not re.search(rf"\b{entries} entries checked: 0 error\(s\)", p.stdout + p.stderr):
        failures.append(f"kb lint output (want {entries} entries, 0 errors): {p.stdout}{p.stderr}")


def found_by_own_entry(path, samples, tmp):
    """The built-in base plus the generated file: each sample ({id: line}) is recognised by its own
    entry, through the pattern the build generates from the format (not the Python mirror's).
    One run for all samples, a blank line between two and no context lines: a fixture's few
    invented samples do not read each other (catalog_rules.curated_claims, which must hold for
    any real sample, gives each its own input file and re-runs the ones a context rule read)."""
    log = os.path.join(tmp, "sample.log")
    idents = list(samples)
    with open(log, "w", encoding="utf-8") as f:
        f.write("\n\n".join(samples[i] for i in idents) + "\n")
    p = subprocess.run([DOCTOR, "--kb", path, "diagnose", "-f", "json", "--max-evidence", "1000", "-B", "0", "-A", "0",
                        "-j", "1", log], capture_output=True, text=True, timeout=120)
    found = {i: [] for i in idents}
    try:
        for finding in json.loads(p.stdout).get("findings", []):
            for ev in finding.get("evidence", []):
                found[idents[(ev["line"] - 1) // 2]].append(finding.get("rule"))
    except (ValueError, KeyError, IndexError):
        failures.append(f"diagnose output unreadable ({p.returncode}): {p.stdout[:200]}{p.stderr[:200]}")
    for ident in idents:
        expect(f"{ident}: found on its sample line", ident in found[ident], True)


def finish():
    for f in failures:
        print("FAIL:", f)
    print("ok" if not failures else f"{len(failures)} failure(s)")
    sys.exit(1 if failures else 0)
