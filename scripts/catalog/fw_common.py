"""What the catalogue extractors of the frameworks, the container stack and the compilers
around CANN share (vLLM, vLLM-Ascend, MindSpeed, torchair, Triton-Ascend, AscendC, the Ascend
docker runtime and device plugin, DCMI): records of ERROR-level messages, category rules as
data, generated titles, hand-written texts from an overrides file, sample lines, checks
against the build's generator and the hand-written knowledge base, and the file itself.

An extractor collects `Record`s from its snapshot and calls `build()`; everything about
reading C/C++/Python/Go sources is in catalog_lib (shared by all four catalogue engineers).
"""
import collections
import dataclasses
import glob
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as L  # noqa: E402
import catalog_rules as R  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CATEGORIES = ("memory", "resource", "communication", "rank_config", "compile_op_unsupported", "compile_shape",
              "compute_overflow_nan", "driver_firmware_env", "install_version_mismatch", "permission_device",
              "aicore_exception", "other")


@dataclasses.dataclass
class Record:
    """One ERROR-level message call in the source."""
    path: str
    line: int
    fmt: str
    style: str = "printf"          # printf | python
    kind: str = "log"              # log | raise | assert | returned (a Go error value)
    cls: str = ""                  # exception class (raise/assert) or logger level (log)
    level: str = ""                # "error" when the call logs at ERROR level
    context: str = ""              # source lines around the call (the condition tested)
    sample: str = ""               # a line as the component prints this message


@dataclasses.dataclass
class Rule:
    """Category (and role) by the message's words, the code around the call or its file.
    All given conditions must hold; the first rule that holds wins."""
    category: str
    words: str = ""                # regex over the message text (lower case, placeholders as {})
    context: str = ""              # regex over the source lines around the call
    path: str = ""                 # regex over the file path
    cls: str = ""                  # regex over the exception class / logger level
    role: str = ""                 # cause (default) | wrapper | symptom
    why: str = ""                  # the reason, for readers of the rule table

    def __post_init__(self):
        assert self.category in CATEGORIES, self.category
        self._w = re.compile(self.words) if self.words else None
        self._c = re.compile(self.context) if self.context else None
        self._p = re.compile(self.path) if self.path else None
        self._k = re.compile(self.cls) if self.cls else None

    def holds(self, text, rec):
        return ((self._w is None or self._w.search(text)) and (self._c is None or self._c.search(rec.context))
                and (self._p is None or self._p.search(rec.path)) and (self._k is None or self._k.fullmatch(rec.cls)))


# Words that say nothing about what went wrong: a format made only of these ("%s failed",
# "{} error", "%s not found: %s") is too generic to recognise (docs/kb-messages.md's own
# example of too_generic is "[%s] %s failed"), though its literal run may be 4 characters long.
GENERIC_WORDS = set("""
error errors failed fail fails failure not found exist exists existed invalid is are was were null nullptr none
empty the a an of to in on at for and or with by from get set ret code err msg message value values param params
parameter parameters input output unknown unexpected wrong bad check checked call called please it this that be
has have no can cannot cant should must type return returned result status info data key name id index file path
number num size occurred occur happened while when after before got but expected expect actual got
support supported defined
""".split())


def is_generic(fmt, style, generic_words=GENERIC_WORDS):
    """No word of 3 letters or more outside `generic_words` (a component may widen the set)."""
    words = re.findall(r"[a-z][a-z0-9_]*", " ".join(L.literal_runs(fmt, style)).lower())
    return not any(len(w) >= 3 and w not in generic_words for w in words)


def message_text(fmt, style):
    """The words a rule reads: literal text in lower case, placeholders as {}."""
    return " ".join(("{}" if lit is None else lit) for lit, _ in L.pieces(fmt, style)).lower()


# Wrappers: the message only says that a callee failed and carries its error text
# ("get device list failed, err: %v", "Failed to init: {}"), with nothing of its own.
WRAPPER_WORDS = re.compile(
    r"^\W*(?:\{\}\W*)?(?:(?:call|calling|invoke|execute|run|running)\s+)?[\w\s/.\-{}]{0,40}?\b(?:failed|fail|failure|error)\b"
    r"[\s,.:;(\[=]*(?:(?:err(?:or)?|ret(?:code)?|reason|result|exception|msg|code)\b\s*(?:is\s*)?[:=]?\s*){0,2}\W*\{\}\W*$")


