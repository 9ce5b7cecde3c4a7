"""Pieces that extract_ge.py, extract_metadef.py and extract_ops.py share (docs/kb-messages.md).

- `collect()`: the ERROR-level formats of a C/C++ snapshot, one `Format` per distinct text with
  every place that logs it. The log macros are expanded to their sinks (c_macro_expand.py);
  the sinks here are the *leaf* log macros (GELOGE, FE_LOGE, OP_LOGE ...), so a format is what
  the call site wrote, without the decoration the macro adds ("ErrorNo: %u(%s)", "[%s][%lu]").
  A stringised macro argument (`GE_CHECK_NOTNULL(op_desc)` -> "[Check][Param:" #val "]null is
  invalid") becomes a `%s`: it is a name from the call site, so one format covers every site.
  Each place records whether the text was logged (plog), reported to the error manager (the
  exception's error block: "EZ9999[PID: ..] ... (EZ9999):  text[FUNC:..]"), or both.
- `registry()`: an error-code catalogue (`error_info_list` JSON, standalone or inside a C++ raw
  string): code -> title, message format, argument names.
- `Rule` / `classify()`: first-match category rules over the message, the code around the call,
  the path, the plog module, the macro and the aclnn status it returns.
- sample lines in the format each module really prints, and the YAML entry assembly.

Standard library + PyYAML; catalog_lib, catalog_rules, cann_source and c_macro_expand hold the
rest (snapshot reading, macro expansion, ids, generated titles, overrides, curated claims).
"""
import json
import os
import re

import c_macro_expand as cme
import cann_source
import catalog_lib as L
import catalog_rules as R

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
MIRRORS = "/work/.mirror"

E, O = "error", "other"

# Trees that are not the shipped product: their calls are not counted (their macros still are).
NOT_PRODUCT = {"test", "tests", "ut", "st", "llt", "stub", "stubs", "testcase", "examples", "example", "docs",
               "third_party", "sample", "samples", "demo"}


def is_product(path):
    return not any(p in NOT_PRODUCT for p in path.split("/"))


def mirror(name):
    """The bare git dir `fetch` brought for hicann/<name>."""
    return os.path.join(MIRRORS, name.replace("/", "+"), "repo")

# ---------------------------------------------------------------------------------------------
# Collecting formats


def sample_function(name):
    """The function name put in a sample line. A name like "W4A8TilingProcess" printed as
    "[W4A8TilingProcess]" reads as a glog "[W..." warning marker to the scan's level detection
    (line_info.cpp find_level), so such a name is replaced."""
    name = name or "Func"
    return "Func" if re.match(r"[IWEF]\d", name) else name


class Place:
    __slots__ = ("path", "line", "function", "macro", "module", "logged", "reported", "args", "context", "after",
                 "report_code")

    def __init__(self, **kw):
        for k in self.__slots__:
            setattr(self, k, kw.get(k))


class Format:
    """One distinct ERROR-level format and the places that log or report it."""

    def __init__(self, fmt):
        self.format = fmt
        self.places = []

    @property
    def first(self):
        return self.places[0]

    @property
    def logged(self):
        return any(p.logged for p in self.places)

    @property
    def reported(self):
        return any(p.reported for p in self.places)

    @property
    def module(self):
        return next((p.module for p in self.places if p.logged and p.module), self.places[0].module)


def _stringize_as_placeholder(d):
    """`#param` in a macro body -> "%s" (the stringised argument is a call-site name)."""
    params = set(d.params)
    toks = cme.tokens(d.body)
    out, i = [], 0
    while i < len(toks):
        kind, t = toks[i]
        if kind == "hash":
            j = i + 1
            while j < len(toks) and toks[j][0] == "ws":
                j += 1
            if j < len(toks) and toks[j][0] == "id" and toks[j][1] in params:
                out.append('"%s"')
                i = j + 1
                continue
        out.append(t)
        i += 1
    d.body = "".join(out)


