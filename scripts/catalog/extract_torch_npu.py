#!/usr/bin/env python3
"""torch_npu's ERROR-level messages -> kb/messages/torch_npu.yaml (Ascend/pytorch), as
docs/kb-messages.md describes; and kb/messages/torch_npu_v7_0.yaml, _v6_0, _v5_0: the formats
of those releases that no newer code prints and no newer entry recognises (LEGACY below).

What is read (tests, examples, benchmarks and docs left out):
C++ (torch_npu/csrc):
- TORCH_CHECK / TORCH_CHECK_WITH / _VALUE / _TYPE / _NOT_IMPLEMENTED / AT_ERROR /
  TORCH_INTERNAL_ASSERT with a message / C10_THROW_ERROR / throw std::runtime_error(...):
  c10::Error reaches Python as RuntimeError (OutOfMemoryError, ValueError ... for the
  others), so these are `raised_as`; a message held in a local variable (`auto retmsg =
  std::string("NPU out of memory...") + ...`) is followed to its assignment;
- NPU_CHECK_ERROR(call) and its twins (OPS_, HCCL_CHECK_ERROR): "NPU function error: <call>,
  error code is N", one format per call site, wrappers (the code says what failed);
- ASCEND_LOGE(fmt, ...): plog module APP with "[PTA]:"; TORCH_NPU_LOGE and the
  TORCH_NPU_*_LOGE macros built on it: a glog-style "E0302 ... file:line] " line on stderr;
  LOG(ERROR) << ...: c10 logging's "[E302 ... file:line] " line (c10 writes the month unpadded,
  "[rank0]:[E302 10:55:12.313101248 ...]" on 2 March).
Python (torch_npu/):
- raise X("...") (raised_as [X]) and logger.error / logger.exception (level error); the
  "+ pta_error(ErrCode.X)" suffix starts a new line and is left out of the format.

Usage: extract_torch_npu.py [--mirrors /work/.mirror] [--doctor build/src/npu-doctor]
"""
import argparse
import ast
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import c10_messages as C  # noqa: E402
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

SOURCE = dict(key="torch_npu", component="torch_npu", repo="Ascend/pytorch", family="src-torch-npu",
              mirror="Ascend+pytorch", commit="9e73e708ab9350d203475609f36f8a43f6a0c2ab",
              out="kb/messages/torch_npu.yaml")

INCLUDE = re.compile(r"^torch_npu/")
EXCLUDE = re.compile(r"(^|/)(test|tests|testing|examples|benchmarks|docs|third_party)(/|$)")

CHECK_RE = "|".join(re.escape(m) for m in C.CHECKS) + "|" + "|".join(re.escape(m) for m in C.CALL_CHECKS)
PLOG_RE = r"ASCEND_LOGE"
NPULOG_RE = r"TORCH_NPU_LOGE|TORCH_NPU_MEMORY_LOGE|TORCH_NPU_HCCL_LOGE|NPUGRAPH_LOGE"
THROW_RE = r"C10_THROW_ERROR|throw\s+std::(?:runtime_error|invalid_argument|out_of_range|logic_error|length_error|domain_error|range_error|overflow_error)"
STD_EXC = {"runtime_error": ["RuntimeError"], "invalid_argument": ["ValueError"], "out_of_range": ["IndexError"],
           "logic_error": ["RuntimeError"], "length_error": ["ValueError"], "domain_error": ["ValueError"],
           "range_error": ["ValueError"], "overflow_error": ["OverflowError"]}
# Exceptions torch_npu raises to steer its own code and catches again (the Inductor fast-launch
# and grouped-plan fallbacks, unittest skips, warnings): they never reach the user as an error.
CONTROL_FLOW = {"FastLaunchPlanUnavailable", "UnsupportedGroupedPlan", "SkipTest", "StopIteration", "RuntimeWarning",
                "_error"}
PY_ERR_HELPERS = {"pta_error": "PTA", "ops_error": "OPS", "dist_error": "DIST", "graph_error": "GRAPH", "prof_error": "PROF"}

