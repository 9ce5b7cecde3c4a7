"""The messages of PyTorch-style C++ (torch_npu, op-plugin): TORCH_CHECK and friends build
their message with c10::str(args...) (pieces concatenated, no format string), glog's
LOG(ERROR) << a << b streams it, and torch_npu's NPU_CHECK_ERROR(call) prints the call's own
text. This module turns those into printf-style formats (literal text with '%' doubled, every
non-literal piece a %s) that the catalogue's pattern generator understands, and notes the
torch_npu error code (PTA_ERROR(ErrCode::PARAM) ...) a message carries: its text starts
with a line break, so it ends the message's first line.

Standard library only; uses catalog_lib's call and literal parsers.
"""
import re

import catalog_lib as L

ERR_MACRO = re.compile(r"^(PTA|OPS|DIST|GRAPH|PROF)_ERROR\s*\(\s*(?:c10_npu::)?ErrCode::(\w+)\s*\)$")
_STRING_CTOR = re.compile(r'^(?:std::)?string\s*\(\s*("(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*)\s*\)$', re.S)


def _strip_parens(s):
    s = s.strip()
    while s.startswith("(") and s.endswith(")"):
        args, end = L._call_args(s, 0)
        if args is None or end != len(s) - 1 or len(args) != 1:
            break
        s = args[0].strip()
    return s


_C10_STR = re.compile(r"^(?:c10::|::c10::)?str\s*\(")
_IDENT = re.compile(r"^([A-Za-z_]\w*)(?:\.c_str\(\)|\.data\(\))?$")


_ADJ_TOKEN = re.compile(r'\s*(?:("(?:[^"\\]|\\.)*")|(#\s*[A-Za-z_]\w*))')


def adjacent_pieces(p):
    """Adjacent string literals with macro stringifications between them (`"call " #api
    " failed"` inside a macro body): [(kind, value)], or None for anything else."""
    out, pos = [], 0
    while pos < len(p):
        m = _ADJ_TOKEN.match(p, pos)
        if not m or m.end() == pos:
            return None if p[pos:].strip() else out
        if m.group(1):
            out.append(("lit", L.c_format_of(m.group(1))))
        else:
            out.append(("var", m.group(2)))
        pos = m.end()
    return out if any(k == "var" for k, _ in out) else None


def pieces_of(arg, resolve=None, depth=0):
    """[(kind, value)] of one c10::str argument: ('lit', text), ('err', (submodule, code)) or
    ('var', expression). A nested c10::str(...) is read through, and a local variable is
    followed to the value assigned to it when `resolve(name)` knows it."""
    out = []
    for operand in L._split_plus(arg):
        p = _strip_parens(operand)
        if not p:
            continue
        lit = L.c_format_of(p) if p.startswith('"') else None
        if lit is None:
            m = _STRING_CTOR.match(p)
            if m:
                lit = L.c_format_of(m.group(1))
        if lit is None and re.fullmatch(r"'(?:[^'\\]|\\.)'", p):
            lit = L._ESCAPES.get(p[2], p[2]) if p[1] == "\\" else p[1]
        if lit is not None:
            out.append(("lit", lit))
            continue
        adj = adjacent_pieces(p) if p.startswith('"') else None
        if adj:
            out.extend(adj)
            continue
        m = ERR_MACRO.match(p)
        if m:
            out.append(("err", (m.group(1), m.group(2))))
            continue
        m = _C10_STR.match(p)
        if m and depth < 3:
            inner, end = L._call_args(p, m.end() - 1)
            if inner is not None and end == len(p) - 1:
                for a in inner:
                    out.extend(pieces_of(a, resolve, depth + 1))
                continue
        m = _IDENT.match(p)
        if m and resolve and depth < 3 and m.group(1) not in ("true", "false", "nullptr"):
            val = resolve(m.group(1))
            if val:
                out.extend(pieces_of(val, resolve, depth + 1))
                continue
        out.append(("var", p))
    return out


def c10_format(args, resolve=None):
    """(format, err) of a c10::str(args...) message: format is None when it has no literal
    text; err is (submodule, ErrCode name) or None. The message ends at the error code."""
    fmt, err, has_lit = [], None, False
    for arg in args:
        for kind, val in pieces_of(arg, resolve):
            if kind == "err":
                err = err or val
                return ("".join(fmt) if has_lit else None), err
            if kind == "lit":
                fmt.append(val.replace("%", "%%"))
                has_lit = has_lit or bool(val.strip())
            else:
                fmt.append("%s")
    return ("".join(fmt) if has_lit else None), err


