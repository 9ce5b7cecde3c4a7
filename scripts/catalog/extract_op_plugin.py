#!/usr/bin/env python3
"""op-plugin's ERROR-level messages -> kb/messages/op_plugin.yaml (Ascend/op-plugin: the NPU
implementations of PyTorch operators that torch_npu loads), as docs/kb-messages.md describes.

What is read (op_plugin/; tests, docs, examples and code generators left out):
- the C++ operator code, read as extract_torch_npu.py reads torch_npu's: TORCH_CHECK family
  (raised to Python as RuntimeError ...), NPU_CHECK_ERROR / OPS_CHECK_ERROR call failures,
  ASCEND_LOGE;
- the Python meta registrations (graph mode and fake tensors): torch._check(cond, lambda:
  "...") raises RuntimeError with the message; raise X("...").
The OPS_ERROR(ErrCode.X) / ops_error(ErrCode.X) suffix starts a new line and is left out.

Categories (docs/kb-authoring.md): a check on the shape, rank, size or value of an operator's
inputs is compile_shape (what the aclnn parameter errors EZ1001/161002 are); a dtype, format,
SoC or feature the operator does not implement is compile_op_unsupported; a missing aclnn
function or an old CANN is install_version_mismatch; memory; the rest (internal state) other.

Usage: extract_op_plugin.py [--mirrors /work/.mirror] [--doctor build/src/npu-doctor]
"""
import ast
import collections
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402
import extract_torch_npu as T  # noqa: E402

ROOT = T.ROOT

SOURCE = dict(key="op_plugin", component="op-plugin", repo="Ascend/op-plugin", family="src-op-plugin",
              mirror="Ascend+op-plugin", commit="517f2e7d0f202f38b76310706cb977ca2388ad21",
              out="kb/messages/op_plugin.yaml")

INCLUDE = re.compile(r"^op_plugin/")
EXCLUDE = re.compile(r"(^|/)(test|tests|docs|examples|codegen|torchnpugen|third_party)(/|$)")

CATEGORY_RULES = R.Rules([
    ("internal-assert", r"INTERNAL ASSERT FAILED", "other"),
    # The aclnn entry point is not in the installed CANN: an older CANN than this op-plugin.
    ("missing-api", r"aclnn\w* (?:\w+ )?not found|(?:api|function|symbol|func ?addr)\w* (?:\w+ ){0,3}not found|not found\W+(?:\w+\W+){0,3}(?:cann|version)|"
                    r"failed to find function|GetWorkspaceSize|upgrade (?:the )?cann|cann (?:version|package)|"
                    r"version\w* (?:is )?(?:too low|not support|mismatch)|please (?:upgrade|update|install)", "install_version_mismatch"),
    ("memory", r"out of memory|\boom\b|(?:alloc|malloc)\w* (?:\w+ )?fail|memory (?:is )?(?:not enough|insufficient)|workspace size", "memory"),
    # Multi-card operators (MC2, MoE dispatch) check the world size and ranks they were given.
    ("rank-config", r"(?:ep_|tp_|moe_)?world_?size\W*(?:should|must|is|=|\[)(?!.*divisible)|(?:ep_|tp_)?rank_?id\W*(?:should|must)|"
                    r"shared_expert_rank_num|\brank_?num\b|\bgroup_?(?:ep|tp)\b", "rank_config"),
    ("nan-overflow", r"\bnan\b|\binf\b|overflow (?:detected|occurs?)|integer overflow|divi(?:de|sion) by zero", "compute_overflow_nan"),
    # What the operator does not implement: dtypes, formats, SoCs, modes.
    ("unsupported", r"not (?:yet |currently )?support|unsupport|only supports?\b|does ?n[o']t support|not implemented|"
                    r"is not available (?:on|for|in)|cannot (?:be )?support|current (?:device|soc|platform|chip)", "compile_op_unsupported"),
    ("dtype", r"(?<![A-Za-z])d(?:ata)? ?type|dtype|scalar ?type|(?-i:ScalarType)|\bfloat(?:16|32|64)\b|bfloat16|\bint(?:4|8|16|32|64)\b|"
              r"\buint8\b|hifloat8|float8|fp8|fp16|bf16|\bformat\b|\bnz\b|fractal|\bnd\b|npu_format|acl_format|"
              r"quant(?:ize)? (?:mode|type)|(?:310|910|950)\w*|\bsoc\b|\bchip\b|ascend\w*", "compile_op_unsupported"),
    # Inputs whose shape, size, rank or value the operator rejects.
    ("shape", r"shape|\bsize|\bdims?\b|dimension|\b\d+-?d\b|\bd tensor|numel|stride|contiguous|broadcast|length|"
              r"\baxis|layout|\bbatch|out of bounds?|\bbounds?\b|\bheads?\b|head_?num|head_?dim|seq_?len|\bmust\b|should|expect|equal|greater|less|"
              r"larger|smaller|range|invalid|illegal|positive|negative|divisible|multiple of|empty|same|match|mode|value|"
              r"parameter|param\b|argument|input|output|weight|bias|scale|offset|tensor", "compile_shape"),
])