def _split_module(module):
    """A sink's module "GE+report" means: logged under GE and reported to the error manager."""
    if module is None:
        return None, False, True
    if module.endswith("+report"):
        return module[:-len("+report")], True, True
    return module, True, False


def _report_code(args):
    for a in args[:1]:
        m = re.fullmatch(r'\s*"([A-Z][A-Z0-9]\d{4})"\s*', a)
        if m:
            return m.group(1)
    return None


def collect(files, sinks, level_words, default_module, counted=is_product, extra_aliases=None):
    """files: {path: text} (macro definitions are learnt from all of them; calls are counted in
    the paths for which counted(path) is true). Returns ({format: Format}, stats)."""
    clean = {p: L.strip_c_comments(t) for p, t in files.items()}
    defs = []
    for p, c in clean.items():
        defs.extend(cme.parse_defines(p, c))
    for d in defs:
        _stringize_as_placeholder(d)
    aliases = cann_source.module_aliases(clean.values())
    aliases.update(extra_aliases or {})
    modules = set(cann_source.PLOG_MODULES) | {m + "+report" for m in cann_source.PLOG_MODULES}
    expander = cme.Expander(defs, sinks, level_words, modules, aliases)
    formats = {}
    stats = {"calls": 0, "non_literal": 0}
    for path in sorted(files):
        if not counted(path):
            continue
        for cs in cme.call_sites(expander, path, files[path]):
            errors = [h for h in cs.hits if h.level == E]
            if not errors:
                continue
            stats["calls"] += 1
            by_format = {}
            for h in errors:
                if h.format is None:
                    continue
                module, logged, reported = _split_module(h.module)
                slot = by_format.setdefault(h.format, {"module": None, "logged": False, "reported": False})
                slot["module"] = slot["module"] or module
                slot["logged"] |= logged
                slot["reported"] |= reported
            if not by_format:
                stats["non_literal"] += 1
            for fmt, s in by_format.items():
                f = formats.get(fmt)
                if f is None:
                    f = formats[fmt] = Format(fmt)
                f.places.append(Place(path=path, line=cs.line, function=cs.function or "Func", macro=cs.macro,
                                      module=s["module"] or default_module(path), logged=s["logged"],
                                      reported=s["reported"], args=cs.args, context=cs.context or "",
                                      after=cs.after or "", report_code=_report_code(cs.args)))
    return formats, stats


def formats_of(collected):
    """The (formats, stats) of collect(), decoration prefixes merged away (applied after a cache
    is read, so a cached collection gets the current rule)."""
    formats, stats = collected
    return merge_undecorated(formats), stats

# What the log macros put before a message when the message itself comes from a macro body (the
# expander then sees the whole dlog format): left out, so a text is one format whichever way it is
# logged or reported.
DECORATIONS = [
    r"\[%s:%d\]\[%s\]\[%s\]\[%l*u\] errno\[%d\] %s",        # opdev OP_LOGE: file, line, NNOP, func, tid, errno, op
    r"\[%s:%d\]\[%s\]\[%s\]\[%l*u\] OpName:\[%s\] ",          # op_common OP_LOGE: ... OpName:[op]
    r"\[%s:%d\]\[%s\]\[%s\]\[%l*u\] %s",                      # opdev OP_LOGI/W/E without errno
    r"%l*u %s: ErrorNo: %l*u\(%s\) ?",                           # GELOGE
    r"\[ERROR\]\[%s:%d\]%l*d:ErrorNo:%u\(%s\)%s ",                # GELOGE of executor_c
    r"%l*[ud] %s: ?",                                             # GELOGW/I, FE_LOG*, ACL_LOG*: tid, func
    r"\[%s\]\[tid:%l*[ud]\]%s?: ?",                                # AICPU, RTS, UDF, DFLOW
    r"\[%s:%d\] \[%[ud]\]",                                        # HCCL_ERROR
]
_DECORATION_RX = [re.compile(r) for r in DECORATIONS]


