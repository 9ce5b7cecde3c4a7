"""Pieces the HCCL, torch_npu and op-plugin extractors share (docs/kb-messages.md): call
sites with their span (to read the code around a log call), first-match category rules,
generated long-tail titles, per-entry overrides, and the check that a hand-written entry
of kb/*.yaml already claims a sample (its category then wins).

Standard library + PyYAML only; catalog_lib holds what every extractor needs.
"""
import json
import os
import re
import subprocess
import tempfile

import yaml

import catalog_lib as L

# ---------------------------------------------------------------------------------------------
# Call sites with their span


def join_continuations(clean):
    """Macro bodies continue lines with a backslash after white space; the backslash is not part
    of the expression (it would hide the literals around it). Line numbers stay right."""
    return re.sub(r"(?<=[ \t])\\\n", " \n", clean)


def call_sites(clean, macro_regex):
    """Yields (name, args, start, end, line) for each call `NAME(` whose NAME matches
    macro_regex in comment-free text; the macro's own #define line is skipped."""
    pat = re.compile(r"(?<![\w.])(" + macro_regex + r")\s*\(")
    for m in pat.finditer(clean):
        line_start = clean.rfind("\n", 0, m.start()) + 1
        if clean[line_start:m.start()].lstrip().startswith("#"):
            continue
        args, end = L._call_args(clean, m.end() - 1)
        if args is None:
            continue
        yield m.group(1), args, m.start(), end, clean.count("\n", 0, m.start()) + 1


def enclosing_function(clean, pos):
    """The name of the C function defined before pos (a definition starts at column 0)."""
    for m in reversed(list(re.finditer(r"(?m)^[A-Za-z_][\w \t\*:<>,]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*(?:const\s*)?\{?\s*$",
                                        clean[:pos][-20000:]))):
        if m.group(1) not in ("if", "while", "for", "switch", "return"):
            return m.group(1)
    return "func"


# ---------------------------------------------------------------------------------------------
# Rules: (name, regex over the message, category, why) -- the first that matches decides.


class Rules:
    def __init__(self, table, flags=re.I):
        self.table = [(name, re.compile(rx, flags), cat) for name, rx, cat in table]

    def first(self, text):
        for name, rx, cat in self.table:
            if rx.search(text):
                return name, cat
        return None, None


# ---------------------------------------------------------------------------------------------
# Titles for the long tail: the component and the message's own words

_TAGS = re.compile(r"^(?:\s*\[[^\]]*\])+")


