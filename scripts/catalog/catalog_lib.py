"""Shared pieces of the message-catalogue extractors (docs/kb-messages.md).

Each `extract_<component>.py` reads a component's public source (a snapshot brought with the
search tool's `fetch`, a bare git directory read with `git show`), finds its ERROR-level log
calls, and writes `kb/messages/<component>.yaml`. This module holds what every extractor
needs: reading files at a commit, finding C/C++ macro calls and their format strings, finding
Python raises and logger.error calls, turning a format into the pattern the build generates
(to check it keeps enough literal text) and into a sample line, ids, and the YAML writer.
Standard library + PyYAML only.
"""
import ast
import hashlib
import re
import subprocess

# ---------------------------------------------------------------------------------------------
# Reading a snapshot

def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True).stdout


def head_commit(repo, rev="HEAD"):
    return git(repo, "rev-parse", rev).decode().strip()


def list_files(repo, rev="HEAD", suffixes=(".c", ".cc", ".cpp", ".h", ".hpp", ".py")):
    names = git(repo, "ls-tree", "-r", "--name-only", rev).decode("utf-8", "replace").splitlines()
    return [n for n in names if n.endswith(suffixes)]


def read_file(repo, path, rev="HEAD"):
    return git(repo, "show", f"{rev}:{path}").decode("utf-8", "replace")


def blob_url(repo_name, commit, path, line):
    return f"https://github.com/{repo_name}/blob/{commit}/{path}#L{line}"

# ---------------------------------------------------------------------------------------------
# C and C++: macro calls and their format strings

_PRI = re.compile(r"PRI([diouxX])(8|16|32|64|MAX|PTR|LEAST\d+|FAST\d+)")