# ... or it reports a failure and ends with the callee's text ("An error occurred during compile
# phases of {}, msg is {}", "Failed to load model, details: {}").
# ... or it is only the envelope of errors reported elsewhere ("An error occurred during compile
# phases of {}", "errors occurred during compile phase of {}, See also {}").
WRAPPER_HEAD = re.compile(r"^\W*(?:\{\}\W*)?an? error (?:has )?occurred (?:during|in|while|when)\b|errors? occurred during .{0,40}see also")
WRAPPER_TAIL = re.compile(r"\b(?:fail\w*|error\w*)\b.*\b(?:msg|message|reason|details?|error|err|exception|output|info)\s*(?:is|:|=)\s*\{\}\W*$")


def default_role(text):
    return "wrapper" if WRAPPER_WORDS.search(text) or WRAPPER_TAIL.search(text) or WRAPPER_HEAD.search(text) else "cause"


# -------------------------------------------------------------------------------------------
# Titles

def generated_title(label, fmt, style, width=60):
    """'<Component>: <the message's words>' (the long tail's title, docs/kb-messages.md)."""
    words = "".join("…" if lit is None else lit for lit, _ in L.pieces(fmt.split("\n")[0], style))
    words = re.sub(r"\s+", " ", words).strip(" .,:;")
    words = re.sub(r"…(?:\s*…)+", "…", words)
    limit = width - len(label) - 2
    if len(words) > limit:
        cut = words[:limit].rsplit(" ", 1)[0].rstrip(" ,.:;(")
        words = cut + " …"
    return {"en": f"{label}: {words}", "zh": f"{label}：{words}"}


# -------------------------------------------------------------------------------------------
# Hand-written knowledge (curated kb/*.yaml): a catalogue entry whose sample a curated entry
# recognises takes the curated category.

def curated_patterns():
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "kb", "*.yaml"))):
        doc = yaml.safe_load(open(path, encoding="utf-8"))
        dflt = (doc or {}).get("defaults") or {}
        for e in (doc or {}).get("entries") or []:
            if not isinstance(e, dict) or e.get("origin") == "source":
                continue
            cat = e.get("category", dflt.get("category"))
            icase = e.get("ignore_case", dflt.get("ignore_case", False))
            for m in e.get("match") or []:
                rx, ic = (m.get("regex"), m.get("ignore_case", icase)) if isinstance(m, dict) else (m, icase)
                try:
                    out.append((e["id"], cat, e.get("role", dflt.get("role", "cause")),
                                re.compile(L.python_regex(rx), re.I if ic else 0)))
                except re.error:
                    pass
    return out


def curated_claims(sample, patterns):
    """Curated entries that recognise the line by its message (generic envelopes such as
    'RuntimeError: ' are wrappers and say nothing about the category)."""
    return [(i, c, r) for i, c, r, rx in patterns if r not in ("wrapper", "hint") and rx.search(sample)]


# -------------------------------------------------------------------------------------------
# Building the file

@dataclasses.dataclass
class Component:
    family: str                    # src-<component>
    name: str                      # the coverage report's component name
    label: str                     # the title prefix
    repo_name: str                 # owner/name on GitHub
    mirror: str                    # the fetched bare git directory
    commit: str                    # the commit read
    out: str                       # kb/messages/<component>.yaml (relative to the repository root)
    description: str
    layer: str = "framework"
    default_category: str = "other"
    overrides: str = ""            # scripts/catalog/overrides/<component>.yaml


def load_overrides(path):
    """(entries by id, families): `entries` are per-entry texts and decisions; `families` give
    one hand-written cause/remedies (and category/role) to every entry whose format matches a
    regex, for a message family built from one template (AscendC's "<API> is not supported
    on current device.")."""
    if not path or not os.path.exists(os.path.join(ROOT, path)):
        return {}, []
    data = yaml.safe_load(open(os.path.join(ROOT, path), encoding="utf-8")) or {}
    families = [dict(f, _rx=re.compile(f["match"])) for f in data.get("families") or []]
    return data.get("entries") or {}, families


def overrides_of(comp):
    """The overrides of this file: one overrides file may serve several files of a component
    (vLLM-Ascend's current and legacy formats); entries are taken by their family prefix."""
    entries, families = load_overrides(comp.overrides)
    return {k: v for k, v in entries.items() if k.startswith(comp.family + ".")}, families


