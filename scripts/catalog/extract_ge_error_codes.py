#!/usr/bin/env python3
"""GE's error-code catalogue -> kb/messages/ge_error_codes.yaml (family src-ge-ecode): one entry per
catalogued message (docs/kb-messages.md).

Source: hicann/ge base/common/error_registry/error_registry.cc, the E1xxxx / W1xxxx codes GE and ATC
report, registered with REG_FORMAT_ERROR_MSG. (The error manager's own catalogue, hicann/runtime
src/dfx/error_manager/error_code.json, is kb/messages/runtime_ecodes.yaml, extract_runtime_ecodes.py.)

A call such as REPORT_PREDEFINED_ERR_MSG("E10001", {"value", "parameter", "reason"}, {...}) prints
the catalogued message with the values put in: "[PID: 123] <time> Invalid_Argument(E10001): Value
x for parameter y is invalid. Reason: z" (older releases: "E10001: [PID: ..] ... Value [x] ...").
The message is the format (its placeholders are %s), printed where the error manager prints (the
exception text, stderr) on a line the scan reads as error level ("[PID: ..] ... Title(E10001):"), so
`level: error` (W-codes, warnings, would be `level: any` and are left out by catalog_lib.gate_policy). The codes themselves already have hand-written entries
(kb/cann_ecodes.yaml); the message entry takes the category of its code's entry, so both agree;
codes without one take the code family's fallback (ecode.module-E1) unless a message rule fires.

Usage: extract_ge_error_codes.py [--doctor build/src/npu-doctor] [--dump-tsv FILE]
"""
import argparse
import os
import sys

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import catalog_lib as L  # noqa: E402
import ge_ops_common as C  # noqa: E402
import ge_rules  # noqa: E402

CATALOGUES = [
    dict(repo="hicann/ge", path="base/common/error_registry/error_registry.cc", family="src-ge-ecode",
         out="kb/messages/ge_error_codes.yaml", component="GE error codes",
         what="GE's error-code catalogue (the E1xxxx / W1xxxx codes GE and ATC report)"),
]


def curated_code_categories():
    """({E-code: category}, {prefix: category}) of the hand-written code entries
    (kb/cann_ecodes.yaml: exact codes, and the module fallbacks ecode.module-E<X>)."""
    out, prefixes = {}, {}
    kb = os.path.join(C.ROOT, "kb")
    for name in sorted(os.listdir(kb)):
        if not name.endswith(".yaml"):
            continue
        with open(os.path.join(kb, name), encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        ns = (doc.get("defaults") or {}).get("namespace")
        for e in doc.get("entries", []):
            if (e.get("namespace") or ns) != "ecode" or "category" not in e:
                continue
            for code in [e.get("code")] + list(e.get("codes") or []):
                if code:
                    out[str(code).upper()] = e["category"]
            for prefix in e.get("prefixes") or []:
                prefixes[str(prefix).upper()] = e["category"]
    return out, prefixes


def code_category(code, fmt, places, curated):
    """(category, rule): the code's own hand-written entry, else the message rules, else the code
    family's hand-written fallback."""
    exact, prefixes = curated
    if code.upper() in exact:
        return exact[code.upper()], "curated code entry"
    category, _role, _sym, why = C.classify(fmt, places, ge_rules.RULES)
    if why == "default":
        for n in (3, 2, 1):
            if code[:n].upper() in prefixes:
                return prefixes[code[:n].upper()], f"curated fallback {code[:n]}"
    return category, why


def build(cat, codes, commit, curated):
    entries, skipped = [], {"too_generic": 0}
    for code in sorted(codes):
        item = codes[code]
        fmt = item["format"]
        if L.pattern_of(fmt)[0] is None:
            skipped["too_generic"] += 1
            continue
        place = C.Place(path=cat["path"], line=item["line"], function="", macro="REPORT_PREDEFINED_ERR_MSG",
                        module=None, logged=False, reported=True, args=[], context=item["title"], after="")
        _category, role, symptom_of, _why = C.classify(fmt, [place], ge_rules.RULES)
        category, why = code_category(code, fmt, [place], curated)
        e = {"id": f"{cat['family']}.{code}", "format": fmt, "category": category, "role": role,
             "symptom_of": symptom_of, "level": "any" if code.startswith("W") else "error",
             "title": C.title(code, fmt),
             "references": [L.blob_url(cat["repo"], commit, cat["path"], item["line"])],
             "samples": [C.registry_line(code, item["title"] or "Error", L.fill(fmt))],
             "_rule": why, "_module": item["class"], "_place": f"{cat['path']}:{item['line']}"}
        if code.startswith("W"):
            e["severity"] = "warning"
        entries.append(e)
    return entries, skipped


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--doctor", default=os.path.join(C.ROOT, "build/src/npu-doctor"),
                    help="npu-doctor binary, to find the lines a hand-written entry already claims")
    ap.add_argument("--texts", default=os.path.join(C.ROOT, "scripts/catalog/overrides/ge_error_codes.texts.yaml"))
    ap.add_argument("--dump-tsv", help="also write every entry with its rule and place (for review)")
    a = ap.parse_args()
    curated = curated_code_categories()
    all_entries, parts = [], []
    for cat in CATALOGUES:
        mirror = C.mirror(cat["repo"])
        commit = L.head_commit(mirror)
        codes = C.registry(L.read_file(mirror, cat["path"]))
        entries, skipped = build(cat, codes, commit, curated)
        parts.append((cat, commit, codes, entries, skipped))
        all_entries += entries
    full = C.apply_texts(all_entries, C.load_texts(a.texts), a.texts)
    claimed = C.agree_with_curated(all_entries, a.doctor)
    C.finish(all_entries, a.dump_tsv)
    for cat, commit, codes, entries, skipped in parts:
        C.write(os.path.join(C.ROOT, cat["out"]), cat["family"],
                f"The messages of {cat['what']}, {cat['repo']} {cat['path']}: one entry per catalogued message, as "
                "the error manager prints it. Generated by scripts/catalog/extract_ge_error_codes.py.",
                cat["component"], cat["repo"], commit, len(codes), skipped, "compiler", entries)
        print(f"{cat['out']}: {len(entries)} entries from {len(codes)} codes, skipped {skipped}", file=sys.stderr)
    print(f"{full} entries with full texts; {claimed} samples claimed by hand-written entries", file=sys.stderr)


if __name__ == "__main__":
    main()
