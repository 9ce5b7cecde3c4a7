#!/usr/bin/env python3
"""Does each generated kb/messages/*.yaml come out of its extractor byte for byte?

Runs every extractor whose source snapshots are present (under --mirrors, as `fetch` brings
them: <owner>+<name>/repo) at the commits the committed files' `source:` headers pin, one at a
time, in this tree; then compares each file it wrote with the committed one (HEAD) and puts the
committed file back (--keep leaves the regenerated files in the work tree, to look at or commit).
A file differs when it was edited by hand after it was generated (make the edit an override),
when a later change of a script, an override or the curated knowledge base (whose categories
the extractors copy) was never followed by a run, or when a rule was applied with
prune_refused_messages.py but not built into the extractor.

Not run in CI: CI has no snapshots. Run it after changing a catalogue script, an override or
a curated entry a generated one copies; docs/kb-messages.md, "How the files are made".

An extractor is not run (and says why) when a snapshot is missing, when a snapshot it reads at
its HEAD is not at the pinned commit (clone it and check the pinned commit out first: the
message says how), or when one of its files has uncommitted changes. One that runs longer than
--timeout seconds is stopped and reported.

Usage: check_reproducible.py [--mirrors /work/.mirror] [--doctor build/src/npu-doctor] [--keep]
                             [--timeout 600] [EXTRACTOR ...]   (names as in the table: torch_npu, ops ...)
Exit status: 0 every file checked is reproduced, 1 one differs or an extractor failed, 2 usage.
"""
import argparse
import collections
import functools
import os
import subprocess
import sys
import time

import catalog_lib as L

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
print = functools.partial(print, flush=True)  # one line per file as it is known

# Where each pinned repository's snapshot is (the snapshots some are read from are mirrors of
# the repository the file names: the extractors' own docstrings say why).
MIRROR_OF = {
    "hicann/asc-devkit": "mirror-cann+asc-devkit",
    "hicann/hcomm": "libochao-huawei+hcomm",
    "vllm-project/vllm": "RhizoNymph+vllm",
}

# name -> script; files: what it writes; head: those of its files whose snapshot it reads at the
# snapshot's HEAD, so HEAD must be their pinned commit (default: all); also: other repositories
# whose snapshots it reads (they must be present); doctor: it takes --doctor; mirror: how it is
# told where the snapshot is ("mirror": the one repository's snapshot as its argument, "mirrordir":
# the directory of snapshots as its argument, "mirrors": --mirrors DIR, "repo": --repo PATH,
# absent: its fixed /work/.mirror).
E = dict
EXTRACTORS = {
    "ascendc": E(script="extract_ascendc.py", files=["ascendc.yaml"], head=[], mirror="mirror"),
    "ascendnpu_ir": E(script="extract_ascendnpu_ir.py", files=["ascendnpu_ir.yaml"], mirror="mirror"),
    "container": E(script="extract_container.py", files=["container.yaml"], mirror="mirror"),
    "dcmi": E(script="extract_dcmi.py", files=["dcmi.yaml"], mirror="mirror"),
    "driver": E(script="extract_driver.py", files=["driver.yaml"], mirror="repo"),
    "install_scripts": E(script="extract_install_scripts.py", mirror="mirrordir",
                         files=["driver_installer.yaml", "runtime_installer.yaml", "mind_cluster_scripts.yaml",
                                "mindxdl_scripts.yaml"]),
    "ge": E(script="extract_ge.py", files=["ge.yaml", "ge_engines.yaml"], doctor=True, also=["hicann/metadef"]),
    "ge_error_codes": E(script="extract_ge_error_codes.py", files=["ge_error_codes.yaml"], doctor=True),
    "hccl": E(script="extract_hccl.py", files=["hccl.yaml", "hcomm.yaml"], head=[], doctor=True, mirror="mirrors"),
    "metadef": E(script="extract_metadef.py", files=["metadef.yaml"], doctor=True),
    "mindie_llm": E(script="extract_mindie_llm.py", files=["mindie_llm.yaml"], mirror="mirror"),
    "mindie_motor": E(script="extract_mindie_motor.py", files=["mindie_motor.yaml"], mirror="mirror"),
    "mindspeed": E(script="extract_mindspeed.py", files=["mindspeed.yaml"], mirror="mirror"),
    "op_plugin": E(script="extract_op_plugin.py", files=["op_plugin.yaml"], head=[], doctor=True, mirror="mirrors"),
    "ops": E(script="extract_ops.py", files=["ops_opbase.yaml", "ops_nn.yaml", "ops_math.yaml", "ops_transformer.yaml"],
             doctor=True, also=["hicann/opbase"]),
    "pypto": E(script="extract_pypto.py", files=["pypto.yaml"], mirror="mirror"),
    "runtime": E(script="extract_runtime.py", files=["runtime.yaml"], mirror="repo"),
    "runtime_ecodes": E(script="extract_runtime_ecodes.py", files=["runtime_ecodes.yaml"], mirror="repo"),
    "tf_adapter": E(script="extract_tf_adapter.py", files=["tf_adapter.yaml"], mirror="mirror"),
    "torch_npu": E(script="extract_torch_npu.py", files=["torch_npu.yaml", "torch_npu_v7_0.yaml", "torch_npu_v6_0.yaml",
                                                        "torch_npu_v5_0.yaml"], head=[], doctor=True, mirror="mirrors"),
    "torch_npu_acl_texts": E(script="extract_torch_npu_acl_texts.py", files=["torch_npu_acl_texts.yaml"], mirror="mirror"),
    "torchair": E(script="extract_torchair.py", files=["torchair.yaml"], mirror="mirror"),
    "triton_ascend": E(script="extract_triton_ascend.py", files=["triton_ascend.yaml"], mirror="mirror"),
    "vision_sdk": E(script="extract_vision_sdk.py", files=["vision_sdk.yaml"], mirror="mirror"),
    "vllm": E(script="extract_vllm.py", files=["vllm.yaml"], head=[], mirror="mirror"),
    "vllm_ascend": E(script="extract_vllm_ascend.py", files=["vllm_ascend.yaml", "vllm_ascend_v0_11.yaml",
                                                            "vllm_ascend_v0_9.yaml", "vllm_ascend_v0_7.yaml"],
                     head=["vllm_ascend.yaml"], mirror="mirror"),
}