# ---------------------------------------------------------------------------------------------
# Categories: first matching rule over the message (docs/kb-authoring.md), then the torch_npu
# error code the message carries, then where the code lives.

CATEGORY_RULES = R.Rules([
    # An assertion about torch_npu's own state: a bug to report, nothing for the user to set.
    ("internal-assert", r"INTERNAL ASSERT FAILED", "other"),
    # A function missing from the CANN / driver libraries torch_npu loads: they are older than
    # this torch_npu (AclInterface.cpp: "Failed to find function X").
    ("missing-function", r"failed to find function|cannot find function|function \w+ (?:is )?not found|"
                         r"maybe (?:you|your) (?:cann|hdk|driver)\w* version is too low", "install_version_mismatch"),
    # Allocator and other settings the user gave in environment variables.
    ("setting", r"allocator config|allocator option|CachingAllocator option|ALLOC_CONF|segment_size_mb|"
                r"environment variable|\benv(?:ironment)? var", "other"),
    # Peers and collectives that did not finish in time: the first failing rank is elsewhere.
    ("peer-timeout", r"watchdog|timed? ?out|timeout|heartbeat|hang\b|hung\b", "communication"),
    ("memory", r"out of memory|\boom\b|memory (?:is )?(?:not enough|insufficient|exhausted)|(?:not enough|insufficient) (?:device |npu )?memory|"
               r"alloc\w* (?:\w+ )?(?:fail|error)|fail\w* to alloc|malloc|max_split_size|memory pool|mem ?pool|"
               r"exceed\w* (?:the )?(?:\w+ )?memory|per_process_memory_fraction|workspace (?:size|memory)|huge ?page|"
               r"(?:allocate|allocating|reserve) \w* ?(?:memory|block)", "memory"),
    ("nan-overflow", r"\bnan\b|\binf\b|overflow (?:detected|occurs?|happen)|float(?:ing)?[- ]point (?:overflow|exception)|infinite", "compute_overflow_nan"),
    ("aicore", r"ai ?core|aicpu|ai cpu|aiv\b|vector core|kernel (?:exception|error|execution)|task exception|device task abort", "aicore_exception"),
    ("device-fault", r"hbm|\becc\b|\buce\b|device mem error|suspect (?:device|remote)|link error|hccs|device (?:is )?(?:lost|fault|down|abnormal)|"
                     r"driver|firmware|\bdcmi|\bdsmi|npu-smi|aclInit|acl init|initiali[sz]e (?:npu|device|acl)|"
                     r"set ?device|(?:npu|device) (?:init|initiali[sz]ation) (?:fail|error)|soc ?version|get (?:device|soc)", "driver_firmware_env"),
    ("install", r"version|\bcann\b|not installed|no module|import\w* (?:error|fail)|cannot import|\.so\b|shared object|"
                r"undefined symbol|please (?:upgrade|install|update)|upgrade (?:the )?(?:cann|torch|package|driver)|"
                r"incompatib|ASCEND_\w*(?:HOME|PATH)|set_env\.sh|ascend-toolkit|toolkit|opp\b|op ?api (?:lib|so)|"
                r"(?:not|cannot) (?:be )?(?:found|find|load)\w* (?:\w+ )?(?:lib|library|symbol|function|api)|GetOpApiFuncAddr|"
                r"torch(?:_npu)? (?:and|&) torch", "install_version_mismatch"),
    ("permission", r"permission|access denied|not permitted|\bbusy\b|occupied|already (?:in use|used by)|"
                   r"no (?:npu|device)s? (?:is |are )?(?:available|visible|found)|device count is (?:0|zero)", "permission_device"),
    ("not-supported", r"not (?:yet |currently )?support|unsupport|only supports?|not implemented|notimplemented|does ?n[o']t support|"
                      r"is not available (?:on|for|in)|cannot (?:be )?support", "compile_op_unsupported"),
    ("rank-config", r"\brank|world[_ ]?size|local_rank|device (?:id|index|ordinal)|invalid device|device_id|device index|"
                    r"ASCEND_(?:RT_)?VISIBLE_DEVICES|visible devices?|\bnpu:\s*%|device count|group[_ ]?size|"
                    r"MASTER_(?:ADDR|PORT)|rank ?table|RANK_TABLE", "rank_config"),
    ("communication", r"\bhccl|process ?group|collective|distributed|all_?reduce|all_?gather|broadcast|reduce_?scatter|"
                      r"all_?to_?all|barrier|\bsend\b|\brecv\b|\bp2p\b|\bstore\b|tcp|socket|connect|communicator|\bcomm\b|"
                      r"\bpg\b|c10d|\blccl|\bsymm", "communication"),
    ("resource", r"(?:stream|event|handle|graph|queue)s? (?:\w+ )?(?:pool )?(?:is |are )?(?:exhausted|full|not enough|insufficient|"
                 r"limit|exceed|run out)|(?:no|not enough) (?:free |available )?(?:stream|event)s?|too many (?:stream|event|graph)s?", "resource"),
    ("op-unsupported", r"not (?:yet )?support|unsupport|only supports?|not implemented|notimplemented|does ?n[o']t support|"
                       r"is not available (?:on|for|in)|cannot (?:be )?support|\bdtype|data ?type|scalar ?type|\bformat\b|"
                       r"(?:310|910|ascend)\w*|\bsoc\b|\bchip\b|npu_format|\bnz\b|fractal|acl_format|float(?:16|32|64)|bfloat16|\bint(?:8|16|32|64)\b|\bbool\b",
     "compile_op_unsupported"),
    ("shape", r"shape|\bsize|\bdims?\b|dimension|numel|stride|contiguous|broadcast|length|\b\d+-?d\b|\bd tensor|tensor list|"
              r"same (?:number|length|device)|mismatch\w* (?:in|between)|must have|expected (?:a |an )?(?:\w+ )?tensor|"
              r"out of (?:range|bound)|index|\baxis|layout|batch", "compile_shape"),
])

