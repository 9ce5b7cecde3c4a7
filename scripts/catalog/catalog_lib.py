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
import json
import re
import subprocess

import yaml

# libyaml's parser when PyYAML has it (Debian's python3-yaml does): the same documents, several
# times faster on kb/*.yaml, whose generated files hold about 90,000 entries.
YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(path):
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=YAML_LOADER)

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


_ESCAPES = {"\n": "", "n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "0": "", "a": "", "b": "", "v": "", "f": ""}


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


def _exception_name(func):
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None


class _Scopes(ast.NodeVisitor):
    """The string assignments (`msg = f"..."`) of each function, to resolve `raise X(msg)`."""

    def __init__(self):
        self.stack, self.assigns = [{}], {}

    def _scope(self, node):
        self.stack.append({})
        self.generic_visit(node)
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = _scope

    def visit_Assign(self, node):
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            self.stack[-1].setdefault(node.targets[0].id, []).append((node.lineno, node.value))
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if isinstance(node.target, ast.Name) and node.value is not None:
            self.stack[-1].setdefault(node.target.id, []).append((node.lineno, node.value))
        self.generic_visit(node)

    def generic_visit(self, node):
        for child in ast.iter_child_nodes(node):
            self.assigns[id(child)] = self.stack[-1]
        super().generic_visit(node)


def _resolve(node, scopes, line):
    """The value last assigned to a Name before `line` in the node's function, else the node."""
    if isinstance(node, ast.Name) and scopes is not None:
        before = [v for ln, v in scopes.assigns.get(id(node), {}).get(node.id, []) if ln <= line]
        if before:
            return before[-1]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Name):
        left = _resolve(node.left, scopes, line)
        if left is not node.left:
            return ast.BinOp(left=left, op=node.op, right=node.right)
    return node


