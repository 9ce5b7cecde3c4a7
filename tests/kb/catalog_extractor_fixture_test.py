#!/usr/bin/env python3
"""The catalogue's extractor run end to end on a fixture source tree (docs/kb-messages.md):
scripts/catalog/extract_hccl.py reads a small git repository shaped like hicann/hcomm (multi-line
calls, adjacent literals with PRI macros, comments, the macro's own #define, a test tree, a
message held in a variable), builds its entries and writes the kb/messages file; the real
loader then lints that file and `diagnose` recognises every generated sample by its entry.
The catalogue files are generated on a machine that has the snapshots, never in CI: this is what
keeps the extractor's code path, and its agreement with the build's pattern generator
(src/core/message_format.cpp), tested.
Usage: catalog_extractor_fixture_test.py REPO_ROOT NPU_DOCTOR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT, DOCTOR = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(ROOT, "scripts", "catalog"))
import catalog_lib as L  # noqa: E402
import extract_hccl as X  # noqa: E402

LINK_CC = r'''// Fixture shaped like hicann/hcomm's sources; the messages are invented for the test.
#define HCCL_ERROR(fmt, ...) DLOG(HCCL, fmt, ##__VA_ARGS__)
namespace hccl {
HcclResult FixtureLink::Connect(u32 peer)
{
    // HCCL_ERROR("fixture commented-out message %u", peer);
    if (ret != 0) {
        HCCL_ERROR("[Fixture][Link]connect to fixture peer[%u] timed out after %"
                   PRIu64 " ms, check the peer", peer, waitMs);
        return HCCL_E_TIMEOUT;
    }
    if (transport == nullptr) {
        HCCL_ERROR("[Fixture][Link]fixture transport handle of rank[%u] is nullptr", peer);
        return HCCL_E_PTR;
    }
    HCCL_ERROR(fixtureMessage, peer);
    HCCL_ERROR("ret=%d", ret);
    return HCCL_SUCCESS;
}
}
'''

UT_CC = r'''// A unit test's own message: test trees are not what a plog shows.
void FixtureTest() { HCCL_ERROR("fixture unit test message %d never logged", 1); }
'''


def git(repo, *args):
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@t", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, env=env).stdout.decode().strip()


failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "mirrors", "fixture+hcomm", "repo")
    for path, text in [("src/platform/link.cc", LINK_CC), ("test/ut/link_test.cc", UT_CC)]:
        os.makedirs(os.path.dirname(os.path.join(repo, path)), exist_ok=True)
        with open(os.path.join(repo, path), "w", encoding="utf-8") as f:
            f.write(text)
    subprocess.run(["git", "init", "-q", repo], check=True)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "fixture")
    commit = git(repo, "rev-parse", "HEAD")

    src = dict(key="fixture", component="HCCL (fixture)", repo="fixture/hcomm", family="src-fixture",
               mirror="fixture+hcomm", commit=commit, out="unused")
    calls, not_literal, nfiles = X.read_source(src, os.path.join(tmp, "mirrors"))
    expect("files read (the test tree left out)", nfiles, 1)
    expect("calls whose format is not a literal", not_literal, 1)
    formats = sorted(c["fmt"] for c in calls)
    timeout_fmt = "[Fixture][Link]connect to fixture peer[%u] timed out after %llu ms, check the peer"
    null_fmt = "[Fixture][Link]fixture transport handle of rank[%u] is nullptr"
    expect("formats read (the comment and the #define are not calls)", formats, sorted([timeout_fmt, null_fmt, "ret=%d"]))
    lines = {c["fmt"]: c["line"] for c in calls}
    expect("line of the multi-line call", lines.get(timeout_fmt), 8)

    entries, skipped, found, _ = X.build(src, calls, not_literal, set(), {})
    expect("formats found", found, 3)
    expect("skipped as too generic", dict(skipped), {"too_generic": 1})
    by_fmt = {e["format"]: e for e in entries}
    expect("category of a timeout", by_fmt.get(timeout_fmt, {}).get("category"), "communication")
    expect("category of HCCL's own null pointer", by_fmt.get(null_fmt, {}).get("category"), "other")
    for e in entries:
        expect(f"{e['id']}: reference pinned to the commit and line",
               e["references"][0], L.blob_url("fixture/hcomm", commit, "src/platform/link.cc", lines[e["format"]]))
        expect(f"{e['id']}: its sample matches the pattern generated from its format",
               L.sample_matches(e["samples"][0], e["format"]), True)
    samples = {e["id"]: e["samples"][0] for e in entries}

    out = os.path.join(tmp, "kb", "src-fixture.yaml")
    X.write_file(out, src, entries, found, skipped)
    lint = subprocess.run([DOCTOR, "kb", "lint", out], capture_output=True, text=True, timeout=120)
    expect("kb lint of the generated file (exit status)", lint.returncode, 0)
    if not re.search(r"\b2 entries checked: 0 error\(s\)", lint.stdout + lint.stderr):
        failures.append(f"kb lint output: {lint.stdout}{lint.stderr}")

    # The built-in base plus the generated file: each sample is recognised by its own entry,
    # through the pattern the build generates from the format (not the Python mirror's).
    for ident, sample in samples.items():
        log = os.path.join(tmp, "sample.log")
        with open(log, "w", encoding="utf-8") as f:
            f.write(sample + "\n")
        p = subprocess.run([DOCTOR, "--kb", out, "diagnose", "-f", "json", log], capture_output=True, text=True,
                           timeout=120)
        try:
            rules = [f.get("rule") for f in json.loads(p.stdout).get("findings", [])]
        except ValueError:
            rules = [f"unreadable output ({p.returncode}): {p.stdout[:200]}{p.stderr[:200]}"]
        expect(f"{ident}: found on its sample line", ident in rules, True)

for f in failures:
    print("FAIL:", f)
print("ok" if not failures else f"{len(failures)} failure(s)")
sys.exit(1 if failures else 0)