def stringize(expr):
    """What the preprocessor's #x makes of an argument: white space runs become one space."""
    return re.sub(r"\s+", " ", expr.strip())


def stream_args(clean, pos):
    """The `<<` operands of a statement that starts at pos (after `LOG(ERROR)`), up to `;`."""
    out, depth, i, start, n = [], 0, pos, pos, len(clean)
    while i < n:
        c = clean[i]
        if c in "\"'":
            j = i + 1
            while j < n and clean[j] != c:
                j += 2 if clean[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                break
        elif c == ";" and depth == 0:
            break
        elif clean.startswith("<<", i) and depth == 0:
            out.append(clean[start:i])
            start = i + 2
            i += 2
            continue
        i += 1
    out.append(clean[start:i])
    return [a for a in (x.strip() for x in out) if a]


# TORCH_CHECK-style macros: name -> (index of the first message argument, Python exception
# classes the message reaches the user as). c10::Error surfaces in Python as RuntimeError.
CHECKS = {
    "TORCH_CHECK": (1, ["RuntimeError"]),
    "TORCH_CHECK_VALUE": (1, ["ValueError"]),
    "TORCH_CHECK_TYPE": (1, ["TypeError"]),
    "TORCH_CHECK_INDEX": (1, ["IndexError"]),
    "TORCH_CHECK_NOT_IMPLEMENTED": (1, ["NotImplementedError"]),
    "TORCH_CHECK_WITH": (2, None),  # the class is the first argument
    "AT_ERROR": (0, ["RuntimeError"]),
    "TORCH_INTERNAL_ASSERT": (1, ["RuntimeError"]),
}
# c10 error classes -> the Python exception (torch/csrc/Exceptions.h).
C10_CLASS = {"OutOfMemoryError": ["OutOfMemoryError", "RuntimeError"], "Error": ["RuntimeError"],
             "ValueError": ["ValueError"], "TypeError": ["TypeError"], "IndexError": ["IndexError"],
             "NotImplementedError": ["NotImplementedError"], "DistBackendError": ["DistBackendError", "RuntimeError"],
             "DistError": ["DistError", "RuntimeError"], "DistNetworkError": ["DistNetworkError", "RuntimeError"],
             "DistStoreError": ["DistStoreError", "RuntimeError"], "LinAlgError": ["LinAlgError", "RuntimeError"]}

# NPU_CHECK_ERROR(call) and its twins print "<func>:<file>:<line> NPU function error: <call>,
# error code is <n>" (the call as the source spells it, or the C-string given after it).
CALL_CHECKS = {
    "NPU_CHECK_ERROR": "NPU function error: ",
    "NPU_CHECK_ERROR_WITHOUT_UCE": "NPU function error: ",
    "NPU_CHECK_ERROR_CHECK_UCE": "NPU function error: ",
    "OPS_CHECK_ERROR": "OPS function error: ",
    "HCCL_CHECK_ERROR": "HCCL function error: ",
}


def check_message(name, args, resolve=None):
    """(format, err, exception classes) of one TORCH_CHECK-family call, or (None, ..)."""
    idx, classes = CHECKS[name]
    if name == "TORCH_CHECK_WITH":
        classes = C10_CLASS.get(args[0].strip().split("::")[-1], ["RuntimeError"])
    msg_args = args[idx:]
    fmt, err = c10_format(msg_args, resolve) if msg_args else (None, None)
    if name == "TORCH_INTERNAL_ASSERT":
        cond = stringize(args[0]).replace("%", "%%")
        return (cond + " INTERNAL ASSERT FAILED at %s, please report a bug to PyTorch. " + (fmt or "")), err, classes
    if fmt is None and not msg_args and name != "AT_ERROR":
        cond = stringize(args[0]).replace("%", "%%")
        fmt = ("Expected " + cond + " to be true, but got false.  (Could this error message be improved?  "
               "If so, please report an enhancement request to PyTorch.)")
    return fmt, err, classes


def call_check_message(name, args):
    """The format of an NPU_CHECK_ERROR-style call."""
    what = None
    rest = args[2:] if name == "NPU_CHECK_ERROR_CHECK_UCE" else args[1:]
    if rest:
        what = L.c_format_of(rest[0])
    if what is None:
        what = stringize(args[0])
    return "%s:%s:%d " + CALL_CHECKS[name] + what.replace("%", "%%") + ", error code is %d"
