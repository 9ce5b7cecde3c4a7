#!/usr/bin/env python3
"""The schemas in docs/schemas reject broken documents (a schema that accepts everything is a defect).

usage: schema_selftest.py SOURCE_DIR

Every contract a docs/json-*.md names has a schema. For every contract schema: it is a
valid draft 2020-12 schema, at least one golden output
(tests/golden/**/*.json, *.jsonl) exercises it, that output is valid, and each of these
broken copies of it is rejected:
  - every required top-level field removed, one at a time;
  - every top-level field given a value of a type it never has;
  - `schema` naming another contract;
  - in the first finding (and first input), a required field removed, `severity` `fatal`,
    `category` `gpu`, `count` a string.
"""
import copy
import glob
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import schema_check  # noqa: E402


def golden_documents(source):
    """schema id -> [(file, document)], from the expected outputs (placeholders made concrete)."""
    docs = {}
    root = os.path.join(source, "tests", "golden")
    for path in sorted(glob.glob(os.path.join(root, "**", "*.json*"), recursive=True)):
        if os.sep + "fixtures" + os.sep in path:
            continue
        with open(path, encoding="utf-8") as f:
            # Normalised numbers ({n}, {seconds}) are placeholders outside quotes; run times ({utc}) inside.
            text = f.read().replace("{n}", "0").replace("{seconds}", "0").replace("{utc}", "2026-01-01T00:00:00Z")
            text = text.replace("{sha256}", "0" * 64)
        try:
            items = [json.loads(text)]
        except json.JSONDecodeError:
            try:
                items = [json.loads(line) for line in text.splitlines() if line.strip()]
            except json.JSONDecodeError:
                continue
        for d in items:
            if isinstance(d, dict) and isinstance(d.get("schema"), str):
                docs.setdefault(d["schema"], []).append((os.path.relpath(path, source), d))
    return docs


def wrong_value(value):
    """A value of a JSON type `value` does not have (and that no field here accepts together with it)."""
    if isinstance(value, bool):
        return "not a boolean"
    if isinstance(value, (int, float)):
        return "not a number"
    if isinstance(value, str):
        return {"not": "a string"}
    if isinstance(value, list):
        return "not an array"
    if isinstance(value, dict):
        return ["not an object"]
    # null: an object without the fields any nullable object here requires, and no string or number.
    return {"unexpected": True}


def mutations(doc, schema):
    required = schema.get("required", [])
    for key in required:
        d = copy.deepcopy(doc)
        del d[key]
        yield f"without `{key}`", d
    for key, value in doc.items():
        if key in schema.get("properties", {}):
            d = copy.deepcopy(doc)
            d[key] = wrong_value(value)
            yield f"`{key}` of the wrong type", d
    d = copy.deepcopy(doc)
    d["schema"] = "npu-doctor/other/v1"
    yield "`schema` naming another contract", d
    for list_key in ("findings", "inputs"):
        items = doc.get(list_key)
        if not isinstance(items, list) or not items or not isinstance(items[0], dict):
            continue
        first = items[0]
        for field in ("rule", "entry", "path", "evidence", "status"):
            if field in first:
                d = copy.deepcopy(doc)
                del d[list_key][0][field]
                yield f"{list_key}[0] without `{field}`", d
                break
        for field, bad in (("severity", "fatal"), ("category", "gpu"), ("count", "3"), ("status", "fine")):
            if field in first:
                d = copy.deepcopy(doc)
                d[list_key][0][field] = bad
                yield f"{list_key}[0].{field} = {bad!r}", d


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    source = sys.argv[1]
    docs = golden_documents(source)
    failures, checked, contracts = [], 0, 0
    for path in sorted(glob.glob(os.path.join(source, "docs", "schemas", "*.schema.json"))):
        name = os.path.basename(path)
        with open(path, encoding="utf-8") as f:
            schema = json.load(f)
        try:
            schema_check.jsonschema.validators.validator_for(schema).check_schema(schema)
        except schema_check.jsonschema.exceptions.SchemaError as e:
            failures.append(f"{name}: not a valid schema: {e.message}")
            continue
        if "properties" not in schema or "schema" not in schema["properties"]:
            continue  # shared definitions only
        sid = schema["properties"]["schema"]["const"]
        if schema_check.schema_file(source, sid) != path:
            failures.append(f"{name}: its `schema` const {sid} does not name this file")
            continue
        contracts += 1
        examples = docs.get(sid, [])
        if not examples:
            failures.append(f"{name}: no golden output in tests/golden exercises {sid}")
            continue
        # The smallest golden document of the contract that has findings (every mutation is
        # validated in full, and the findings' mutations need one).
        examples.sort(key=lambda e: (not e[1].get("findings"), len(json.dumps(e[1]))))
        for file, doc in examples[:1]:
            problems = schema_check.validate(source, sid, doc)
            if problems:
                failures.append(f"{name}: the golden {file} is invalid: {problems[0]}")
                continue
            for what, broken in mutations(doc, schema):
                checked += 1
                if not schema_check.validate(source, sid, broken):
                    failures.append(f"{name}: accepted {file} {what}")
    # Every contract a docs/json-*.md names has its schema (the replay record is declared internal there).
    for doc_path in sorted(glob.glob(os.path.join(source, "docs", "json-*.md"))):
        with open(doc_path, encoding="utf-8") as f:
            named = set(re.findall(r"npu-doctor/[a-z-]+/v[0-9]+", f.read()))
        for sid in sorted(named - {"npu-doctor/probe-record/v1"}):
            if not os.path.exists(schema_check.schema_file(source, sid)):
                failures.append(f"{os.path.basename(doc_path)} names {sid}: no docs/schemas file for it")
    print(f"{checked} broken documents tried against {contracts} contract schemas")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