def undecorated(fmt):
    s = fmt
    changed = True
    while changed:
        changed = False
        for rx in _DECORATION_RX:
            m = rx.match(s)
            if m and m.end() > 0:
                s = s[m.end():]
                changed = True
    return s.rstrip("\n") if s.strip() else s


def merge_undecorated(formats):
    """{format: Format} with each format's decoration prefix left out and equal results merged."""
    out = {}
    for fmt in sorted(formats):
        key = undecorated(fmt)
        f = out.get(key)
        if f is None:
            f = out[key] = Format(key)
        f.places.extend(formats[fmt].places)
    for f in out.values():
        f.places.sort(key=lambda p: (p.path, p.line, not p.logged))
    return out

# ---------------------------------------------------------------------------------------------
# Error-code catalogues


def registry(text):
    """{code: {title, format, args, path_line}} from an `error_info_list` JSON document, or from
    C++ source holding one in a raw string (R"(...)"). path_line is the 1-based line of the code."""
    m = re.search(r'R"\((.*?)\)"', text, re.S)
    body = m.group(1) if m else text
    offset = text[:m.start(1)].count("\n") if m else 0
    data = json.loads(body)
    lines = body.split("\n")
    out = {}
    for item in data["error_info_list"]:
        code = item["ErrCode"]
        line = next((i + 1 for i, ln in enumerate(lines) if f'"{code}"' in ln and "ErrCode" in ln), 1)
        out[code] = {"title": item.get("errTitle", ""), "format": item["ErrMessage"],
                     "args": [a.strip() for a in item.get("Arglist", "").split(",") if a.strip()],
                     "class": item.get("errClass", ""), "line": line + offset}
    return out

# ---------------------------------------------------------------------------------------------
# Category rules: the first that fires decides; its name is kept for review (--dump-tsv)


class Rule:
    """`pattern` (case-insensitive) searched in the message (on='message'), the call's arguments
    and the lines around it (on='code': the condition tested, the status returned), the path
    (on='path'), the plog module (on='module'), the macro (on='macro'), the call's first
    argument (on='arg0'). `unless` vetoes it on the message."""

    def __init__(self, name, category, pattern, on="message", role=None, symptom_of=None, unless=None):
        self.name, self.category, self.on = name, category, on
        self.pattern = re.compile(pattern, re.I)
        self.role, self.symptom_of = role, symptom_of
        self.unless = re.compile(unless, re.I) if unless else None

    def fires(self, msg, places):
        if self.on == "message":
            hit = self.pattern.search(msg)
        elif self.on == "code":
            hit = any(self.pattern.search(" ".join(p.args or []) + "\n" + (p.context or "") + "\n" + (p.after or ""))
                      for p in places)
        elif self.on == "path":
            hit = any(self.pattern.search(p.path) for p in places)
        elif self.on == "module":
            hit = any(self.pattern.fullmatch(p.module or "") for p in places)
        elif self.on == "macro":
            hit = any(self.pattern.fullmatch(p.macro or "") for p in places)
        elif self.on == "arg0":     # the call's first argument (an aclnn status, an error code)
            hit = any(p.args and self.pattern.search(p.args[0]) for p in places)
        else:
            raise ValueError(self.on)
        return bool(hit) and not (self.unless and self.unless.search(msg))


def message_text(fmt):
    """The message as the rules read it: conversions replaced by a neutral token."""
    return "".join(lit if lit is not None else " X " for lit, _ in L.pieces(fmt)).replace("\n", " ")


# Propagation: the message only says that a callee failed.
WRAPPER = re.compile(
    r"^\W*(?:\[[^\]]*\])*\s*(?:call|invoke|execute|run|do)?\s*[\w:.\[\]<>-]*\s*(?:failed|fail|error)[\s,.!]*"
    r"(?:(?:ret|result|status|error ?code|errno|ret ?code|rt_ret)\s*[:=]?\s*\[?\s*X\s*\]?[\s,.]*)?$"
    r"|\b(?:call|invoke|calling)\s+[\w:.]+\s+(?:failed|fail|error)\b"
    r"|\b(?:ret|result|status|error ?code|errno|retCode)\s*[:=\[]\s*\[?\s*X\s*\]?\s*\.?\s*$"
    r"|\bcall trace\b|hcclRet ->", re.I)