def build(comp, records, rules, report=True, generic=None):
    """Records -> entries (deduplicated, categorised, checked) -> the YAML file. `generic(fmt,
    style)` may replace is_generic for a component whose short messages need more words."""
    generic = generic or is_generic
    overrides, families = overrides_of(comp)
    curated = curated_patterns()
    by_key = collections.OrderedDict()
    too_generic = set()
    for r in records:
        regex, _ = L.pattern_of(r.fmt, r.style)
        # Python's own exception texts ("{} object has no attribute {}") and bare report fields
        # ("error_code=%hu.") are too generic for every component, whatever words `generic`
        # allows (prune_refused_messages.py removed them from the files generated before these
        # rules).
        if (regex is None or not L.is_recognisable(r.fmt, r.style) or generic(r.fmt, r.style)
                or R.refused_for_every_component(r.fmt, r.style)):
            too_generic.add((r.fmt, r.style))
            continue
        by_key.setdefault((r.fmt, r.style), []).append(r)
    entries, notes, ids = [], collections.Counter(), set()
    for (fmt, style), recs in by_key.items():
        first = recs[0]
        raised = sorted({r.cls for r in recs if r.kind in ("raise", "assert")})
        logged = [r for r in recs if r.kind in ("log", "returned")]  # returned: Go errors, no class
        level = "error" if logged and all(r.level == "error" for r in logged) else ""
        if raised and logged:  # raised in one place and logged in another: recognise it anywhere
            raised, level = [], ""
        text = message_text(fmt, style)
        rule = next((ru for r in recs for ru in rules if ru.holds(text, r)), None)
        category = rule.category if rule else comp.default_category
        role = (rule.role if rule and rule.role else default_role(text))
        eid = f"{comp.family}.{L.slug(fmt, style)}"
        assert eid not in ids, eid
        ids.add(eid)
        sample_rec = next((r for r in recs if r.kind == "log"), first) if not raised else next(r for r in recs if r.kind != "log")
        e = {"id": eid, "format": fmt, "format_style": style if style != "printf" else "",
             "category": category, "role": role if role != "cause" else "", "level": level,
             "raised_as": raised, "title": generated_title(comp.label, fmt, style),
             "references": [L.blob_url(comp.repo_name, comp.commit, first.path, first.line)],
             "samples": [sample_rec.sample], "_rule": rule.why if rule else "default"}
        ov = overrides.get(eid) or next((f for f in families if f["_rx"].search(fmt)), None) or {}
        for k in ("category", "role", "symptom_of", "title", "cause", "remedies", "severity"):
            if k in ov:
                e[k] = ov[k]
        if e.get("role") == "cause":
            e["role"] = ""
        claims = curated_claims(e["samples"][0], curated)
        if claims:
            notes["claimed_by_curated"] += 1
            cats = {c for _, c, _ in claims}
            if e["category"] not in cats:  # the curated entry's category wins, overrides included
                e["_curated"] = claims[0][0]
                e["category"] = claims[0][1]
                notes["category_from_curated"] += 1
        entries.append(e)
    unused = set(overrides) - {e["id"] for e in entries}
    if unused:  # an override whose message changed or went away: say so, the text must follow
        raise SystemExit(f"{comp.overrides}: no entry for " + ", ".join(sorted(unused)))
    # An entry whose every line another entry of the file (more literal text, same category)
    # recognises first is never shown: left out and counted ("[%s] Failed to check ..." shadows
    # "Failed to check ..." on lines that always print "] " before the message).
    shadowed = set(check(entries))
    entries = [e for e in entries if e["id"] not in shadowed]
    found = len(by_key) + len(too_generic)
    header = {
        "family": comp.family, "description": comp.description,
        "source": {"component": comp.name, "repo": comp.repo_name, "commit": comp.commit,
                   "formats_found": found,
                   "skipped": {"too_generic": len(too_generic), **({"shadowed": len(shadowed)} if shadowed else {})}},
        "defaults": {"origin": "source", "layer": comp.layer, "category": comp.default_category},
    }
    for e in entries:
        if e["category"] == comp.default_category:
            e["category"] = ""
    L.write_messages_file(os.path.join(ROOT, comp.out), header, entries)
    for e in entries:
        e["category"] = e["category"] or comp.default_category
    if os.environ.get("FW_REVIEW"):  # a table to read the decisions: FW_REVIEW=/tmp/x.tsv
        with open(os.environ["FW_REVIEW"], "w", encoding="utf-8") as f:
            for e in entries:
                ref = e["references"][0].split("/blob/")[1].split("/", 1)[1]
                f.write("\t".join([e["category"], e.get("role") or "cause", e["_rule"][:30], ref,
                                    e["samples"][0][:220]]) + "\n")
    if report:
        cats = collections.Counter(e["category"] for e in entries)
        print(f"{comp.out}: {found} formats found, {len(entries)} kept, {len(too_generic)} too generic, {len(shadowed)} shadowed, "
              f"{sum(1 for e in entries if e.get('cause'))} with full texts; {dict(notes)}", file=sys.stderr)
        print("  " + ", ".join(f"{k}={v}" for k, v in cats.most_common()), file=sys.stderr)
    return entries