# The torch_npu error code the message ends with: its sub-module and kind.
ERR_CATEGORY = {"MEMORY": "memory", "PERMISSION": "permission_device", "HCCL": "communication"}


def path_default(path, err):
    """The category where the message says nothing specific: the code that raises it."""
    sub = err[0] if err else None
    if "/distributed/" in path or sub == "DIST":
        return "communication", "path:distributed"
    if "/_inductor/" in path or "/dynamo/" in path or "/inductor/" in path or sub == "GRAPH":
        # Graph compilation (Inductor / Triton-Ascend, torchair): an operator the compiler
        # could not build.
        return "compile_op_unsupported", "path:compile"
    if "/csrc/aten/" in path or "/csrc/framework/" in path or "/contrib/" in path or "/_op" in path or sub == "OPS":
        return "compile_shape", "path:operator"
    return "other", "default"


WRAPPER = re.compile(
    r"function error: |\bfailed\b\W*$|\bfailed\W*(?:,|\.|:|!)?\s*(?:error ?code|ret|result|reason|code)\b|"
    r"\bcall\w* \w+ (?:api )?fail|\bfailed to (?:call|run|execute|invoke)\b|error code is|ret\s*[=:]|get \w+ fail", re.I)
CAUSE_WORDS = re.compile(
    r"time ?out|timed out|out of memory|not enough|insufficient|not support|unsupport|invalid|illegal|mismatch|"
    r"inconsistent|not found|not exist|permission|denied|busy|occupied|exceed|overflow|must|should|expect", re.I)