WRAPPER_UNLESS = re.compile(
    r"not support|unsupport|out of memory|timeout|time out|timed out|permission|not exist|no such|invalid|mismatch|"
    r"overflow|exceed|not found|not match|too (?:large|small|many|long)|must be|should be|version|malloc|alloc",
    re.I)


def classify(fmt, places, rules, default="other"):
    """(category, role, symptom_of, rule name)."""
    msg = message_text(fmt)
    for r in rules:
        if r.fires(msg, places):
            role = r.role
            if role is None:
                role = "wrapper" if WRAPPER.search(msg) and not WRAPPER_UNLESS.search(msg) else "cause"
            return r.category, role, r.symptom_of, r.name
    role = "wrapper" if WRAPPER.search(msg) and not WRAPPER_UNLESS.search(msg) else "cause"
    return default, role, None, "default"

# ---------------------------------------------------------------------------------------------
# Sample lines: as each module prints them


TIME = "2025-03-02-10:55:12.313.101"
PID = 12345


def plog(module, body, level="ERROR"):
    """A dlog line whose body already holds what the macro prints after the header
    (DlogRecord callers put "[file:line]" themselves)."""
    return f"[{level}] {module}({PID},python):{TIME} {body}"


def report_line(code, message, function, path, line):
    """An inner error as the error manager prints it in the exception's error block: the first one
    after "<code>: Internal error!" carries the code ("EZ9999[PID: ..] <time> (EZ9999):  text[FUNC..]",
    a line the code's own hand-written entry claims), the rest are TraceBack lines
    ("        text[FUNC:..][FILE:..][LINE:..]"), which is the form used here."""
    return f"        {message}[FUNC:{sample_function(function)}][FILE:{os.path.basename(path)}][LINE:{line}]"


def registry_line(code, title, message):
    """A catalogued E-code as the error manager prints it."""
    return f"[PID: {PID}] {TIME} {title}({code}): {message}"


def logged_line(module, place, message):
    """The plog line of a message logged at ERROR level by `module`'s leaf macro."""
    f, n, fn, tid = os.path.basename(place.path), place.line, sample_function(place.function), PID + 1
    if module == "GE":          # GELOGE: "%lu %s: ErrorNo: %u(%s)" fmt
        return L.plog_line("GE", f"{fn}: ErrorNo: 4294967295(failed){message}", file=f, line=n)
    if module in ("FE", "FFTS", "ASCENDCL"):   # "%lu %s:" fmt
        return L.plog_line(module, f"{fn}:{message}", file=f, line=n)
    if module == "TEFUSION":    # "%lu %s " fmt
        return L.plog_line(module, f"{fn} {message}", file=f, line=n)
    if module == "HCCL":        # DlogRecord(HCCL, .., "[%s:%d] [%u]" fmt)
        return plog("HCCL", f"[{f}:{n}] [{tid}]{message}")
    if module in ("AICPU", "RUNTIME", "UDF", "CCECPU"):   # dlog + "[%s][tid:%lu]:" fmt
        return plog(module, f"[{f}:{n}][{fn}][tid:{tid}]: {message}")
    if module == "DVPP":
        return plog(module, f"[{f}:{n}][ENGINE][{fn}:{n}][tid:{tid}]{message}")
    if module == "OP":          # ops: set by the caller (aclnn NNOP vs host OPS_BASE)
        return op_line(place, message)
    return L.plog_line(module or "GE", message, file=f, line=n)