def check(entries):
    """Each sample matches its own pattern, and no other entry of the file with more literal
    text claims it (the catalogue's tie-break)."""
    compiled = []
    for e in entries:
        regex, longest = L.pattern_of(e["format"], e.get("format_style") or "printf", e["raised_as"])
        compiled.append((e, re.compile(regex), sum(len(x) for x in L.literal_runs(e["format"], e.get("format_style") or "printf"))))
    bad, shadowed = [], []
    for e, rx, lits in compiled:
        s = e["samples"][0]
        if not rx.search(s):
            bad.append(f"{e['id']}: sample does not match: {s}")
            continue
        for o, orx, olits in compiled:
            if o is not e and olits > lits and orx.search(s):
                if o["category"] == e["category"]:  # the other entry recognises these lines with the same answer
                    shadowed.append(e["id"])
                    break
                bad.append(f"{e['id']}: sample claimed by {o['id']}\n  {e['format']!r}\n  {o['format']!r}\n  {s}")
                break
    if bad:
        raise SystemExit("\n".join(bad))
    return shadowed


def context_lines(text_lines, line, before=6, after=1):
    lo = max(0, line - 1 - before)
    return "\n".join(text_lines[lo:line + after])


# -------------------------------------------------------------------------------------------
# The words every component shares. Each extractor puts its own rules (its modules, the code
# around its calls) before these; the first rule that holds decides.

# A message that only says a start-up step or a call failed and points at the callee's own
# error (printed before it, or in the logs it names): the MindIE server's and Motor's wording.
CALL_WRAPPER_RULE = Rule(
    "other", role="wrapper",
    words=r"init(?:iali[sz]e)?\w* (?:\w+ )?fail|fail(?:ed)? to init|please check (?:the |in )?.{0,40}\blogs?\b"
    r"|see .{0,30}\blogs?\b|call .{0,40} failed|execute .{0,30} failed",
    why="a start-up or call wrapper that points at the callee's error")


