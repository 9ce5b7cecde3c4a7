"""From collected formats to catalogue entries: category and role rules, titles, samples,
references, hand-written overrides (shared by extract_runtime.py and extract_driver.py).

A component gives its rules as data (`Rules`): ordered regular expressions over the message,
over the code around the call (the condition tested, the error code returned), and defaults by
path. The first rule that fires decides, and its name is kept so a reviewer can see why
(`--dump-tsv`).
"""
import os
import re

import yaml

import catalog_lib as lib
import catalog_rules
import check_catalogue


class Rule:
    """`pattern` (case-insensitive) searched in the message (`on='message'`), in the call's
    arguments and the lines around it (`on='code'`), or in the path (`on='path'`). Gives a
    category and optionally a role / symptom_of. `unless` vetoes the rule on the message."""

    def __init__(self, name, category, pattern, on="message", role=None, symptom_of=None, unless=None):
        self.name, self.category, self.on = name, category, on
        self.pattern = re.compile(pattern, re.I)
        self.role, self.symptom_of = role, symptom_of
        self.unless = re.compile(unless, re.I) if unless else None


class Rules:
    def __init__(self, rules, wrapper, wrapper_unless, default="other", code_category=None, code_other_final=False):
        self.rules = rules                 # ordered: the first that fires decides
        self.wrapper = re.compile(wrapper, re.I)
        self.wrapper_unless = re.compile(wrapper_unless, re.I)
        self.default = default
        self.code_category = code_category  # (place) -> (category, rule name) or None
        self.code_other_final = code_other_final  # an `other` from code_category decides too


def _message_text(fmt):
    """The message as the rules read it: conversions replaced by a neutral token."""
    return "".join(lit if lit is not None else " X " for lit, _ in lib.pieces(fmt)).replace("\n", " ")


_DETAIL_GROUP = re.compile(r"\([^()]*?[\w\]]\s*[=:]\s*\[?\s*X\b[^()]*\)")
_DETAIL_PAIR = re.compile(r"[,;]\s*[\w.\->\[\]]+\s*[=:]\s*\[?\s*X\s*\]?(\s*\(\w+\))?")


def core_text(msg):
    """The message without its key=value details ("(dev_id=X; ret=X)", ", stream_id=X"), so a
    rule about device ids is not fired by a device id that is only reported."""
    prev = None
    while prev != msg:
        prev = msg
        msg = _DETAIL_GROUP.sub(" ", msg)
        msg = _DETAIL_PAIR.sub(" ", msg)
    return msg


def _code_text(place):
    return " ".join(place.args) + "\n" + (place.after or "")


def classify(fmt, places, rules):
    """(category, role, symptom_of, rule name) of a format logged at `places`."""
    msg = _message_text(fmt)
    core = core_text(msg)
    category = role = symptom_of = None
    why = None
    for r in rules.rules:
        if r.on == "message":
            hit = r.pattern.search(core)
        elif r.on == "path":
            hit = any(r.pattern.search(p.path) for p in places)
        elif r.on == "module":
            hit = any(r.pattern.search(p.module or "") for p in places)
        elif r.on == "code":
            hit = any(r.pattern.search(_code_text(p)) for p in places)
        elif r.on == "returned-code" and rules.code_category:
            hit = False
            for p in places:
                got = rules.code_category(p)
                if got and (got[0] != "other" or rules.code_other_final):
                    category, why = got[0], got[1]
                    role = got[2] if len(got) > 2 else None
                    break
            if category:
                break
            continue
        else:
            hit = False
        if hit and not (r.unless and r.unless.search(core)):
            category, role, symptom_of, why = r.category, r.role, r.symptom_of, r.name
            break
    if category is None:
        category, why = rules.default, "default"
    if role is None:
        role = "wrapper" if rules.wrapper.search(msg) and not rules.wrapper_unless.search(msg) else "cause"
    return category, role, symptom_of, why

# ---------------------------------------------------------------------------------------------
# Titles for the long tail: the component and the message's own words


def generated_title(label_en, label_zh, fmt, limit=60):
    text = "".join(lit if lit is not None else "…" for lit, _ in lib.pieces(fmt)).split("\n")[0]
    text = re.sub(r"\s+", " ", text).strip(" .,;:!")
    # The key=value tail ("..., retCode=…, stream_id=…") is detail, not the message.
    short = re.split(r"[,;(]\s*\w+\s*[=:]\s*…|\s+\w+\s*=\s*…", text)[0].strip(" .,;:!")
    if len(short) >= 8:
        text = short
    room = limit - len(label_en) - 2
    if len(text) > room:
        text = text[:room - 1].rsplit(" ", 1)[0].rstrip(" .,;:") + "…"
    return {"en": f"{label_en}: {text}", "zh": f"{label_zh}：{text}"}

# ---------------------------------------------------------------------------------------------
# Entries