def strip_c_comments(text):
    """Comments replaced by spaces (newlines kept, so line numbers stay right)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _call_args(text, open_paren):
    """The top-level arguments of a call whose '(' is at open_paren, and the end index."""
    depth, i, n = 0, open_paren, len(text)
    args, start = [], open_paren + 1
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[start:i])
                return args, i
        elif c == "," and depth == 1:
            args.append(text[start:i])
            start = i + 1
        i += 1
    return None, n


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "", "a": "", "b": "", "v": "", "f": ""}


def c_format_of(arg):
    """The string an argument spells when it is only adjacent string literals and PRI macros
    ("size %" PRIu64 " too big"), else None."""
    s, i, n, parts = arg.strip(), 0, len(arg.strip()), []
    if not s.startswith(('"', "L\"", "u8\"")) and not s.startswith("PRI"):
        return None
    while i < n:
        c = s[i]
        if c.isspace():
            i += 1
        elif c == '"' or s.startswith(('L"', 'u8"'), i):
            i = s.index('"', i) + 1
            buf = []
            while i < n and s[i] != '"':
                if s[i] == "\\" and i + 1 < n:
                    buf.append(_ESCAPES.get(s[i + 1], s[i + 1]))
                    i += 2
                else:
                    buf.append(s[i])
                    i += 1
            parts.append("".join(buf))
            i += 1
        else:
            m = _PRI.match(s, i)
            if not m:
                return None
            conv = m.group(1)
            parts.append({"8": "hh", "16": "h", "32": "", "64": "ll"}.get(m.group(2), "ll") + conv)
            i = m.end()
    return "".join(parts) if parts else None


def find_c_calls(text, macros):
    """Yields (macro, [args], line) for each call of one of `macros` in C/C++ source text."""
    clean = strip_c_comments(text)
    pat = re.compile(r"\b(" + "|".join(re.escape(m) for m in macros) + r")\s*\(")
    for m in pat.finditer(clean):
        # Skip the macro's own #define.
        line_start = clean.rfind("\n", 0, m.start()) + 1
        if clean[line_start:m.start()].lstrip().startswith("#"):
            continue
        args, _ = _call_args(clean, m.end() - 1)
        if args is None:
            continue
        yield m.group(1), args, clean.count("\n", 0, m.start()) + 1

# ---------------------------------------------------------------------------------------------
# Python: raise X("..."), raise X(f"..."), logger.error("...")

def _py_format(node):
    """A format in python style ({} placeholders) from a str / f-string / "..." % x / .format."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        out = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                out.append(str(v.value).replace("{", "{{").replace("}", "}}"))
            else:
                out.append("{}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = node.left
        if isinstance(left, ast.Constant) and isinstance(left.value, str):
            return re.sub(r"%[-+ #0]*\d*(?:\.\d+)?[sdifrxXegc]", "{}", left.value.replace("{", "{{").replace("}", "}}"))
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _py_format(node.left), _py_format(node.right)
        if a is None and b is None:
            return None
        return (a if a is not None else "{}") + (b if b is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = node.func.value
        if isinstance(base, ast.Constant) and isinstance(base.value, str):
            return base.value
    return None


def find_py_messages(text, logger_levels=("error", "exception", "critical", "fatal")):
    """Yields (kind, name, format, line): kind 'raise' (name = exception class) or 'log'
    (name = level) for each raise of a class / logger call at one of `logger_levels`."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
            func = node.exc.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
            fmt = _py_format(node.exc.args[0])
            if name and fmt is not None:
                yield "raise", name, fmt, node.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in logger_levels:
                fmt = _py_format(node.args[0])
                if fmt is not None:
                    yield "log", node.func.attr, fmt, node.lineno

# ---------------------------------------------------------------------------------------------
# Formats: the pattern the build generates (mirrors src/kbc), literal text, samples

_PRINTF = re.compile(r"%(%|[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|j|z|t|L|q|I64|I32)?([diouxXeEfFgGaAcspn]))")
_PYFMT = re.compile(r"\{\{|\}\}|\{[^{}]*\}|%[-+ #0]*\d*(?:\.\d+)?[sdifrxXegc]")


def printf_pieces(fmt):
    """[(literal, None) | (None, conversion)] of a printf format."""
    out, pos = [], 0
    for m in _PRINTF.finditer(fmt):
        if m.start() > pos:
            out.append((fmt[pos:m.start()], None))
        out.append(("%", None) if m.group(1) == "%" else (None, m.group(2)))
        pos = m.end()
    if pos < len(fmt):
        out.append((fmt[pos:], None))
    return out


def python_pieces(fmt):
    out, pos = [], 0
    for m in _PYFMT.finditer(fmt):
        if m.start() > pos:
            out.append((fmt[pos:m.start()], None))
        tok = m.group(0)
        out.append(({"{{": "{", "}}": "}"}[tok], None) if tok in ("{{", "}}") else (None, "s"))
        pos = m.end()
    if pos < len(fmt):
        out.append((fmt[pos:], None))
    return out


def pieces(fmt, style="printf"):
    p = printf_pieces(fmt) if style == "printf" else python_pieces(fmt)
    merged = []  # adjacent literals joined
    for lit, conv in p:
        if lit is not None and merged and merged[-1][0] is not None:
            merged[-1] = (merged[-1][0] + lit, None)
        else:
            merged.append((lit, conv))
    return merged


def literal_runs(fmt, style="printf"):
    """The literal runs of a format as the generated pattern keeps them (one line: text after
    a newline in the format is dropped, as logs print one record per line)."""
    runs = []
    for lit, _ in pieces(fmt, style):
        if lit is not None:
            runs.extend(x for x in lit.split("\n"))
    return [r for r in (x.strip() for x in runs) if r]


def is_recognisable(fmt, style="printf", min_run=4):
    """True when the pattern would keep a literal run of at least `min_run` characters."""
    return any(len(r) >= min_run for r in literal_runs(fmt, style))


_FILL = {"d": "1", "i": "1", "u": "3", "o": "7", "x": "1a", "X": "1A", "e": "1.5", "E": "1.5", "f": "1.5",
         "F": "1.5", "g": "1.5", "G": "1.5", "a": "1.5", "A": "1.5", "c": "c", "s": "foo", "p": "0x7f12",
         "n": ""}


def fill(fmt, style="printf"):
    """A realistic message from a format: placeholders filled with short values; only the
    first line (what a log line shows)."""
    text = "".join(lit if lit is not None else _FILL.get(conv, "x") for lit, conv in pieces(fmt, style))
    return text.split("\n")[0].rstrip()


def plog_line(module, message, file="src.cc", line=100, level="ERROR", pid=12345):
    """A line as CANN's dlog prints it into a plog or to stdout."""
    return f"[{level}] {module}({pid},python):2025-03-02-10:55:12.313.101 [{file}:{line}]{pid + 1} {message}"


def python_log_line(message, level="ERROR"):
    """A Python logging line in vLLM's format."""
    return f"{level} 03-02 10:55:12 [worker.py:100] {message}"


def exception_line(cls, message):
    return f"{cls}: {message}"

# ---------------------------------------------------------------------------------------------
# Ids

def slug(fmt, style="printf", words=6):
    text = " ".join(literal_runs(fmt, style)).lower()
    parts = re.findall(r"[a-z][a-z0-9]*", text)
    stop = {"the", "a", "an", "is", "of", "to", "in", "and", "or", "for", "with", "s", "d", "u", "ld", "lu", "llu", "zu", "x"}
    parts = [p for p in parts if p not in stop][:words]
    h = hashlib.sha1(fmt.encode()).hexdigest()[:4]
    return ("-".join(parts) or "message") + "-" + h

# ---------------------------------------------------------------------------------------------
# YAML writing (stable, diff-friendly)

def q(s):
    """A single-quoted YAML scalar (always valid, never interpreted)."""
    return "'" + str(s).replace("'", "''") + "'"


def text_map(t):
    return "{en: " + q(t["en"]) + ", zh: " + q(t["zh"]) + "}"


def write_messages_file(path, header, entries):
    """header: dict with family, description, source{...}, defaults{...}.
    entries: list of dicts with id, format, [format_style], category, [role], [symptom_of],
    [severity], [level], [raised_as], title{en,zh}, [cause], [remedies], references, samples."""
    out = ["schema: npu-doctor/kb/v1", f"family: {header['family']}",
           "description: " + q(header["description"]), "source:"]
    for k, v in header["source"].items():
        if isinstance(v, dict):
            out.append(f"  {k}:")
            out.extend(f"    {kk}: {vv}" for kk, vv in v.items())
        else:
            out.append(f"  {k}: {v}")
    out.append("defaults:")
    out.extend(f"  {k}: {v}" for k, v in header["defaults"].items())
    out.append("entries:")
    for e in entries:
        out.append(f"  - id: {e['id']}")
        out.append("    format: " + q(e["format"]))
        for key in ("format_style", "category", "role", "severity", "level", "layer"):
            if e.get(key):
                out.append(f"    {key}: {e[key]}")
        if e.get("symptom_of"):
            out.append("    symptom_of: [" + ", ".join(e["symptom_of"]) + "]")
        if e.get("raised_as"):
            out.append("    raised_as: [" + ", ".join(e["raised_as"]) + "]")
        out.append("    title: " + text_map(e["title"]))
        if e.get("cause"):
            out.append("    cause: " + text_map(e["cause"]))
        if e.get("remedies"):
            out.append("    remedies:")
            out.extend("      - " + text_map(r) for r in e["remedies"])
        out.append("    references: [" + ", ".join(q(r) for r in e["references"]) + "]")
        out.append("    samples: {match: [" + ", ".join(q(s) for s in e["samples"]) + "]}")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