GENERAL_STRONG = [
    # Streams, events, notifies exhausted: the runtime's handles, not memory.
    Rule("resource", words=r"stream[- ]resource|streams? (?:are |is )?(?:insufficient|exhausted)|no (?:stream|event|notify) resource"
         r"|(?:event|notify) resources? (?:are |is )?insufficient|resource exhaustion",
         why="the words say streams, events or notifies ran out"),
    # Out of memory / allocation: what the user fixes is the memory budget.
    Rule("memory", words=r"out of memory|\boom\b|no available memory|not enough (?:\w+ )?memory|insufficient (?:\w+ )?memory"
         r"|memory (?:is )?(?:not enough|insufficient|exhausted)|free memory|available (?:kv cache )?memory|kv cache memory"
         r"|gpu_memory_utilization|memory utilization|cache blocks|failed to allocate|allocation fail|alloc(?:ate)?\w* .{0,30}fail"
         r"|malloc.{0,30}fail|exceeds? .{0,30}memory|memory .{0,20}exceed|dram size|\bhbm\b|memoryerror",
         why="the words say memory ran out or an allocation failed"),
    Rule("memory", cls=r"MemoryError|OutOfMemoryError", why="raised as an out-of-memory error"),
    # Packages, libraries and versions: the user fixes the installation.
    Rule("install_version_mismatch", cls=r"ImportError|ModuleNotFoundError", why="raised as an import error"),
    Rule("install_version_mismatch",
         words=r"not installed|please install|pip install|no module named|failed to import|cannot import|could not import"
         r"|\bimport(?:ing)? .{0,40}fail|is required\b.{0,40}(?:install|package)|requires? [\w\-]+ ?(?:>=|==|version)"
         r"|version (?:mismatch|is not|not match|incompatible|must|should|required|too (?:old|low))|incompatible version"
         r"|(?:unsupported|invalid|unknown) (?:\w+ )?version|\.so\b|shared (?:object|library)|undefined symbol"
         r"|ascend_toolkit|set_env\.sh|ld_library_path|librar(?:y|ies) (?:is |are )?not found|cannot find (?:the )?librar"
         r"|lib\w+ not found|package (?:is )?not found|(?:load|open)\w* .{0,40}librar|librar\w* .{0,60}(?:not exist|corrupt)"
         r"|installation package|installed version|check your install|please (?:update|upgrade)|update (?:to )?(?:the )?latest"
         r"|latest version|cann version|this cann\b|torch_npu version|pta version",
         why="the words name a missing package or library or a version check"),
    # Device nodes and permissions.
    Rule("permission_device",
         words=r"permission|not permitted|access denied|operation not allowed|device (?:is )?busy|occupied|in use by another"
         r"|no npu devices? (?:found|available)|no (?:available |visible )?(?:npu )?devices? (?:found|available)"
         r"|/dev/davinci|cannot open device|open device .{0,20}fail",
         why="the words name a permission or device-visibility problem"),
    # Things the platform, the chip or the build does not support.
    Rule("compile_op_unsupported",
         words=r"not supported|unsupported|not (?:yet )?support|does not (?:yet )?support|doesn't support|don't support|only supports?\b"
         r"|supports? .{0,40}\bonly\b|\bonly\b.{0,20}\bsupported\b"
         r"|only be (?:used|enabled)|is incompatible|incompatible with|not compatible|only works with|only applies to|cannot be (?:used|enabled) (?:with|together|at the same)"
         r"|not implemented|no (?:valid )?(?:attention )?backend|no kernel",
         why="the words say a feature, data type or platform is not supported"),
    Rule("compile_op_unsupported", cls=r"NotImplementedError", why="raised as NotImplementedError: not available here"),
]

# Weaker words: an extractor may put its module defaults between GENERAL_STRONG and these.
GENERAL_WEAK = [
    # A timeout between processes is communication even when it names ranks.
    Rule("communication", words=r"timed? ?out|timeout", why="a wait for another process timed out"),
    # Ranks, world size, parallel sizes, devices per rank.
    Rule("rank_config",
         words=r"\branks?\b|world[_ ]size|tensor[_ ]parallel|\btp[_ ]?size|\btp\b|pipeline[_ ]parallel|\bpp[_ ]?size"
         r"|data[_ ]parallel|\bdp[_ ]?size|\bdp\b|expert[_ ]parallel|\bep[_ ]?size|context[_ ]parallel|\bdcp\b|\bpcp\b"
         r"|local_rank|device[_ ](?:id|index|ordinal)|visible[_ ]devices|number of (?:devices|npus|gpus)|num_?(?:devices|npus)"
         r"|rank ?table|parallel[_ ]size|\bnnodes\b|master_(?:addr|port)",
         why="the words name ranks, parallel sizes or the device of a rank"),
    # Links, sockets, collective communication, peers.
    Rule("communication",
         words=r"\bhccl\b|\bnccl\b|timed? ?out|timeout|socket|connection|\bconnect(?:ed)?\b|network|\bport\b|\bzmq\b|handshake"
         r"|\brdma\b|\broce\b|heartbeat|unreachable|\bp2p\b|collective|all_?reduce|all_?gather",
         why="the words name communication between processes or nodes"),
    Rule("communication", cls=r"TimeoutError|ConnectionError|ZMQError", why="raised as a timeout / connection error"),
    # Data types and quantisation not available for this model or chip.
    Rule("compile_op_unsupported", words=r"\bdtype\b|data ?type|bfloat16|float16|\bbf16\b|\bfp8\b|\bint8\b|quantiz|soc_version|soc version",
         why="the words name a data type, quantisation or SoC that does not fit"),
    # Shapes, dimensions, sizes of tensors and sequences.
    Rule("compile_shape",
         words=r"shape|\bdims?\b|dim\[|dimension|divisible|must be a multiple|multiple of|head_?size|head size|block_?size"
         r"|num_heads|number of heads|hidden_size|max_model_len|max seq len|seq_?len|sequence length|num_tokens",
         why="the words name tensor shapes, dimensions or sizes"),
]

GENERAL_RULES = GENERAL_STRONG + GENERAL_WEAK