def classify(msg, err, path, kind):
    rule, cat = CATEGORY_RULES.first(msg)
    why = rule
    if err and err[1] in ERR_CATEGORY and rule in (None, "communication", "shape", "op-unsupported"):
        cat, why = ERR_CATEGORY[err[1]], "err:" + err[1]
    if cat is None and err:
        if err[1] == "NOT_SUPPORT":
            cat, why = "compile_op_unsupported", "err:NOT_SUPPORT"
        elif err[1] == "TIMEOUT":
            cat, why = "communication", "err:TIMEOUT"
    if cat is None:
        cat, why = path_default(path, err)
    elif "/profiler/" in path and (rule not in ("memory", "permission", "install", "missing-function") or
                                   (rule == "install" and not re.search(r"(?i)install|set_env|version", msg))):
        # The profiler's own file handling ("CANN Profiling data does not exist"): nothing to install.
        cat, why = "other", "path:profiler"
    elif re.search(r"/_?inductor/|/dynamo/", path) and rule in ("shape", "op-unsupported", "not-supported", "rank-config", "setting"):
        # Inside the graph compiler these are its own checks: the operator could not be compiled.
        cat, why = "compile_op_unsupported", "path:compile"
    symptom_of, role = None, "cause"
    if kind == "call-check" or (WRAPPER.search(msg) and not CAUSE_WORDS.search(msg)) or (err and err[1] in ("ACL", "HCCL", "GE") and not CAUSE_WORDS.search(msg)):
        role = "wrapper"
        if why in ("default", "path:operator", "shape"):
            # "X error! ret = N": says nothing about the inputs; the code decides.
            cat, why = "other", "wrapper"
    elif rule == "peer-timeout":
        symptom_of = ["any"]
    return cat, role, symptom_of, why


def classify_call_check(what):
    """NPU_CHECK_ERROR(call): the category of the failing call (the code decides the rest)."""
    w = what.lower()
    if re.search(r"synchroni[sz]e|query|streamquery|wait", w):
        return "other"  # a wait that reports an earlier failure (507046-style): the code says what
    if re.search(r"hccl|lccl", w):
        return "communication"
    if re.search(r"malloc|alloc|memset|memcpy|meminfo|mapmem|free|reservemem|physical", w):
        return "memory"
    if re.search(r"createstream|createevent|recordevent|notify", w):
        return "resource"
    if re.search(r"setdevice|getdevice|devicecount|aclinit|resetdevice|soc|getdevicecapability|ctx|context", w):
        return "driver_firmware_env"
    if re.search(r"compileopt|precision_mode", w):
        # Setting compile options is the first call into CANN's op compiler: it fails when the
        # CANN install (or its Python side, e.g. numpy 2) does not match.
        return "install_version_mismatch"
    return "other"


# ---------------------------------------------------------------------------------------------
# Reading C++


def local_value(clean, pos, name):
    """The expression last assigned to local variable `name` before pos (`auto x = ...;`,
    `std::string x = ...;`, `x = ...;`), within the enclosing 150 lines."""
    window = clean[max(0, pos - 12000):pos]
    pat = re.compile(r"(?:\b(?:auto|std::string|string|const\s+std::string|const\s+auto)\s*&?\s+|[;{}]\s*)" + re.escape(name) + r"\s*=(?!=)")
    last = None
    for m in pat.finditer(window):
        last = m
    if not last:
        return None
    args = C.stream_args(window, last.end())  # up to ';'
    return " << ".join(args) if args else None


def resolver(clean, pos):
    """resolve(name) for c10_messages: the value a local variable was given before pos (not a
    stream, which has no single expression)."""
    def resolve(name):
        val = local_value(clean, pos, name)
        return val if val and "<<" not in val else None
    return resolve