# Words that say only that something failed: a format made of nothing else ("failed %d",
# "retCode=%#x.", "[%s] %s failed. Reason: %s.") would match almost every error line.
_GENERIC_WORDS = set("""failed fail fails failure error errors err errno ret retcode result code value is the a an
to of in for with and or not because reason due when ok success status""".split())


def content_free(fmt, style="printf"):
    text = " ".join(lib.literal_runs(fmt.split("\n")[0], style)).lower()
    return not [w for w in re.findall(r"[a-z][a-z0-9]+", text) if w not in _GENERIC_WORDS]


def one_short_word(fmt, style="printf"):
    """A single word that says something, in a literal shorter than 10 characters ("timeout.",
    "src is 0."): it would claim any error line of any module that holds the word, as
    catalog_rules.too_generic says of the frameworks' formats."""
    runs = lib.literal_runs(fmt.split("\n")[0], style)
    words = [w for w in re.findall(r"[a-z][a-z0-9]+", " ".join(runs).lower()) if w not in _GENERIC_WORDS]
    return len(words) == 1 and max((len(r.strip()) for r in runs), default=0) < 10


def recognisable(fmt):
    """The build keeps a pattern only when its first line has a literal of 4+ characters."""
    return lib.pattern_of(fmt)[0] is not None


def left_out_because(fmt):
    """Why build_entries leaves a format out (its `skipped` key), or None to keep it."""
    if not recognisable(fmt) or catalog_rules.refused_for_every_component(fmt):
        return "too_generic"
    if content_free(fmt) or one_short_word(fmt):
        return "content_free"
    return None


def load_overrides(path):
    if not path or not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    # Keys starting with "_" hold shared texts (YAML anchors), not entries.
    return {k: v for k, v in data.items() if not k.startswith("_")}


def unique_ids(family, formats):
    """format -> id, stable: the slug of the format; a longer hash only on a clash."""
    ids, used = {}, set()
    for fmt in sorted(formats):
        base = f"{family}.{lib.slug(fmt)}"
        ident = base
        if ident in used:
            import hashlib
            ident = base + hashlib.sha1(fmt.encode()).hexdigest()[4:8]
        used.add(ident)
        ids[fmt] = ident
    return ids


def build_entries(formats, commit, repo_name, family, rules, sample_line, label, overrides_path,
                  extra=None):
    """formats: {text: cann_source.Format}. sample_line(place, message) -> a log line.
    label(module) -> (en, zh) component name for generated titles.
    Returns (entries, skipped counts, decisions) where decisions maps id -> rule name."""
    overrides = load_overrides(overrides_path)
    curated = check_catalogue.curated_patterns()
    skipped = {"too_generic": 0, "content_free": 0}
    entries, decisions = [], {}
    reasons = {fmt: left_out_because(fmt) for fmt in formats}
    ids = unique_ids(family, [f for f in formats if reasons[f] is None])
    for fmt in sorted(formats, key=lambda f: (formats[f].first.path, formats[f].first.line, f)):
        if reasons[fmt]:
            skipped[reasons[fmt]] += 1
            continue
        f = formats[fmt]
        place = f.first
        category, role, symptom_of, why = classify(fmt, f.places, rules)
        ident = ids[fmt]
        en, zh = label(f.module)
        e = {"id": ident, "format": fmt, "category": category, "role": role, "symptom_of": symptom_of,
             "title": generated_title(en, zh, fmt),
             "references": [lib.blob_url(repo_name, commit, place.path, place.line)],
             "samples": [sample_line(place, f.module, lib.fill(fmt))]}
        # A hand-written entry that recognises the same line wins at run time; agree with it.
        for cid, ccat, crx in curated:
            if ccat and crx.search(e["samples"][0]):
                if ccat != category:
                    e["category"], why = ccat, "curated:" + cid
                break
        ov = overrides.get(ident)
        if ov:
            for k in ("category", "role", "symptom_of", "title", "cause", "remedies", "severity"):
                if k in ov:
                    e[k] = ov[k]
            why = "override" if "category" in ov else why
        if extra:
            extra(e, f)
        if e["role"] == "cause":
            e["role"] = None  # the file default
        decisions[ident] = why
        entries.append(e)
    unknown = sorted(set(overrides) - {e["id"] for e in entries})
    if unknown:
        raise SystemExit(f"{overrides_path}: overrides for ids that no longer exist: {', '.join(unknown[:10])}")
    return entries, skipped, decisions


def dump_tsv(path, formats, entries, decisions):
    by_id = {e["format"]: e for e in entries}
    with open(path, "w", encoding="utf-8") as out:
        out.write("id\tcategory\trole\trule\tmodule\tplace\tformat\n")
        for fmt, f in sorted(formats.items(), key=lambda kv: (kv[1].first.path, kv[1].first.line)):
            e = by_id.get(fmt)
            if not e:
                continue
            out.write("\t".join([e["id"], e["category"], e["role"] or "cause", decisions.get(e["id"], ""),
                                 f.module or "", f"{f.first.path}:{f.first.line}",
                                 fmt.replace("\n", "\\n").replace("\t", " ")]) + "\n")