def find_py_messages(text, logger_levels=("error", "exception", "critical", "fatal"), *, asserts=False,
                     resolve_names=False):
    """Yields (kind, name, format, line): kind 'raise' (name = exception class) or 'log'
    (name = level) for each raise of a class / logger call at one of `logger_levels`.
    Opt-in: `asserts` adds ('assert', 'AssertionError', ...) for `assert cond, "message"`;
    `resolve_names` follows a message held in a variable of the same function
    (`msg = f"..."; raise X(msg)`, `err_msg % args`) and exceptions built before they are
    raised (`e = Exception("..."); raise e`)."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    scopes = None
    if resolve_names:
        scopes = _Scopes()
        scopes.visit(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = _resolve(node.exc, scopes, node.lineno) if isinstance(node.exc, ast.Name) else node.exc
            if isinstance(exc, ast.Call) and exc.args:
                name = _exception_name(exc.func)
                fmt = _py_format(_resolve(exc.args[0], scopes, node.lineno))
                if name and fmt is not None:
                    yield "raise", name, fmt, node.lineno
        elif asserts and isinstance(node, ast.Assert) and node.msg is not None:
            fmt = _py_format(_resolve(node.msg, scopes, node.lineno))
            if fmt is not None:
                yield "assert", "AssertionError", fmt, node.lineno
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if node.func.attr in logger_levels:
                fmt = _py_format(_resolve(node.args[0], scopes, node.lineno))
                if fmt is not None:
                    yield "log", node.func.attr, fmt, node.lineno

# ---------------------------------------------------------------------------------------------
# Go: hwlog.RunLog.Errorf("...", ...), fmt.Errorf("..."), errors.New("...")

def _go_raw_strings_quoted(text):
    """Go raw strings (`...`) rewritten as "..." literals; the newlines they held follow the
    closing quote, so line numbers stay right."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(text[i:j])
            i = j
        elif c == "`":
            j = text.find("`", i + 1)
            j = n if j < 0 else j
            body = text[i + 1:j]
            out.append('"' + body.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"' + "\n" * body.count("\n"))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


# Go verbs without a printf twin print text: they become %s (%v, %+v, %#v, %q, %w, %T, %t, %U);
# %b prints digits.
_GO_VERB = re.compile(r"%([-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?)([vqwTtUb])")


def go_format_of(arg):
    """The format an argument spells: Go string literals joined by `+`; other operands (named
    constants, variables, calls) become %s when at least one literal is there. Go's verbs
    are written as their printf twins (%v -> %s), so the format is printf style."""
    s, parts, has_lit = arg.strip(), [], False
    for operand in _split_plus(s):
        operand = operand.strip()
        if operand.startswith('"') and operand.endswith('"') and len(operand) >= 2:
            buf, i, body = [], 0, operand[1:-1]
            while i < len(body):
                if body[i] == "\\" and i + 1 < len(body):
                    buf.append(_ESCAPES.get(body[i + 1], body[i + 1]))
                    i += 2
                else:
                    buf.append(body[i])
                    i += 1
            parts.append(_GO_VERB.sub(lambda m: "%" + m.group(1).replace("+", "").replace("#", "") + ("d" if m.group(2) == "b" else "s"), "".join(buf)))
            has_lit = True
        elif operand:
            parts.append("%s")
    return "".join(parts) if has_lit else None


def _split_plus(s):
    """Top-level operands of a `+` chain (strings and brackets respected)."""
    out, depth, i, start = [], 0, 0, 0
    while i < len(s):
        c = s[i]
        if c == '"':
            j = i + 1
            while j < len(s) and s[j] != '"':
                j += 2 if s[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "+" and depth == 0:
            out.append(s[start:i])
            start = i + 1
        i += 1
    out.append(s[start:])
    return out


def find_go_calls(text, callee_regex):
    """Yields (callee, [args], line) for each call whose callee (`hwlog.RunLog.Errorf`,
    `fmt.Errorf`, `errors.New`) matches `callee_regex` (a regex over the dotted name)."""
    clean = strip_c_comments(_go_raw_strings_quoted(text))
    pat = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w*\.)*(?:" + callee_regex + r"))\s*\(")
    for m in pat.finditer(clean):
        args, _ = _call_args(clean, m.end() - 1)
        if args is None:
            continue
        yield m.group(1), args, clean.count("\n", 0, m.start()) + 1

# ---------------------------------------------------------------------------------------------
# Formats: the pattern the build generates (mirrors src/kbc), literal text, samples

_PRINTF = re.compile(r"%(%|[-+ #0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|j|z|t|L|q|I64|I32)?([diouxXeEfFgGaAcspn]))")
_PYFMT = re.compile(r"\{\{|\}\}|%%|\{[^{}]*\}|%[-+ #0]*\d*(?:\.\d+)?[sdifrxXegc]")


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
        if tok in ("{{", "}}", "%%"):
            out.append(({"{{": "{", "}}": "}", "%%": "%"}[tok], None))
        elif tok.startswith("%"):
            # %-style keeps its conversion (the build turns %d into digits): %r prints as text.
            out.append((None, "s" if tok[-1] == "r" else tok[-1]))
        else:
            out.append((None, "s"))
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


# The build's generator (src/core/message_format.cpp), mirrored to check samples before the
# build can: placeholders become these classes, literals are escaped, leading and trailing
# placeholders and everything after a newline are dropped, trailing blanks are trimmed.
_CONV_RE = {"d": r"-?\d+", "i": r"-?\d+", "u": r"\d+", "o": r"\d+",
            "x": r"(?:0[xX])?[0-9a-fA-F]+|\(nil\)", "X": r"(?:0[xX])?[0-9a-fA-F]+|\(nil\)",
            "p": r"(?:0[xX])?[0-9a-fA-F]+|\(nil\)", "c": "."}
_FLOAT_RE = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|-?inf|-?nan"


def _build_printf_pieces(f):
    out, lit, i = [], "", 0
    while i < len(f):
        if f[i] != "%":
            lit += f[i]
        elif i + 1 < len(f) and f[i + 1] == "%":
            lit += "%"
            i += 1
        else:
            j = i + 1
            while j < len(f) and f[j] in "-+ #0'":
                j += 1
            while j < len(f) and (f[j].isdigit() or f[j] == "*"):
                j += 1
            if j < len(f) and f[j] == ".":
                j += 1
                while j < len(f) and (f[j].isdigit() or f[j] == "*"):
                    j += 1
            while j < len(f) and f[j] in "hljztLqI3264":
                j += 1
            if j < len(f) and f[j] in "diouxXeEfFgGaAcspn":
                if lit:
                    out.append((lit, None))
                    lit = ""
                if f[j] != "n":
                    out.append((None, f[j]))
                i = j
            else:
                lit += "%"
        i += 1
    if lit:
        out.append((lit, None))
    return out


def pattern_of(fmt, style="printf", raised_as=()):
    """(regex, longest literal) as the build generates them for a catalogue entry, or
    (None, longest) when the format keeps no literal of 4 or more characters."""
    fmt = fmt.split("\n")[0]
    p = _build_printf_pieces(fmt) if style == "printf" else python_pieces(fmt)
    merged = []
    for lit, conv in p:
        if lit is not None and merged and merged[-1][0] is not None:
            merged[-1] = (merged[-1][0] + lit, None)
        else:
            merged.append((lit, conv))
    while merged and merged[-1][0] is not None:
        t = merged[-1][0].rstrip(" \r\t")
        if t:
            merged[-1] = (t, None)
            break
        merged.pop()
    leading = bool(merged) and merged[0][0] is None
    while merged and merged[0][0] is None:
        merged.pop(0)
    while merged and merged[-1][0] is None:
        merged.pop()
    regex, longest = "", 0
    for lit, conv in merged:
        if lit is None:
            regex += "(?:" + (_FLOAT_RE if conv in "eEfFgGaA" else _CONV_RE.get(conv, ".*?")) + ")"
            continue
        longest = max(longest, len(lit.encode()))
        for ch in lit:
            if ch.isascii() and (ch.isalnum() or ch in " _"):
                regex += ch
            elif not ch.isascii():
                regex += ch
            elif ch == "\t":
                regex += "\\t"
            elif ch.isprintable():
                regex += "\\" + ch
            else:
                regex += "\\x%02x" % ord(ch)
    if longest < 4:
        return None, longest
    if raised_as:
        regex = r"\b(?:" + "|".join(c.replace(".", r"\.") for c in raised_as) + "): " + (".*?" if leading else "") + regex
    return regex, longest


def python_regex(pattern):
    """A knowledge-base pattern (PCRE2) in Python's dialect: named groups are (?P<name>...)."""
    return re.sub(r"\(\?<(?=[A-Za-z_])", "(?P<", pattern)


def sample_matches(sample, fmt, style="printf", raised_as=()):
    regex, _ = pattern_of(fmt, style, raised_as)
    return regex is not None and re.search(regex, sample) is not None


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
    """A YAML scalar that reads back as exactly `s`: single-quoted, or double-quoted with
    escapes when it holds line breaks or other control characters (a single-quoted scalar
    folds a line break into a space)."""
    s = str(s)
    if any(ord(c) < 0x20 or ord(c) == 0x7f for c in s):
        return json.dumps(s, ensure_ascii=False)
    return "'" + s.replace("'", "''") + "'"


def text_map(t):
    return "{en: " + q(t["en"]) + ", zh: " + q(t["zh"]) + "}"


# ---------------------------------------------------------------------------------------------
# What the scan's gate can cover (docs/scanning.md, docs/kb-messages.md "level")

# find_level() (src/core/line_info.cpp) in short: the markers of an error-level line. The
# build's lint checks every `level: error` sample with the real function.
_GLOG_START = re.compile(r"^[EF]\d{4} \d\d:")
_LEVEL_WORDS = [("[ERROR]", "E"), ("[WARNING]", "W"), ("[WARN]", "W"), ("ERROR:", "E"), ("[INFO]", "I"),
                ("[DEBUG]", "D"), ("[TRACE]", "D"), ("[EVENT]", "I"), ("ERROR ", "E"), ("WARNING ", "W"),
                ("INFO ", "I"), ("DEBUG ", "D"), ("| ERROR", "E"), ("| WARNING", "W"), ("| INFO", "I"),
                ("- ERROR -", "E"), ("- WARNING -", "W"), ("- INFO -", "I")]
_REPORTED = re.compile(r"[EW][0-9A-Z]\d{4}(?:: )?\[PID:|\([EW][0-9A-Z]\d{4}\):")


def is_error_level_line(line):
    head = line[:160]
    if _GLOG_START.match(head):
        return True
    for m in re.finditer(r"\[([WEIF])[ \d]", head):
        return m.group(1) in "EF"
    best, level = None, None
    for word, lv in _LEVEL_WORDS:
        p = head.find(word)
        if p < 0 or (best is not None and p >= best):
            continue
        if word[0] not in "[|-" and p > 0 and head[p - 1] not in " )]":
            continue
        best, level = p, lv
    if level is not None:
        return level == "E"
    m = _REPORTED.search(head) if "[PID:" in head else None
    return bool(m) and m.group(0).lstrip("(")[0] == "E"


# Words the scan gate has: `error` and `fail` always, `exception` and `timeout` often (the build
# chooses the gate from the whole knowledge base; it names every pattern left in the first
# stage). A `level: any` entry whose literal text holds one costs the gate no literal of its own.
GATE_WORDS = ("error", "fail", "exception", "timeout")


def gate_covers(e, style="printf"):
    """True when the scan's first stage need not run this entry's pattern: it is recognised
    only on error-level lines, or every match holds one of GATE_WORDS."""
    if e.get("level") == "error":
        return True
    runs = [r.lower() for r in literal_runs(e["format"].split("\n")[0], style)]
    if any(w in r for r in runs for w in GATE_WORDS):
        return True
    classes = e.get("raised_as") or []
    return bool(classes) and all(any(w in c.lower() for w in GATE_WORDS) for c in classes)


def gate_policy(header, entries):
    """Every entry the gate cannot cover would run in the scan's first stage and slow every scan
    (docs/scanning.md). An entry whose sample is an error-level line gets `level: error`; one
    that stays uncoverable is left out and counted in `source.skipped.ungated`."""
    default_level = header["defaults"].get("level", "any")
    kept, ungated, promoted = [], 0, 0
    for e in entries:
        style = e.get("format_style") or "printf"
        view = dict(e, level=e.get("level") or default_level)
        if not gate_covers(view, style) and all(is_error_level_line(s) for s in e["samples"]):
            e["level"] = "error" if default_level != "error" else ""
            promoted += 1
        elif not gate_covers(view, style):
            ungated += 1
            continue
        kept.append(e)
    if ungated:
        header["source"].setdefault("skipped", {})["ungated"] = ungated
    return kept, promoted, ungated


def write_messages_file(path, header, entries):
    """header: dict with family, description, source{...}, defaults{...}.
    entries: list of dicts with id, format, [format_style], category, [role], [symptom_of],
    [severity], [level], [raised_as], title{en,zh}, [cause], [remedies], references, samples.
    gate_policy() decides the level of entries the scan's gate could not cover, or leaves them out."""
    entries, promoted, ungated = gate_policy(header, entries)
    if promoted or ungated:
        print(f"{path}: gate policy: {promoted} entries made level error (error-level samples), "
              f"{ungated} left out (skipped.ungated)")
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