def classify(msg, err, kind):
    rule, cat = CATEGORY_RULES.first(msg)
    why = rule
    if cat is None and err:
        cat, why = {"NOT_SUPPORT": "compile_op_unsupported", "TYPE": "compile_op_unsupported",
                    "MEMORY": "memory", "PARAM": "compile_shape", "VALUE": "compile_shape"}.get(err[1], "other"), "err:" + err[1]
    if cat is None:
        cat, why = "other", "default"
    role = "cause"
    if kind == "call-check" or (T.WRAPPER.search(msg) and not T.CAUSE_WORDS.search(msg)):
        role = "wrapper"
        if rule in (None, "shape"):
            # "X failed, error code is N": says nothing about the inputs; the code decides.
            cat, why = "other", "wrapper"
    return cat, role, why


def read_py(text):
    """torch._check(cond, lambda: "...") in the meta registrations: RuntimeError."""
    out = []
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None
        if name not in ("_check", "_check_value", "_check_type", "_check_index") or len(node.args) < 2:
            continue
        msg = node.args[1]
        if isinstance(msg, ast.Lambda):
            msg = msg.body
        fmt = L._py_format(msg)
        if fmt is None:
            continue
        err = T.py_err_of(msg)
        if err and fmt.endswith("{}"):
            fmt = fmt[:-2]
        cls = {"_check": "RuntimeError", "_check_value": "ValueError", "_check_type": "TypeError",
               "_check_index": "IndexError"}[name]
        out.append(dict(fmt=fmt, kind="py-raise", classes=[cls], err=err, line=node.lineno, style="python"))
    for c in T.read_py(text):
        out.append(c)
    return out


def read_source(repo, rev):
    files = [f for f in L.list_files(repo, rev, (".cpp", ".cc", ".h", ".hpp", ".py"))
             if INCLUDE.search(f) and not EXCLUDE.search(f)]
    calls, not_literal = [], 0
    for path in sorted(files):
        text = L.read_file(repo, path, rev)
        if path.endswith(".py"):
            found = read_py(text)
        else:
            found, nl = T.read_cpp(repo, rev, path, text)
            not_literal += nl
        for c in found:
            c["path"] = path
            c.setdefault("style", "printf")
            calls.append(c)
    return calls, not_literal, len(files)


def build(calls, overrides):
    by_key = collections.OrderedDict()
    for c in calls:
        by_key.setdefault((c["fmt"], c["style"]), []).append(c)
    skipped, entries, seen, whys = collections.Counter(), [], set(), collections.Counter()
    for (fmt, style), sites in by_key.items():
        # The C++ site is what eager mode raises; the meta registration repeats it for graphs.
        site = min(sites, key=lambda s: (s["kind"].startswith("py"), s["path"], s["line"]))
        raised = sorted({k for s in sites for k in s.get("classes", [])}, key=lambda k: (k != "RuntimeError", k)) \
            if site["kind"] in ("raise", "call-check", "py-raise") else []
        regex, _ = L.pattern_of(fmt, style, tuple(raised))
        if regex is None or R.too_generic(fmt, style):
            skipped["too_generic"] += 1
            continue
        err = next((s["err"] for s in sites if s.get("err")), None)
        if site["kind"] == "call-check":
            cat, role, why = T.classify_call_check(site["what"]), "wrapper", "call-check"
        else:
            cat, role, why = classify(fmt, err, site["kind"])
        whys[why] += 1
        e = dict(id=R.unique_id(SOURCE["family"], fmt, style, seen), format=fmt, category=cat, role=role)
        if style != "printf":
            e["format_style"] = style
        if raised:
            e["level"] = "any"
            e["raised_as"] = raised
        e["title"] = R.generated_title("op-plugin", fmt, style)
        e["references"] = [L.blob_url(SOURCE["repo"], SOURCE["commit"], site["path"], site["line"])]
        e["samples"] = [T.sample_line(site, L.fill(fmt, style))]
        e["_why"] = why
        entries.append(e)
    for e in entries:
        ov = overrides.get(e["id"])
        if ov:
            R.apply_override(e, ov)
    return entries, skipped, len(by_key), whys


def main():
    args = T.extractor_args(__doc__)
    src = SOURCE
    overrides = R.load_overrides(os.path.join(ROOT, "scripts", "catalog", "overrides", "op_plugin.yaml"))
    read = T.read_cached(args, os.path.join(args.mirrors, src["mirror"], "repo"), src["commit"], "op_plugin", read_source)
    entries = T.write_catalogue(
        args, src, build(read[0], overrides), read, overrides,
        "ERROR-level messages of op-plugin (Ascend/op-plugin), the NPU operator implementations torch_npu "
        "loads: TORCH_CHECK-style input checks raised to Python, NPU_CHECK_ERROR / OPS_CHECK_ERROR call "
        "failures, and the meta registrations' torch._check messages. Generated by "
        "scripts/catalog/extract_op_plugin.py; texts of the frequent ones in scripts/catalog/overrides/op_plugin.yaml.",
        dict(layer="operator", category="compile_shape"))
    if not R.check_overrides(overrides, entries, "scripts/catalog/overrides/op_plugin.yaml"):
        sys.exit(1)


if __name__ == "__main__":
    main()
