#!/usr/bin/env python3
"""Validates npu-doctor JSON documents against docs/schemas/*.schema.json.

A document's `schema` field (`npu-doctor/<name>/v1`) picks `docs/schemas/<name>-v1.schema.json`;
schemas refer to each other (`common-v1.schema.json#/$defs/finding`) by their `$id`.
Works with Debian 12's python3-jsonschema (4.10, RefResolver) and newer releases
(4.18+, the `referencing` registry).

usage: schema_check.py SOURCE_DIR FILE...    validate each file (a JSON document or JSON lines)
"""
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:  # pragma: no cover - depends on the machine
    sys.exit("schema_check: python3-jsonschema is missing (sh scripts/install-deps.sh installs it)")

_cache = {}


def schema_file(source, schema_id):
    """`npu-doctor/diagnosis/v1` -> docs/schemas/diagnosis-v1.schema.json."""
    parts = schema_id.split("/")
    if len(parts) != 3 or parts[0] != "npu-doctor":
        return None
    return os.path.join(source, "docs", "schemas", f"{parts[1]}-{parts[2]}.schema.json")


def _validator(source, path):
    key = (source, path)
    if key in _cache:
        return _cache[key]
    schemas = {}
    for p in glob.glob(os.path.join(source, "docs", "schemas", "*.schema.json")):
        with open(p, encoding="utf-8") as f:
            s = json.load(f)
        schemas[s["$id"]] = s
    with open(path, encoding="utf-8") as f:
        root = json.load(f)
    cls = jsonschema.validators.validator_for(root)
    cls.check_schema(root)
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18

        registry = Registry().with_resources((i, Resource.from_contents(s)) for i, s in schemas.items())
        v = cls(root, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(root, store=schemas)
        v = cls(root, resolver=resolver)
    _cache[key] = v
    return v


def validate(source, schema_id, doc):
    """The problems of `doc` against the schema its id names, as sentences (empty: valid)."""
    path = schema_file(source, schema_id)
    if path is None or not os.path.exists(path):
        return [f"no schema file for {schema_id} (expected {path})"]
    v = _validator(source, path)
    errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
    return [f"at /{'/'.join(str(p) for p in e.absolute_path)}: {e.message[:300]}" for e in errors[:10]]


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, failed = sys.argv[1], 0
    for name in sys.argv[2:]:
        with open(name, encoding="utf-8") as f:
            text = f.read()
        try:
            docs = [json.loads(text)]
        except json.JSONDecodeError:
            docs = [json.loads(l) for l in text.splitlines() if l.strip()]
        for doc in docs:
            for problem in validate(source, doc.get("schema", "?"), doc):
                print(f"{name}: {problem}")
                failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