def read_cpp(repo, rev, path, text):
    clean = R.join_continuations(L.strip_c_comments(text))
    out, not_literal = [], 0
    # TORCH_CHECK family and NPU_CHECK_ERROR family
    for name, args, start, end, line in R.call_sites(clean, CHECK_RE):
        if name in C.CALL_CHECKS:
            if not args or not args[0].strip() or args[0].strip() in ("err_code", "Error", "error_code"):
                continue
            fmt = C.call_check_message(name, args)
            out.append(dict(fmt=fmt, kind="call-check", classes=["RuntimeError"], err=("PTA", "ACL"), line=line,
                            what=args[0]))
            continue
        if name == "TORCH_CHECK_WITH" and len(args) < 2:
            continue
        fmt, err, classes = C.check_message(name, args, resolver(clean, start))
        if fmt is None:
            not_literal += 1
            continue
        out.append(dict(fmt=fmt, kind="raise", classes=classes, err=err, line=line))
    # C10_THROW_ERROR(Class, msg) and throw std::x(msg)
    for name, args, start, end, line in R.call_sites(clean, THROW_RE):
        if name.startswith("C10_THROW_ERROR"):
            classes, margs = C.C10_CLASS.get(args[0].strip(), ["RuntimeError"]), args[1:]
        else:
            classes, margs = STD_EXC[name.split("::")[-1]], args
        fmt, err = C.c10_format(margs, resolver(clean, start))
        if fmt is None:
            not_literal += 1
            continue
        out.append(dict(fmt=fmt, kind="raise", classes=classes, err=err, line=line))
    # printf-style error logs
    for name, args, start, end, line in R.call_sites(clean, PLOG_RE + "|" + NPULOG_RE):
        idx = 1 if name == "TORCH_NPU_LOGE" else 0
        if idx >= len(args):
            continue
        fmt = L.c_format_of(args[idx])
        if fmt is None:
            not_literal += 1
            continue
        out.append(dict(fmt=fmt, kind="plog" if name == "ASCEND_LOGE" else "npulog", line=line, err=None,
                        func=R.enclosing_function(clean, start)))
    # LOG(ERROR) << ...
    for m in re.finditer(r"\bLOG\s*\(\s*ERROR\s*\)\s*<<", clean):
        parts = C.stream_args(clean, m.end())
        fmt, err = C.c10_format(parts, resolver(clean, m.start()))
        line = clean.count("\n", 0, m.start()) + 1
        if fmt is None:
            not_literal += 1
            continue
        out.append(dict(fmt=fmt, kind="glog", line=line, err=err))
    return out, not_literal

# ---------------------------------------------------------------------------------------------
# Reading Python