def git(*args, cwd=ROOT):
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)


def source_of(name):
    s = L.load_yaml(os.path.join(ROOT, "kb/messages", name)).get("source") or {}
    return s.get("repo"), s.get("commit")


def snapshot(mirrors, repo):
    return os.path.join(mirrors, MIRROR_OF.get(repo, repo.replace("/", "+")), "repo")


def why_not(ex, mirrors):
    """None when the extractor can run here, else why not."""
    for name in ex["files"]:
        if git("status", "--porcelain", "--", "kb/messages/" + name).stdout.strip():
            return f"kb/messages/{name} has uncommitted changes"
    repos = {}
    for name in ex["files"]:
        repo, commit = source_of(name)
        repos.setdefault(repo, set()).add(commit)
        snap = snapshot(mirrors, repo)
        if not os.path.isdir(snap):
            return f"no snapshot of {repo} ({snap}; bring it with `fetch`)"
        if git("cat-file", "-e", commit + "^{commit}", cwd=snap).returncode:
            return f"the snapshot {snap} does not have {repo}@{commit[:10]}"
        head = git("rev-parse", "HEAD", cwd=snap).stdout.strip()
        if name in ex.get("head", ex["files"]) and head != commit:
            return (f"{snap} is at {head[:10]}, {name} pins {commit[:10]} (`git clone -q --shared {snap} /tmp/x/repo && "
                    f"git -C /tmp/x/repo checkout -q {commit}`, then run the extractor on it)")
    for repo in ex.get("also", []):
        if not os.path.isdir(snapshot(mirrors, repo)):
            return f"no snapshot of {repo}, which it also reads"
    if ex.get("mirror") is None and os.path.abspath(mirrors) != "/work/.mirror":
        return "it reads its snapshots from /work/.mirror only (ge_ops_common.MIRRORS)"
    return None


def command(ex, mirrors, doctor):
    cmd = [sys.executable, os.path.join("scripts/catalog", ex["script"])]
    how = ex.get("mirror")
    if how == "mirror":
        cmd.append(snapshot(mirrors, source_of(ex["files"][0])[0]))
    elif how == "mirrordir":
        cmd.append(mirrors)
    elif how == "mirrors":
        cmd += ["--mirrors", mirrors]
    elif how == "repo":
        cmd += ["--repo", snapshot(mirrors, source_of(ex["files"][0])[0])]
    if ex.get("doctor"):
        cmd += ["--doctor", doctor]
    return cmd


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--doctor", default=os.path.join(ROOT, "build/src/npu-doctor"),
                    help="the binary whose built-in knowledge base the extractors ask which lines curated entries claim")
    ap.add_argument("--keep", action="store_true", help="leave the regenerated files in the work tree")
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("names", nargs="*", help="extractors to run (default: all)")
    a = ap.parse_args()
    unknown = [n for n in a.names if n not in EXTRACTORS]
    if unknown:
        ap.error(f"unknown extractor(s) {unknown}; known: {' '.join(EXTRACTORS)}")
    if not os.path.exists(a.doctor):
        # Without it the extractors silently skip the curated claims and write other categories.
        ap.error(f"no npu-doctor binary at {a.doctor} (--doctor)")
    a.doctor = os.path.abspath(a.doctor)
    listed = {f for ex in EXTRACTORS.values() for f in ex["files"]}
    for name in sorted(os.listdir(os.path.join(ROOT, "kb/messages"))):
        if name.endswith(".yaml") and name not in listed:
            print(f"kb/messages/{name}: not checked (no extractor listed in check_reproducible.py)")
    failed, tally = False, collections.Counter()
    for key in a.names or EXTRACTORS:
        ex = EXTRACTORS[key]
        reason = why_not(ex, a.mirrors)
        if reason:
            for name in ex["files"]:
                print(f"kb/messages/{name}: not checked ({key}: {reason})")
            tally["not checked"] += len(ex["files"])
            continue
        cmd = command(ex, a.mirrors, a.doctor)
        start = time.time()
        try:
            res = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=a.timeout)
            rc, tail = res.returncode, (res.stdout + res.stderr).strip().splitlines()[-3:]
        except subprocess.TimeoutExpired:
            rc, tail = None, [f"stopped after {a.timeout} s"]
        took = time.time() - start
        paths = ["kb/messages/" + f for f in ex["files"]]
        for path in paths:
            if rc != 0:
                print(f"{path}: not checked ({key} {'exit ' + str(rc) if rc is not None else 'timed out'}: "
                      f"{' | '.join(tail)})")
                tally["not checked"] += 1
                continue
            diff = git("diff", "--numstat", "--", path).stdout.split()
            if diff:
                print(f"{path}: DIFFERS (+{diff[0]} -{diff[1]} lines; {key}, {took:.0f} s)")
                tally["differ"] += 1
                failed = True
            else:
                print(f"{path}: reproduced ({key}, {took:.0f} s)")
                tally["reproduced"] += 1
        failed |= rc != 0
        if not a.keep:
            git("checkout", "--", *paths)
    print(f"{tally['reproduced']} reproduced, {tally['differ']} differ, {tally['not checked']} not checked")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