def op_line(place, message, errno=None):
    """An operator-library line: aclnn (opdev OP_LOGE: "[%s:%d][NNOP][%s][%lu] errno[%d] %s") or
    host side, tiling / infershape (OP_LOGE_LIBOPAPI_REPORT: "[%s:%d][%s][%s][%lu] OpName:[%s] ")."""
    f, n, fn, tid = os.path.basename(place.path), place.line, sample_function(place.function), PID + 1
    if "/op_api/" in "/" + place.path or place.path.startswith("src/nnopbase/"):
        return plog("OP", f"[{f}:{n}][NNOP][{fn}][{tid}] errno[{errno or 161002}] OpName:[aclnnFoo] {message}")
    return plog("OP", f"[{f}:{n}][OPS_BASE][{fn}][{tid}] OpName:[Foo:foo_1] {message}")

# ---------------------------------------------------------------------------------------------
# Entries


def entry_level(f):
    """`error` when the text is logged at ERROR level somewhere (its plog line carries the marker,
    and so does the error manager's first report line "EZ9999[PID: ..] ... (EZ9999):"), which keeps
    the entry behind the scan's gate (docs/scanning.md); `any` only for texts that are reported
    and never logged: they show in the exception's TraceBack lines, which carry no level."""
    return E if f.logged else "any"


def write(path, family, description, component, repo_name, commit, formats_found, skipped, layer, entries,
          default_category="other"):
    header = {
        "family": family,
        "description": description,
        "source": {"component": component, "repo": repo_name, "commit": commit, "formats_found": formats_found,
                   "skipped": skipped},
        "defaults": {"origin": "source", "layer": layer, "level": E, "category": default_category, "role": "cause"},
    }
    for e in entries:
        if e.get("level") == E:
            e.pop("level")
        if e.get("category") == default_category:
            e.pop("category")
        if e.get("role") == "cause":
            e.pop("role")
    L.write_messages_file(path, header, entries)


def check_entries(entries):
    """Every sample recognised by the pattern its format implies; ids unique."""
    seen, bad = set(), []
    for e in entries:
        if e["id"] in seen:
            bad.append(f"duplicate id {e['id']}")
        seen.add(e["id"])
        for s in e["samples"]:
            if not L.sample_matches(s, e["format"], e.get("format_style", "printf"), e.get("raised_as", ())):
                bad.append(f"{e['id']}: sample does not match: {s}")
    return bad


# What log macros print around a message ("[%s:%d][%s][%s][%llu] OpName:[%s] %s" from a helper
# that logs a text built elsewhere): a format made only of these says nothing.
DECORATION = re.compile(r"\b(?:OpName|errno|ErrorNo|tid|FUNC|FILE|LINE|PID)\b|[^A-Za-z0-9]")


def is_decoration_only(fmt):
    words = DECORATION.sub(" ", " ".join(L.literal_runs(fmt)))
    return not re.search(r"[A-Za-z0-9]{4,}", words)


def is_single_token(fmt):
    """"string", "reduce": a name a macro was given, taken for its format (a macro that pastes an
    argument into its message); a log message has a space or a conversion."""
    return not re.search(r"\s|%", fmt.strip())


# Words that say nothing about what happened: a message made only of these ("Init failed.",
# "Create %s failed", "Check %s failed") is kept for coverage but only as a wrapper.
GENERIC_WORDS = set("""a an the to of in on for from with by at as is are was be been not no and or but it its this that
failed fail failure error errors err invalid check checked get got set init initialize initialized create created load
loaded call called run execute exec do done process param params parameter value values result ret return code status
null nullptr empty ok success successful op node name type size index num number info data func function failed.
unknown unsupported supported support exist exists find found add update parse convert copy new make alloc
malloc""".split())


def is_generic(fmt):
    words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9_]*", " ".join(L.literal_runs(fmt)))]
    return sum(1 for w in words if w not in GENERIC_WORDS and len(w) > 2) < 1


_TAGS = re.compile(r"^(?:\s*\[[^\]]*\])+")


