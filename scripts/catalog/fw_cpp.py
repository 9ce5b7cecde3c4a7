"""C++ diagnostics of the compilers around CANN (Triton-Ascend's MLIR passes, AscendC): calls
such as `op.emitError("...") << x << "..."`, `llvm::report_fatal_error("..." + s)` whose
message is built from string literals and other operands. Each becomes a printf-style format
(non-literal operands as %s)."""
import re

import catalog_lib as L
from fw_common import Record, context_lines

_STR = re.compile(r'(?:u8|L)?"((?:[^"\\\n]|\\.)*)"')


def _split_top(s, sep_regex):
    """Top-level operands of an expression split at `sep_regex` (strings, brackets respected)."""
    out, depth, i, start = [], 0, 0, 0
    sep = re.compile(sep_regex)
    while i < len(s):
        c = s[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < len(s) and s[j] != c:
                j += 2 if s[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            m = sep.match(s, i)
            if m:
                out.append(s[start:i])
                i = start = m.end()
                continue
        i += 1
    out.append(s[start:])
    return out


def _unwrap(operand):
    """`llvm::StringRef("...")`, `std::string("...")`, `llvm::Twine(...)`: the inside."""
    o = operand.strip()
    m = re.match(r"^(?:[\w:]+::)?(?:StringRef|Twine|string|std::string)\s*\((.*)\)$", o, re.S)
    return m.group(1).strip() if m else o


def expr_format(expr):
    """A printf format from a C++ string expression: literals kept (adjacent ones joined),
    other operands of `+` / `<<` as %s. None when no literal is there."""
    parts, has_lit = [], False
    for operand in _split_top(expr, r"\+(?!\+)|<<"):
        operand = _unwrap(operand)
        fmt = L.c_format_of(operand) if operand.startswith(('"', 'L"', 'u8"')) else None
        if fmt is not None:
            parts.append(fmt.replace("%", "%%"))
            has_lit = True
        elif operand.strip():
            parts.append("%s")
    if not has_lit:
        return None
    out = re.sub(r"(?:%s)+", "%s", "".join(parts))
    return out


def diagnostic_records(repo, rev, paths, names, line_of, kind="log", cls="error", want=None, level=""):
    """Records for calls of `names` (emitError, report_fatal_error ...) with the message in their
    first argument or in a `<<` chain after the call. `want(name, args)` may refuse a call
    (TNG_LOG(INFO) << ...)."""
    out = []
    pat = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")\s*\(")
    for path in paths:
        text = L.read_file(repo, path, rev)
        clean = L.strip_c_comments(text)
        lines = text.splitlines()
        for m in pat.finditer(clean):
            line_start = clean.rfind("\n", 0, m.start()) + 1
            if clean[line_start:m.start()].lstrip().startswith("#"):
                continue
            args, end = L._call_args(clean, m.end() - 1)
            if args is None or (want is not None and not want(m.group(1), args)):
                continue
            expr = args[0] if args and '"' in args[0] else ""
            tail = clean[end + 1:]
            chain = re.match(r"\s*<<(.*?);", tail, re.S)
            if chain:
                expr = (expr + " << " if expr else "") + chain.group(1)
            if not expr:
                continue
            fmt = expr_format(expr)
            if fmt is None:
                continue
            fmt = fmt.strip()
            line = clean.count("\n", 0, m.start()) + 1
            out.append(Record(path, line, fmt, "printf", kind, cls, level, context_lines(lines, line),
                              line_of(L.fill(fmt), path, line, m.group(1))))
    return out
