#!/usr/bin/env python3
"""The CANN operator libraries' ERROR-level checks -> one file per repository (docs/kb-messages.md):

  kb/messages/ops_opbase.yaml       src-opbase       hicann/opbase: the aclnn framework (nnopbase: executor,
                                                     tensor and launch checks) and the shared operator helpers
  kb/messages/ops_nn.yaml           src-ops-nn       hicann/ops-nn
  kb/messages/ops_math.yaml         src-ops-math     hicann/ops-math
  kb/messages/ops_transformer.yaml  src-ops-transformer  hicann/ops-transformer

What is read: the host side that users' calls go through: `op_api/` (the aclnn entry points and their
parameter checks: OP_CHECK / OP_LOGE / CHECK_RET / OP_CHECK_DTYPE_NOT_SUPPORT ...), `op_host/` (tiling
and shape inference: OP_LOGE(context->GetNodeName(), ...), OP_CHECK_IF, VECTOR_INNER_ERR_REPORT_TILIING,
OP_LOGE_FOR_INVALID_* ...), `op_graph/` (graph-mode shape inference) and the shared host code
(`common/`, opbase's `src/` and headers). Left out: device kernels (`op_kernel*/`), `experimental/`,
examples, tests, stubs, vendored copies (`3rd/`) and build scripts. opbase's headers define the
macros for all four (they are read for that in every run; only each repository's own calls count).

ERROR level: the call reaches DlogRecord / DlogRecordInner at DLOG_ERROR / OP_LOG_ERROR under the plog
module OP (aclnn: "[file:line][NNOP][func][tid] errno[161002] OpName:[aclnnX] <text>"; host side:
"[file:line][OPS_BASE][func][tid] OpName:[Type:name] <text>"), or the error manager (OP_LOGE reports
its text: EZ1001 for a parameter error, EZ9999 inner ... "AclNN_Parameter_Error(EZ1001): <text>";
REPORT_INNER_ERR_MSG): then `level: any` (kept only with a gate word, catalog_lib.gate_policy). The macro layers are expanded (c_macro_expand.py); the fixed
texts of the OP_LOGE_FOR_INVALID_* / OP_CHECK_DTYPE_* macros are one format each.

Usage: extract_ops.py [--repo NAME ...] [--doctor build/src/npu-doctor] [--dump-tsv FILE] [--cache DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_macro_expand as cme  # noqa: E402
import cann_source  # noqa: E402
import catalog_lib as L  # noqa: E402
import ge_ops_common as C  # noqa: E402
import ops_rules  # noqa: E402

REPOS = [
    dict(repo="hicann/opbase", family="src-opbase", out="kb/messages/ops_opbase.yaml",
         component="opbase (aclnn framework)"),
    dict(repo="hicann/ops-nn", family="src-ops-nn", out="kb/messages/ops_nn.yaml", component="ops-nn"),
    dict(repo="hicann/ops-math", family="src-ops-math", out="kb/messages/ops_math.yaml", component="ops-math"),
    dict(repo="hicann/ops-transformer", family="src-ops-transformer", out="kb/messages/ops_transformer.yaml",
         component="ops-transformer"),
]

E, O = C.E, C.O
SINKS = [
    cme.Sink("DlogRecord", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("DlogRecordInner", fmt=2, level=("arg", 1), module=("arg", 0)),
    cme.Sink("dlog_error", fmt=1, module=("arg", 0)),
    cme.Sink("dlog_warn", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_info", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_debug", fmt=1, level=("const", O), module=("arg", 0)),
    # The error manager: OP_LOGE's ReportErrorMessage (EZ1001 / EZ9903 / EZ9999 by the aclnn status),
    # REPORT_INNER_ERR_MSG.
    cme.Sink("ReportErrorMessage", fmt=1),
    cme.Sink("ReportErrorMessageInner", fmt=1),
    cme.Sink("REPORT_INNER_ERR_MSG", fmt=1),
    cme.Sink("REPORT_INNER_ERROR", fmt=1),
    cme.Sink("REPORT_CALL_ERROR", fmt=1),
]
LEVEL_WORDS = {"DLOG_ERROR": E, "OP_LOG_ERROR": E, "DLOG_WARN": O, "DLOG_INFO": O, "DLOG_DEBUG": O, "DLOG_EVENT": O,
               "OP_LOG_WARN": O, "OP_LOG_INFO": O, "OP_LOG_DEBUG": O, "OP_LOG_EVENT": O}
ALIASES = {"OP_MODULE_ID": "OP", "OP_ID": "OP"}

COUNTED_DIRS = ("op_api", "op_host", "op_graph", "common")
NOT_COUNTED = {"op_kernel", "op_kernel_aicpu", "experimental", "3rd", "scripts", "cmake", "torch_extension"}


def counted(repo, path):
    if path.startswith("_opbase/") or not C.is_product(path):
        return False
    parts = path.split("/")
    if any(p in NOT_COUNTED for p in parts):
        return False
    if repo == "hicann/opbase":
        return parts[0] in ("src", "include", "pkg_inc")
    return any(p in COUNTED_DIRS for p in parts[:-1])


def read_sources(repo):
    """The repository's files (tests left out) and, for the operator libraries, opbase's headers."""
    def keep(p):
        return "tests" not in p.split("/") and not p.startswith("tests/")
    files = cann_source.read_tree(C.mirror(repo), keep)
    if repo != "hicann/opbase":
        base = cann_source.read_tree(C.mirror("hicann/opbase"), lambda p: keep(p) and p.endswith((".h", ".hpp")))
        files.update({"_opbase/" + p: t for p, t in base.items()})
    return files


def errno_of(place):
    """The aclnn status an opdev OP_LOGE(errno, ...) call passes, if literal."""
    if place.macro in ("OP_LOGE", "OP_LOGE_WITHOUT_REPORT", "CHECK_COND", "CHECK_RET_CODE") and place.args:
        return place.args[0].strip()
    return None


ERRNO_VALUES = {"ACLNN_ERR_PARAM_NULLPTR": 161001, "ACLNN_ERR_PARAM_INVALID": 161002,
                "ACLNN_ERR_RUNTIME_ERROR": 361001, "ACLNN_ERR_INNER": 561000}
REPORT_CODE = {"1": "EZ1001", "3": "EZ9903", "5": "EZ9999"}


def sample_lines(f):
    message = L.fill(f.format)
    out = []
    logged = next((p for p in f.places if p.logged), None)
    if logged:
        errno = ERRNO_VALUES.get(errno_of(logged) or "", None)
        out.append(C.op_line(logged, message, errno))
    # A text that is also logged gets `level: error` (its plog line); only a text that is never
    # logged is shown in its TraceBack form, which has no level.
    reported = next((p for p in f.places if p.reported), None)
    if reported and not logged:
        errno = ERRNO_VALUES.get(errno_of(reported) or "", None)
        code = reported.report_code or (REPORT_CODE.get(str(errno)[0]) if errno else None) or "EZ9999"
        out.append(C.report_line(code, message, reported.function, reported.path, reported.line))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", action="append", help="only these repositories (hicann/ops-nn ...)")
    ap.add_argument("--doctor", default=os.path.join(C.ROOT, "build/src/npu-doctor"),
                    help="npu-doctor binary, to find the lines a hand-written entry already claims")
    ap.add_argument("--texts", default=os.path.join(C.ROOT, "scripts/catalog/overrides/ops.texts.yaml"))
    ap.add_argument("--dump-tsv", help="also write every entry with its rule and place (for review)")
    ap.add_argument("--cache", help="directory of pickles of the collected formats (read if there, else written)")
    a = ap.parse_args()
    texts = C.load_texts(a.texts)
    # A text GE, metadef or an earlier operator library already has is counted as a duplicate here.
    elsewhere = set(C.known_formats("ge.yaml", "ge_engines.yaml", "metadef.yaml"))
    for src in REPOS:
        if a.repo and src["repo"] not in a.repo and os.path.exists(os.path.join(C.ROOT, src["out"])) and \
                REPOS.index(src) < max(REPOS.index(s) for s in REPOS if s["repo"] in a.repo):
            elsewhere |= C.known_formats(os.path.basename(src["out"]))
    done = []
    for src in REPOS:
        if a.repo and src["repo"] not in a.repo:
            continue
        repo = src["repo"]
        commit = L.head_commit(C.mirror(repo))
        cache = os.path.join(a.cache, src["family"] + ".pkl") if a.cache else None
        formats, stats = C.formats_of(C.cached(cache, lambda: C.collect(
            read_sources(repo), SINKS, LEVEL_WORDS, lambda p: "OP", counted=lambda p: counted(repo, p),
            extra_aliases=ALIASES)))
        entries, skipped = C.build_entries(formats, commit, repo, src["family"], ops_rules.RULES,
                                           lambda m: src["component"], sample_lines,
                                           elsewhere=frozenset(elsewhere))
        elsewhere |= {e["format"] for e in entries}
        done.append((src, commit, formats, stats, entries, skipped))
    everything = [e for d in done for e in d[4]]
    full = C.apply_texts(everything, texts, a.texts, families=[d[0]["family"] for d in done] if a.repo else None)
    claimed = C.agree_with_curated(everything, a.doctor)
    C.finish(everything, a.dump_tsv)
    for src, commit, formats, stats, entries, skipped in done:
        C.write(os.path.join(C.ROOT, src["out"]), src["family"],
                f"ERROR-level checks of {src['component']} ({src['repo']}): aclnn parameter checks (op_api), tiling "
                "and shape inference (op_host, op_graph) and the shared host code; plog module OP and the error "
                "manager (EZ1001 / EZ9999). Generated by scripts/catalog/extract_ops.py.",
                src["component"], src["repo"], commit, len(formats), skipped, "operator", entries)
        print(f"{src['out']}: {len(entries)} entries from {len(formats)} formats, skipped {skipped}; "
              f"{stats['calls']} calls ({stats['non_literal']} non-literal)", file=sys.stderr)
    print(f"{full} entries with full texts; {claimed} samples claimed by hand-written entries", file=sys.stderr)


if __name__ == "__main__":
    main()