def message_words(fmt, style="printf", limit=56):
    """The message's literal words, leading [Tag][Tag] prefixes, errNo[...] and placeholders
    left out, cut at a word boundary."""
    text = "".join(lit if lit is not None else "\x00" for lit, _ in L.pieces(fmt, style)).split("\n")[0]
    text = re.sub(r"errNo\[[^\]]*\]", " ", text)
    text = re.sub(r"\[\x00\]|\(\x00\)|\{\x00\}", "", text)
    text = _TAGS.sub("", text)
    text = text.replace("\x00", " ")
    text = re.sub(r"\[\s*\]|\(\s*\)|\{\s*\}", " ", text)
    text = re.sub(r"\s+", " ", text).strip(" ,.:;-=!>|")
    text = re.sub(r"^[\]\)\}]+\s*", "", text)
    if len(text) > limit:
        cut = text[:limit].rsplit(" ", 1)[0]
        text = (cut if len(cut) > limit // 2 else text[:limit]).rstrip(" ,.:;-=([{") + " ..."
    return text or "error"


def generated_title(component, fmt, style="printf"):
    words = message_words(fmt, style)
    return {"en": f"{component}: {words}", "zh": f"{component}：{words}"}


# ---------------------------------------------------------------------------------------------
# Overrides: scripts/catalog/overrides/<component>.yaml, keyed by entry id

OVERRIDE_KEYS = {"category", "role", "symptom_of", "title", "cause", "remedies", "level", "severity", "raised_as"}


def load_overrides(path):
    """{entry id: {key: value}} from an overrides file: `texts:` blocks give one hand-written
    text (title, cause, remedies, category ...) to every id in their `ids:` list (the same
    message printed from several places); `entries:` sets keys of single entries."""
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    out = {}
    for i, block in enumerate(data.get("texts") or []):
        ids = block.get("ids") or []
        val = {k: v for k, v in block.items() if k not in ("ids", "note")}
        bad = set(val) - OVERRIDE_KEYS
        if bad or not ids:
            raise SystemExit(f"{path}: texts[{i}]: unknown keys {sorted(bad)} or no ids")
        for ident in ids:
            if ident in out:
                raise SystemExit(f"{path}: {ident} is in two texts blocks")
            out[ident] = dict(val)
    for key, val in (data.get("entries") or {}).items():
        bad = set(val) - OVERRIDE_KEYS
        if bad:
            raise SystemExit(f"{path}: {key}: unknown keys {sorted(bad)}")
        out.setdefault(key, {}).update(val)
    return out


def check_overrides(overrides, entries, path):
    """Every id an overrides file names must exist (a changed format changes its id)."""
    known = {e["id"] for e in entries}
    missing = sorted(set(overrides) - known)
    if missing:
        import sys
        print(f"{path}: {len(missing)} ids not produced by the extractor (re-run overrides/author.py): "
              f"{missing[:5]}", file=sys.stderr)
    return not missing


def apply_override(entry, ov):
    for k, v in ov.items():
        if v is None:
            entry.pop(k, None)
        else:
            entry[k] = v


# ---------------------------------------------------------------------------------------------
# Hand-written entries that already claim a line (by a message pattern)


# Lines per `diagnose` run. Each finding keeps at most --max-evidence (1,000) lines, so a run of
# at most 1,000 lines never loses a claim to that cap (4,000 could).
CLAIM_CHUNK = 1000


def curated_roles(kb_dir):
    """{entry id: role} of the hand-written entries that match by a message pattern (`match:`),
    each entry's own role or its file's default (the loader's fallback is `cause`)."""
    roles = {}
    for name in sorted(os.listdir(kb_dir)):
        if name.endswith(".yaml"):
            d = L.load_yaml(os.path.join(kb_dir, name))
            default = (d.get("defaults") or {}).get("role", "cause")
            roles.update((e["id"], e.get("role", default)) for e in d.get("entries", []) if e.get("match"))
    return roles


def diagnose_json(doctor, paths):
    """The JSON report of one `npu-doctor diagnose` over the files `paths` (evidence lines only)."""
    res = subprocess.run([doctor, "diagnose", "-f", "json", "--max-evidence", "1000", "-B", "0", "-A", "0",
                          "-j", "1", *paths], capture_output=True, timeout=600)
    return json.loads(res.stdout or b"{}")


def report_findings(doc):
    """Every finding of a report: the shown incident's (top level) and every incident's. Inputs
    far apart in time are separate incidents, and the top level shows only one of them."""
    yield from doc.get("findings", [])
    for inc in doc.get("incidents", []):
        yield from inc.get("findings", [])


def claimants_by_path(doc, roles):
    """({input path: [(entry id, category), ...]} in report order: the curated entries whose
    findings have evidence in that input; {paths of findings read from context}). Wrappers
    and hints are left out by the entry's own role, not the role the diagnosis gave the
    finding: that one depends on the other inputs (a hint that explains the root cause is
    shown as the cause; the root is always `cause`). A finding is one entry's occurrences in
    every input, and a context rule reads the first occurrence's own text and neighbours to
    re-read all of them (`read_from`: op.tiling-failed as op.configuration-not-supported when
    the first DoTiling sample says "not support"): such inputs are not settled by this run."""
    out, reread = {}, set()
    for f in report_findings(doc):
        if f.get("read_from"):
            reread.update(ev["path"] for ev in f.get("evidence", []))
        if roles.get(f.get("rule")) in (None, "wrapper", "hint"):
            continue
        for ev in f.get("evidence", []):
            got = out.setdefault(ev["path"], [])
            if (f["rule"], f["category"]) not in got:
                got.append((f["rule"], f["category"]))
    return out, reread


def chunks(lines, limit=CLAIM_CHUNK):
    """(first index, samples) of consecutive samples holding at most `limit` lines together
    (a sample may hold several)."""
    base, part, held = 0, [], 0
    for i, text in enumerate(lines):
        n = text.count("\n") + 1
        if part and held + n > limit:
            yield base, part
            base, part, held = i, [], 0
        part.append(text)
        held += n
    if part:
        yield base, part


def write_samples(tmp, samples):
    """One file per sample (a name no rank or host pattern reads): `diagnose` relates the lines
    of one file to each other (context rules read the neighbours of a finding's first line,
    root-cause roles, "explains"), never the lines of different files."""
    paths = []
    for i, text in enumerate(samples):
        path = os.path.join(tmp, f"sample{i:05d}.log")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text + "\n")
        paths.append(path)
    return paths


def curated_claims(lines, doctor, kb_dir):
    """{line index: (entry id, category, role)} for the lines a hand-written entry of kb/*.yaml
    recognises by a message pattern (not only by a code), as `npu-doctor diagnose` sees each
    line alone with the built-in knowledge base: the claim of a sample never depends on the
    other samples. One run diagnoses a chunk of samples, each its own input file; a sample that
    two curated entries claim, or one a finding read from context touches, is diagnosed again
    by itself, and the first claimant of that report (its root cause) decides. Generic
    wrappers and hints (python.exception claims every "RuntimeError: " line; rank-identity
    hints only capture context) say nothing about the category and are left out."""
    claims = {}
    if not doctor or not os.path.exists(doctor):
        return claims
    roles = curated_roles(kb_dir)
    with tempfile.TemporaryDirectory(prefix="curated-claims-") as tmp:
        for base, part in chunks(lines):
            paths = write_samples(tmp, part)
            found, reread = claimants_by_path(diagnose_json(doctor, paths), roles)
            for k, path in enumerate(paths):
                got = found.get(path, [])
                if len(got) > 1 or path in reread:
                    # Which of several entries a diagnosis puts first, and what a context rule
                    # reads, are decided among the findings of one run: read them from a run
                    # of this sample alone.
                    got = claimants_by_path(diagnose_json(doctor, [path]), roles)[0].get(path, [])
                if got:
                    claims[base + k] = (got[0][0], got[0][1], roles[got[0][0]])
            for path in paths:
                os.unlink(path)
    return claims


