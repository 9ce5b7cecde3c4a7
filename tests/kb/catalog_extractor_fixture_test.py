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
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fixture_tree import expect, finish, found_by_own_entry, lint, make_repo  # noqa: E402
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


with tempfile.TemporaryDirectory() as tmp:
    repo = os.path.join(tmp, "mirrors", "fixture+hcomm", "repo")
    commit = make_repo(repo, {"src/platform/link.cc": LINK_CC, "test/ut/link_test.cc": UT_CC})

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
    lint(out, 2)
    found_by_own_entry(out, samples, tmp)

finish()