def py_err_of(node):
    """(submodule, code) of a pta_error(ErrCode.X)-style call inside an expression."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in PY_ERR_HELPERS and sub.args and isinstance(sub.args[0], ast.Attribute):
                return PY_ERR_HELPERS[name], sub.args[0].attr
    return None


def read_py(text):
    out, errs = [], {}
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return out
    for node in ast.walk(tree):
        if isinstance(node, (ast.Raise, ast.Call)):
            e = py_err_of(node)
            if e:
                errs.setdefault(node.lineno, e)
    for kind, name, fmt, line in L.find_py_messages(text, resolve_names=True):
        err = errs.get(line)
        if err and fmt.endswith("{}"):
            fmt = fmt[:-2]  # the pta_error(...) suffix: a new line of its own
        if kind == "raise":
            out.append(dict(fmt=fmt, kind="py-raise", classes=[name], err=err, line=line, style="python"))
        else:
            out.append(dict(fmt=fmt, kind="py-log", err=err, line=line, style="python"))
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
            found, nl = read_cpp(repo, rev, path, text)
            not_literal += nl
        for c in found:
            c["path"] = path
            c.setdefault("style", "printf")
            calls.append(c)
    return calls, not_literal, len(files)

# ---------------------------------------------------------------------------------------------
# Samples


def sample_line(c, message):
    base = os.path.basename(c["path"])
    if c["kind"] in ("raise", "call-check", "py-raise"):
        return L.exception_line(c["classes"][0], message)
    if c["kind"] == "plog":
        return L.plog_line("APP", f"{base}:{c.get('func', 'func')}:{c['line']}: [PTA]:{message}", file="log_inner.cpp", line=76)
    if c["kind"] == "npulog":
        return f"E0302 10:55:12.313101 12345 {base}:{c['line']}] [rank:0] {message}"
    if c["kind"] == "glog":
        return f"[rank0]:[E302 10:55:12.313101248 {base}:{c['line']}] {message}"
    return L.python_log_line(message)


def build(calls, overrides, src):
    by_key = collections.OrderedDict()
    for c in calls:
        by_key.setdefault((c["fmt"], c["style"]), []).append(c)
    skipped, entries, seen, whys = collections.Counter(), [], set(), collections.Counter()
    for (fmt, style), sites in by_key.items():
        site = sites[0]
        if site["kind"] == "py-raise" and all(k in CONTROL_FLOW for s in sites for k in s.get("classes", [])):
            skipped["caught_internally"] += 1
            continue
        classes = sorted({k for s in sites for k in s.get("classes", [])}, key=lambda k: (k != site.get("classes", [k])[0], k))
        raised = [k for k in classes] if site["kind"] in ("raise", "call-check", "py-raise") else []
        regex, _ = L.pattern_of(fmt, style, tuple(raised))
        if regex is None or R.too_generic(fmt, style):
            skipped["too_generic"] += 1
            continue
        err = next((s["err"] for s in sites if s.get("err")), None)
        if site["kind"] == "call-check":
            cat, role, symptom_of, why = classify_call_check(site["what"]), "wrapper", None, "call-check"
        else:
            cat, role, symptom_of, why = classify(fmt, err, site["path"], site["kind"])
        whys[why] += 1
        e = dict(id=R.unique_id(src["family"], fmt, style, seen), format=fmt, category=cat, role=role)
        if style != "printf":
            e["format_style"] = style
        if symptom_of:
            e["symptom_of"] = symptom_of
        if raised:
            e["level"] = "any"
            e["raised_as"] = raised
        e["title"] = R.generated_title("torch_npu", fmt, style)
        e["references"] = [L.blob_url(src["repo"], src["commit"], site["path"], site["line"])]
        message = L.fill(fmt, style)
        e["samples"] = [sample_line(site, message)]
        e["_why"] = why
        entries.append(e)
    for e in entries:
        ov = overrides.get(e["id"])
        if ov:
            R.apply_override(e, ov)
    return entries, skipped, len(by_key), whys


# Releases still in wide use whose messages the newest code no longer has, newest first: each
# gets its own file with only those formats (pinned to the release's commit), so a log of an
# older torch_npu is still recognised. One per CANN generation; the branches of one release
# (pytorch2.1.0, 2.5.1 ...) print the same messages but for the version-specific code.
LEGACY = [("v7.0.0-pytorch2.1.0", "v7_0"), ("v6.0.0-pytorch2.1.0", "v6_0"), ("v5.0.0-pytorch1.11.0", "v5_0")]


def python_pattern(fmt, style):
    """The entry's generated pattern, compiled (pattern_of writes no named groups, so Python's
    dialect takes it as it is); None when the format has none."""
    regex, _ = L.pattern_of(fmt, style)
    return regex and re.compile(regex)


# What extract_torch_npu.py and extract_op_plugin.py share: the command line, the cache of what
# was read from the source, and writing one catalogue file.

def extractor_args(doc):
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mirrors", default="/work/.mirror")
    ap.add_argument("--doctor", default=os.path.join(ROOT, "build", "src", "npu-doctor"))
    ap.add_argument("--report", action="store_true")
    ap.add_argument("--cache")
    ap.add_argument("--dump")
    return ap.parse_args()


def read_cached(args, repo, commit, key, read):
    """read(repo, commit) -> (calls, not_literal, nfiles), kept in --cache DIR as KEY-COMMIT.json."""
    cache = args.cache and os.path.join(args.cache, f"{key}-{commit}.json")
    if cache and os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            calls, not_literal, nfiles = json.load(f)
    else:
        calls, not_literal, nfiles = read(repo, commit)
        if cache:
            with open(cache, "w", encoding="utf-8") as f:
                json.dump([calls, not_literal, nfiles], f)
    for c in calls:
        if isinstance(c.get("err"), list):
            c["err"] = tuple(c["err"])
    return calls, not_literal, nfiles


def write_catalogue(args, src, built, read, overrides, description, defaults):
    """Writes src["out"] from build()'s (entries, skipped, found, whys); read is read_cached's
    (calls, not_literal, nfiles), for the summary line. Returns the entries."""
    entries, skipped, found, whys = built
    calls, not_literal, nfiles = read
    claims = R.curated_claims([e["samples"][0] for e in entries], args.doctor, os.path.join(ROOT, "kb"))
    changed = 0
    for i, e in enumerate(entries):
        if i in claims and e["id"] not in overrides:
            cid, ccat, _ = claims[i]
            changed += e["category"] != ccat
            e["category"], e["_why"] = ccat, "curated:" + cid
    if args.dump:
        with open(f"{args.dump}.{src['key']}.tsv", "w", encoding="utf-8") as f:
            for e in entries:
                f.write("\t".join([e["category"], e.get("role", ""), e["_why"], e["format"].replace("\n", "\\n"),
                                   e["references"][0].split("/blob/")[1].split("/", 1)[1]]) + "\n")
    for e in entries:
        e.pop("_why", None)
    header = dict(
        family=src["family"],
        description=description,
        source=dict(component=src["component"], repo=src["repo"], commit=src["commit"], formats_found=found,
                    skipped=dict(sorted(skipped.items())) or {"too_generic": 0}),
        defaults=dict(origin="source", layer=defaults["layer"], level="error", category=defaults["category"],
                      role="cause"),
    )
    R.drop_defaults(entries, header["defaults"])
    L.write_messages_file(os.path.join(ROOT, src["out"]), header, entries)
    print(f"{src['out']}: {src['repo']}@{src['commit'][:10]}: {nfiles} files, {len(calls)} calls, {not_literal} without "
          f"a literal message, {found} formats, {len(entries)} entries, skipped {dict(skipped)}, {len(claims)} claimed "
          f"by hand-written entries ({changed} recategorised)")
    if args.report:
        print("  categories:", dict(collections.Counter(e["category"] for e in entries).most_common()))
        print("  roles:", dict(collections.Counter(e.get("role") for e in entries).most_common()))
        print("  decided by:", dict(whys.most_common()))
    return entries


DEFAULTS = dict(layer="torch_npu", category="other")


def main():
    args = extractor_args(__doc__)
    src = SOURCE
    repo = os.path.join(args.mirrors, src["mirror"], "repo")
    overrides = R.load_overrides(os.path.join(ROOT, "scripts", "catalog", "overrides", "torch_npu.yaml"))
    read = read_cached(args, repo, src["commit"], "torch_npu", read_source)
    entries = write_catalogue(
        args, src, build(read[0], overrides, src), read, overrides,
        "ERROR-level messages of torch_npu (Ascend/pytorch): TORCH_CHECK-style errors raised to Python, "
        "NPU_CHECK_ERROR call failures, ASCEND_LOGE / TORCH_NPU_LOGE / LOG(ERROR) lines, and the Python "
        "package's raises and logger.error calls. Generated by scripts/catalog/extract_torch_npu.py; texts "
        "of the frequent ones in scripts/catalog/overrides/torch_npu.yaml.", DEFAULTS)
    if not R.check_overrides(overrides, entries, "scripts/catalog/overrides/torch_npu.yaml"):
        sys.exit(1)
    seen = {(c["fmt"], c["style"]) for c in read[0]}
    newer = [compiled for e in entries if (compiled := python_pattern(e["format"], e.get("format_style", "printf")))]
    for tag, suffix in LEGACY:
        commit = L.head_commit(repo, tag + "^{commit}")
        old_calls, old_not_literal, old_nfiles = read_cached(args, repo, commit, "torch_npu", read_source)
        # Only what no newer entry already recognises: an old format that only added words to
        # a message the newer one still prints would otherwise win on the line (the longer
        # literal) with a generic title in place of the newer entry's texts.
        old_calls = [c for c in old_calls if (c["fmt"], c["style"]) not in seen
                     and not any(p.search(L.fill(c["fmt"], c["style"])) for p in newer)]
        seen |= {(c["fmt"], c["style"]) for c in old_calls}
        legacy = dict(src, key=f"torch_npu_{suffix}", family=f"src-torch-npu-{suffix.replace('_', '-')}", commit=commit,
                      out=f"kb/messages/torch_npu_{suffix}.yaml")
        older = write_catalogue(
            args, legacy, build(old_calls, {}, legacy), (old_calls, old_not_literal, old_nfiles), {},
            f"ERROR-level messages of torch_npu {tag} (Ascend/pytorch) that the newest code and the newer releases "
            "read here no longer print, so that logs of this release are still recognised. Generated by "
            "scripts/catalog/extract_torch_npu.py (LEGACY).", DEFAULTS)
        newer += [compiled for e in older if (compiled := python_pattern(e["format"], e.get("format_style", "printf")))]


if __name__ == "__main__":
    main()