# ---------------------------------------------------------------------------------------------
# Ids


def unique_id(family, fmt, style, seen):
    base = L.slug(fmt, style)
    ident = f"{family}.{base}"
    if ident in seen:
        import hashlib
        ident = f"{family}.{base}-{hashlib.sha1(fmt.encode()).hexdigest()[4:10]}"
    seen.add(ident)
    return ident


def drop_defaults(entries, defaults):
    """Leave out of each entry what the file's defaults already say (role, level, category)."""
    for e in entries:
        for k in ("role", "level", "category"):
            if k in e and k in defaults and e[k] == defaults[k] and k != "category":
                del e[k]


def too_generic(fmt, style="printf"):
    """True when a format has nothing to recognise a line by: the build's rule (no literal run
    of 4 characters), or no word of 3 letters at all ("====", " ..."), or a single short word
    ("%s end.", "failed: %s") that would claim unrelated lines of any module."""
    regex, longest = L.pattern_of(fmt, style)
    if regex is None:
        return True
    words = re.findall(r"[A-Za-z]{3,}", " ".join(L.literal_runs(fmt, style)))
    # Words that only join the parts of a message ("{}but got {}"): they say nothing of which.
    if words and {w.lower() for w in words} <= CONNECTIVE_WORDS:
        return True
    if refused_for_every_component(fmt, style):
        return True
    return not words or (len(words) == 1 and longest < 10)


# One field of a longer report: an ASCII identifier, "=" or ":", the value ("error_code=%hu.",
# "node: %s", "kernel_name=%s", "IPC:   %.2f"). A component prints it on a line of its own
# after (or before) the message that says what failed, so it names nothing itself, and its
# entry claimed any line with that key ("error_code=4660" of a runtime FFTS+ report read as a
# DCMI driver error). Only printf-style formats (C, C++ and Go logs): a Python exception whose
# whole message is one key naming the condition (torch_npu's `grid_rank_mismatch:{}`) says
# what failed.
BARE_FIELD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\s*[=:]\s*\[?\0\]?")


def is_bare_field(fmt, style="printf"):
    """True when a printf-style format's first line is only one `key=value` or `key: value` field."""
    if style != "printf":
        return False
    return BARE_FIELD.fullmatch(first_line_marked(fmt, style).strip().rstrip(".").strip()) is not None


def refused_for_every_component(fmt, style="printf"):
    """The parts of too_generic that every extractor applies whatever else it allows (fw_common,
    cann_entries) and prune_refused_messages.py applies to files generated before them: Python's
    own exception texts and bare report fields (also ge_ops_common.build_entries: GE, metadef, the
    operator libraries)."""
    return is_python_own_message(fmt, style) or is_bare_field(fmt, style)


def first_line_marked(fmt, style="printf"):
    """The format's first line with each placeholder as a NUL character."""
    return "".join("\0" if lit is None else lit for lit, _ in L.pieces(fmt.split("\n")[0], style))


# The interpreter's own exception texts with their names as placeholders: a component that
# raises one of these with its own arguments prints what Python prints for every program, so
# its entry would claim any user's AttributeError ("{} has no attribute '{}'" from
# Triton-Ascend named a model adapter's missing method a compiler error). "." marks a
# placeholder; quotes around it are optional.
PYTHON_OWN_MESSAGES = [re.compile(r"(?:type |module )?(?:\. )?(?:object )?(?:\. )?has no attribute \.\.?"),
                       re.compile(r"(?:local variable|name) \. (?:referenced before assignment|is not defined)"),
                       re.compile(r"\. object is not (?:callable|iterable|subscriptable)"),
                       re.compile(r"no module named \."),
                       re.compile(r"(?:list |tuple |string )?index out of range"),
                       re.compile(r"\.(?:\(\))? got an unexpected keyword argument \."),
                       re.compile(r"\.(?:\(\))? missing \. required (?:positional |keyword-only )?arguments?:? \.")]


def is_python_own_message(fmt, style="printf"):
    """True when a format is only one of Python's own exception texts (PYTHON_OWN_MESSAGES)."""
    text = re.sub(r"\s+", " ", first_line_marked(fmt, style).strip().rstrip(".").strip()).lower()
    text = re.sub("['\"`]?\0['\"`]?", ".", text)
    return any(p.fullmatch(text) for p in PYTHON_OWN_MESSAGES)


CONNECTIVE_WORDS = {"but", "got", "and", "the", "with", "for", "not", "was", "are", "is", "than", "expected", "instead"}