def title(label, fmt, limit=56):
    """A long-tail title from the component and the message's own words: placeholders as "…",
    the "key:… , key=…" tail left out, the leading [Tag][Tag] kept only when the words after it
    would say nothing ("[Malloc][Memory] failed")."""
    text = "".join(lit if lit is not None else "…" for lit, _ in L.pieces(fmt)).split("\n")[0]
    text = re.sub(r"\s+", " ", text).strip()
    short = re.split(r"[,;(]\s*[\w.\[\]-]+\s*[=:]\s*\[?…|\s+[\w.-]+\s*=\s*\[?…", text)[0]
    if len(short) >= 12:
        text = short
    body = _TAGS.sub("", text).strip(" .,;:!")
    first = (re.findall(r"[A-Za-z]+", body) or [""])[0].lower()
    if len(body) >= 12 and first not in ("failed", "fail", "error", "is", "are", "not", "invalid", "success"):
        text = body
    text = text.strip(" .,;:!")
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0]
        text = (cut if len(cut) > limit // 2 else text[:limit]).rstrip(" ,.:;([{") + " ..."
    return {"en": f"{label}: {text or fmt[:limit]}", "zh": f"{label}：{text or fmt[:limit]}"}


def known_formats(*names):
    """The formats of already written catalogue files (kb/messages/<name>), to leave out a text
    that an earlier file of this family of extractors has (GE before metadef before the operator
    libraries): one entry per text, so two files never tie on the same pattern."""
    import yaml
    out = set()
    for name in names:
        path = os.path.join(ROOT, "kb/messages", name)
        if not os.path.exists(path):
            raise SystemExit(f"{path} is missing: run the extractors in order (extract_ge.py, extract_metadef.py, "
                             "extract_ops.py)")
        with open(path, encoding="utf-8") as f:
            for m in re.finditer(r"^    format: (.*)$", f.read(), re.M):
                out.add(yaml.safe_load(m.group(1)))
    return out


def build_entries(formats, commit, repo_name, family, rules, label, sample_lines, default="other", extra=None,
                  elsewhere=frozenset()):
    """formats: {text: Format}. label(module) -> component name for generated titles.
    sample_lines(format) -> [lines]. `elsewhere`: texts an earlier catalogue file has (counted as
    skipped duplicates). Returns (entries, skipped counts); each entry keeps its rule name under
    "_rule" (for --dump-tsv; not written)."""
    skipped = {"too_generic": 0}
    entries, seen = [], set()
    for fmt in sorted(formats, key=lambda t: (formats[t].first.path, formats[t].first.line, t)):
        # Only one key=value / key: value field ('graph_id:%u', 'reason: %s'): too generic for
        # every component (prune_refused_messages.py removed them from ge.yaml before this rule was
        # here, so a run put them back).
        if (L.pattern_of(fmt)[0] is None or is_decoration_only(fmt) or is_single_token(fmt)
                or R.refused_for_every_component(fmt)):
            skipped["too_generic"] += 1
            continue
        if fmt in elsewhere:
            skipped["duplicate"] = skipped.get("duplicate", 0) + 1
            continue
        f = formats[fmt]
        category, role, symptom_of, why = classify(fmt, f.places, rules, default)
        if is_generic(fmt):
            role = "wrapper"
        e = {"id": R.unique_id(family, fmt, "printf", seen), "format": fmt, "category": category, "role": role,
             "symptom_of": symptom_of, "level": entry_level(f), "title": title(label(f.module), fmt),
             "references": [L.blob_url(repo_name, commit, f.first.path, f.first.line)],
             "samples": sample_lines(f), "_rule": why, "_module": f.module,
             "_place": f"{f.first.path}:{f.first.line}"}
        if extra:
            extra(e, f)
        entries.append(e)
    return entries, skipped


def agree_with_curated(entries, doctor):
    """A hand-written entry that recognises an entry's sample decides its category (the runtime
    drops the catalogue hit on that line anyway). Returns how many samples were claimed."""
    claims = R.curated_claims([e["samples"][0] for e in entries], doctor, os.path.join(ROOT, "kb"))
    for i, (rule, category, _role) in claims.items():
        e = entries[i]
        if category and e["category"] != category:
            e["category"] = category
            e["_rule"] = f"curated:{rule}"
        e.setdefault("_claimed", rule)
    return len(claims)


def dump_tsv(path, entries):
    with open(path, "w", encoding="utf-8") as out:
        out.write("id\tcategory\trole\tlevel\trule\tmodule\tplace\tformat\n")
        for e in entries:
            out.write("\t".join([e["id"], e["category"], e["role"] or "cause", e.get("level") or "error",
                                 e.get("_rule", ""), e.get("_module") or "", e.get("_place", ""),
                                 e["format"].replace("\n", "\\n").replace("\t", " ")]) + "\n")


def strip_private(entries):
    for e in entries:
        for k in [k for k in e if k.startswith("_")]:
            del e[k]


def cached(path, compute):
    """compute() once; with a path, its result is kept there as a pickle (for review runs)."""
    import pickle
    if path and os.path.exists(path):
        with open(path, "rb") as f:
            return pickle.load(f)
    result = compute()
    if path:
        with open(path, "wb") as f:
            pickle.dump(result, f)
    return result


def finish(entries, tsv_path):
    """The checks every run ends with: every sample recognised, ids unique; then the review
    table, and the private keys dropped."""
    bad = check_entries(entries)
    if bad:
        raise SystemExit("\n".join(bad[:20]))
    if tsv_path:
        dump_tsv(tsv_path, entries)
    strip_private(entries)


# ---------------------------------------------------------------------------------------------
# Hand-written texts: scripts/catalog/overrides/<component>.texts.yaml
#
#   texts:                       # blocks; each names its messages by a regex over the format
#     - formats: 'InferShape\w* .*failed'
#       exclude: 'dump'          # optional
#       category: compile_shape  # optional decisions: category, role, symptom_of, severity, level
#       title: {en, zh}          # our own words (omit to keep each message's generated title)
#       cause: {en, zh}
#       remedies: [{en, zh}, ...]
#   entries:                     # single decisions by entry id (same keys)
#     src-ge.some-id-1234: {category: other}
#
# A block applies to every entry whose format it matches and that no earlier block took; a block
# that matches nothing is an error (the source changed: look again).

TEXT_KEYS = {"category", "role", "symptom_of", "severity", "level", "title", "cause", "remedies"}


def load_texts(path):
    import yaml
    if not os.path.exists(path):
        return {"texts": [], "entries": {}}
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    for b in data.get("texts") or []:
        bad = set(b) - TEXT_KEYS - {"formats", "exclude", "note"}
        if bad:
            raise SystemExit(f"{path}: block {b.get('formats')!r}: unknown keys {sorted(bad)}")
    for k, v in (data.get("entries") or {}).items():
        bad = set(v) - TEXT_KEYS
        if bad:
            raise SystemExit(f"{path}: {k}: unknown keys {sorted(bad)}")
    return {"texts": data.get("texts") or [], "entries": data.get("entries") or {}}


def apply_texts(entries, texts, path, families=None):
    """Applies the blocks and the per-id decisions; returns the number of entries with a cause.
    `families`: only blocks/ids of these families are checked for matching nothing (a run that
    writes some of the files)."""
    taken = set()
    for b in texts["texts"]:
        rx = re.compile(b["formats"])
        ex = re.compile(b["exclude"]) if b.get("exclude") else None
        hits = [e for e in entries if e["id"] not in taken and rx.search(e["format"])
                and not (ex and ex.search(e["format"]))]
        if not hits and families is None:
            raise SystemExit(f"{path}: no entry matches {b['formats']!r}")
        for e in hits:
            taken.add(e["id"])
            for k in TEXT_KEYS & set(b):
                e[k] = b[k]
            if "category" in b:
                e["_rule"] = "text"
    known = {e["id"]: e for e in entries}
    for ident, decision in texts["entries"].items():
        if ident not in known:
            if families is None or ident.startswith(tuple(f + "." for f in families)):
                raise SystemExit(f"{path}: no entry {ident}")
            continue
        known[ident].update(decision)
        if "category" in decision:
            known[ident]["_rule"] = "text"
    return sum(1 for e in entries if e.get("cause"))
