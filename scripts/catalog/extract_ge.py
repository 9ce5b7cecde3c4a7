#!/usr/bin/env python3
"""GE's ERROR-level messages -> kb/messages/ge.yaml and kb/messages/ge_engines.yaml, as
docs/kb-messages.md describes.

Source: hicann/ge (graph engine, ATC, the compiler's engines, the executors, AscendCL's model and
operator API, data flow), read with the macros of hicann/metadef (GELOGE, GE_ASSERT ... live in
metadef's pkg_inc). Test, stub, example and documentation trees are left out.

ERROR level means a call that reaches one of GE's leaf log macros at error level:
  GELOGE / GE_LOGE / DOMI_LOGE / LLMLOGE (plog module GE), GE_ASSERT* / LOWER_REQUIRE / FE_ASSERT ...
  (their message is logged with GELOGE and reported), FE_LOGE (FE), FFTS_LOGE (FFTS), TE_ERRLOG /
  TE_FUSION_LOG(TE_FUSION_LOG_ERROR) (TEFUSION), ACL_LOG_*ERROR (ASCENDCL), HCCL_ERROR in the
  HCCL graph engine (HCCL), AICPUE_LOGE (AICPU), RTS_LOGE (RUNTIME), UDF_LOG_ERROR (UDF),
  DVPP_ENGINE_LOG_ERROR (DVPP), or the error manager (REPORT_INNER_ERR_MSG: the text shows in the
  exception's error block, `level: any`; kept only when a gate word makes
  it cheap to scan, catalog_lib.gate_policy). The wrapper layers (GE_CHK_STATUS_RET, GE_CHK_BOOL_EXEC,
  REPORT_FE_ERROR ...) are expanded, not listed (c_macro_expand.py).
The E-codes GE reports with REPORT_PREDEFINED_ERR_MSG print their catalogued messages: those are
in kb/messages/ge_error_codes.yaml (extract_ge_error_codes.py).

Two files (each under ~15k entries): kb/messages/ge.yaml (family src-ge: plog module GE) and
kb/messages/ge_engines.yaml (family src-ge-engines: FE, TEFUSION, FFTS, AICPU, HCCL, RUNTIME,
DVPP, ASCENDCL, UDF).

Usage: extract_ge.py [--doctor build/src/npu-doctor] [--dump-tsv FILE] [--cache FILE]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c_macro_expand as cme  # noqa: E402
import cann_source  # noqa: E402
import catalog_lib as L  # noqa: E402
import ge_ops_common as C  # noqa: E402
import ge_rules  # noqa: E402


REPO = "hicann/ge"
METADEF = "hicann/metadef"

E, O = C.E, C.O
SINKS = [
    # GE: "%lu %s: ErrorNo: %u(%s)" fmt
    cme.Sink("GELOGE", fmt=1, module=("const", "GE")),
    cme.Sink("GE_LOG_ERROR", fmt=2, module=("arg", 0)),
    cme.Sink("LLMLOGE", fmt=1, module=("const", "GE")),
    cme.Sink("DFLOW_LOGE", fmt=0, module=("const", "GE")),
    # The assert family (GE_ASSERT, LOWER_REQUIRE, FE_ASSERT, ASCIR_ASSERT, LLM_ASSERT ...): the
    # optional message is built by CreateErrorMsg(__VA_ARGS__), reported and logged with GELOGE.
    cme.Sink("CreateErrorMsg", fmt=0, module=("const", "GE+report")),
    cme.Sink("LlmCreateErrorMsg", fmt=0, module=("const", "GE+report")),
    # ... except these, which log their message at WARNING or to stderr at build time.
    cme.Sink("GE_WARN_ASSERT", fmt=1, level=("const", O)),
    cme.Sink("GE_UNSUPPORTED_IF_NULL", fmt=1, level=("const", O)),
    cme.Sink("ES_ASSERT", fmt=2, level=("const", O)),
    # The engines and the other modules GE holds.
    cme.Sink("D_FE_LOGE", fmt=1, module=("const", "FE")),
    cme.Sink("D_FFTS_LOGE", fmt=1, module=("const", "FFTS")),
    cme.Sink("TE_FUSION_LOG", fmt=1, level=("arg", 0), module=("const", "TEFUSION")),
    cme.Sink("TE_FUSION_LOG_FULL", fmt=1, level=("arg", 0), module=("const", "TEFUSION")),
    cme.Sink("ACL_LOG_ERROR", fmt=0, module=("const", "ASCENDCL")),
    cme.Sink("ACL_LOG_INNER_ERROR", fmt=0, module=("const", "ASCENDCL+report")),
    cme.Sink("ACL_LOG_CALL_ERROR", fmt=0, module=("const", "ASCENDCL+report")),
    cme.Sink("HCCL_ERROR", fmt=0, module=("const", "HCCL")),
    cme.Sink("AICPUE_LOGE", fmt=0, module=("const", "AICPU")),
    cme.Sink("AICPU_REPORT_INNER_ERR_MSG", fmt=0, module=("const", "AICPU+report")),
    cme.Sink("RTS_LOGE", fmt=0, module=("const", "RUNTIME")),
    cme.Sink("RTS_REPORT_INNER_ERROR", fmt=0, module=("const", "RUNTIME+report")),
    cme.Sink("RTS_REPORT_CALL_ERROR", fmt=0, module=("const", "RUNTIME+report")),
    cme.Sink("UDF_LOG_ERROR", fmt=0, module=("const", "UDF")),
    cme.Sink("UDF_RUN_LOG_ERROR", fmt=0, module=("const", "UDF")),
    cme.Sink("FLOW_FUNC_LOG_ERROR", fmt=0, module=("const", "UDF")),
    cme.Sink("DVPP_ENGINE_LOG_ERROR", fmt=0, module=("const", "DVPP")),
    cme.Sink("D_GRAPH_LOGE", fmt=1, module=("const", "FMK")),
    # Raw dlog calls left over.
    cme.Sink("dlog_error", fmt=1, module=("arg", 0)),
    cme.Sink("dlog_warn", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_info", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_debug", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("dlog_event", fmt=1, level=("const", O), module=("arg", 0)),
    cme.Sink("DlogRecord", fmt=2, level=("arg", 1), module=("arg", 0)),
    # The error manager.
    cme.Sink("REPORT_INNER_ERR_MSG", fmt=1),
    cme.Sink("REPORT_INNER_ERROR", fmt=1),
]
LEVEL_WORDS = {"DLOG_ERROR": E, "TE_FUSION_LOG_ERROR": E, "TE_FUSION_LOG_FATAL": E,
               "DLOG_WARN": O, "DLOG_INFO": O, "DLOG_DEBUG": O, "DLOG_EVENT": O,
               "TE_FUSION_LOG_DEBUG": O, "TE_FUSION_LOG_INFO": O, "TE_FUSION_LOG_WARNING": O}


def default_module(path):
    """The plog module of a call whose sink does not say (a report alone)."""
    for prefix, module in (("compiler/engines/nn_engine/", "FE"), ("compiler/engines/ffts_engine/", "FFTS"),
                           ("compiler/opcompiler/op_compile_adapter/", "TEFUSION"), ("api/acl/", "ASCENDCL"),
                           ("compiler/engines/hccl_engine/", "HCCL"), ("compiler/engines/cpu_engine/", "AICPU"),
                           ("compiler/engines/rts_engine/", "RUNTIME"), ("dflow/udf/", "UDF"),
                           ("compiler/engines/dvpp_engine/", "DVPP")):
        if path.startswith(prefix):
            return module
    return "GE"


def read_sources():
    """GE's files (tests left out) and metadef's, whose headers define GELOGE, GE_ASSERT ...
    (only GE's calls are counted)."""
    files = cann_source.read_tree(C.mirror(REPO), lambda p: "/tests/" not in "/" + p and not p.startswith("tests/"))
    md = cann_source.read_tree(C.mirror(METADEF), C.is_product)
    files.update({"_metadef/" + p: t for p, t in md.items()})
    return files


LABELS = {"GE": "GE", "FE": "FE", "FFTS": "FFTS", "TEFUSION": "TEFUSION", "ASCENDCL": "AscendCL", "HCCL": "HCCL (GE)",
          "AICPU": "AI CPU engine", "RUNTIME": "RTS engine", "UDF": "UDF", "DVPP": "DVPP engine", "FMK": "GE"}


def label(module):
    return LABELS.get(module, module or "GE")


def sample_lines(f):
    message = L.fill(f.format)
    out = []
    logged = next((p for p in f.places if p.logged), None)
    if logged:
        out.append(C.logged_line(logged.module, logged, message))
    # A text that is also logged gets `level: error` (its plog line); only a text that is never
    # logged is shown in its TraceBack form, which has no level.
    reported = next((p for p in f.places if p.reported), None)
    if reported and not logged:
        out.append(C.report_line(reported.report_code or "E19999", message, reported.function, reported.path,
                                 reported.line))
    return out


# The two files: GE's own module, and the engines and APIs GE holds that print under other modules.
SPLIT = [
    dict(out="kb/messages/ge.yaml", family="src-ge", component="GE", modules={"GE", "FMK"},
         what="GE itself (plog module GE): the graph engine and ATC, graph compilation and optimisation, the "
              "model executors, sessions, data flow and LLM-DataDist"),
    dict(out="kb/messages/ge_engines.yaml", family="src-ge-engines", component="GE engines and AscendCL model API",
         modules=None,
         what="the engines and APIs in hicann/ge that print under their own plog module: FE (AI Core operator "
              "selection and fusion), TEFUSION (the operator compile adapter), FFTS, the AI CPU, HCCL, RTS and DVPP "
              "graph engines, AscendCL's model and operator API (ASCENDCL) and data-flow user functions (UDF)"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doctor", default=os.path.join(C.ROOT, "build/src/npu-doctor"),
                    help="npu-doctor binary, to find the lines a hand-written entry already claims")
    ap.add_argument("--texts", default=os.path.join(C.ROOT, "scripts/catalog/overrides/ge.texts.yaml"))
    ap.add_argument("--dump-tsv", help="also write every entry with its rule, module and place (for review)")
    ap.add_argument("--cache", help="pickle of the collected formats (read if it exists, else written)")
    a = ap.parse_args()
    commit = L.head_commit(C.mirror(REPO))
    formats, stats = C.formats_of(C.cached(a.cache, lambda: C.collect(
        read_sources(), SINKS, LEVEL_WORDS, default_module,
        counted=lambda p: not p.startswith("_metadef/") and C.is_product(p))))
    texts = C.load_texts(a.texts)
    all_entries = []
    for part in SPLIT:
        own = SPLIT[0]["modules"]
        mine = {t: f for t, f in formats.items() if (f.module in own) == (part["modules"] is own)}
        entries, skipped = C.build_entries(mine, commit, REPO, part["family"], ge_rules.RULES, label, sample_lines)
        part.update(entries=entries, skipped=skipped, found=len(mine))
        all_entries += entries
    full = C.apply_texts(all_entries, texts, a.texts)
    claimed = C.agree_with_curated(all_entries, a.doctor)
    C.finish(all_entries, a.dump_tsv)
    for part in SPLIT:
        C.write(os.path.join(C.ROOT, part["out"]), part["family"],
                f"ERROR-level messages of {part['what']} (hicann/ge, with hicann/metadef's log macros). Generated by "
                "scripts/catalog/extract_ge.py.",
                part["component"], REPO, commit, part["found"], part["skipped"], "compiler", part["entries"])
        print(f"{part['out']}: {len(part['entries'])} entries from {part['found']} formats, skipped "
              f"{part['skipped']}", file=sys.stderr)
    print(f"{stats['calls']} ERROR-level calls ({stats['non_literal']} with no literal format); {full} entries with "
          f"full texts; {claimed} samples claimed by hand-written entries", file=sys.stderr)


if __name__ == "__main__":
    main()
