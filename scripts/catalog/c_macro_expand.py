"""Finding the ERROR-level log calls of a C/C++ code base whose log macros wrap each other.

CANN components log through layers of macros (`COND_RETURN_ERROR(cond, err, fmt, ...)` ->
`RT_LOG(RT_LOG_ERROR, fmt, ...)` -> `RT_LOG_RT_LOG_ERROR(fmt, ...)` -> `RecordErrorLog(...)`), and
the same macro name is defined differently in different subtrees and `#if` branches. Rather
than listing every macro by hand, this module expands function-like macros at each call site
the way the preprocessor would (parameters, `#x`, `a ## b`, `__VA_ARGS__`, `, ##__VA_ARGS__`)
until it reaches a *sink*: a call whose format argument, level and module are known (`dlog_error`,
`DlogRecord`, `RecordErrorLog`, `REPORT_INNER_ERROR`, `syslog` ...). The caller describes its sinks.

What reaches the sink tells us:
- the level (an ERROR-level call or not),
- the module (`RUNTIME`, `ASCENDCL`, `DRV` ...: what the plog line prints),
- the format: the call site's own literal when it was passed through (prefixes that wrapper
  macros add, such as "<errno:%d, %d> ", are left out: they are decoration, and older releases
  print them differently), or the whole text when a macro builds the message itself
  (`"Check param failed, " #PTR " can not be NULL!"`).

Only what the standard library offers; reads a snapshot extracted to a directory.
"""
import os
import re

from catalog_lib import c_format_of, strip_c_comments, _call_args

# ---------------------------------------------------------------------------------------------
# Macro definitions

_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)(.*)$")


class MacroDef:
    __slots__ = ("name", "params", "variadic", "body", "path", "line")

    def __init__(self, name, params, variadic, body, path, line):
        self.name, self.params, self.variadic, self.body, self.path, self.line = name, params, variadic, body, path, line


def define_regions(clean_text):
    """Yields (start_line, end_line, text) of every #define (continuation lines joined); lines are 1-based."""
    lines = clean_text.split("\n")
    i = 0
    while i < len(lines):
        if re.match(r"^[ \t]*#[ \t]*define\b", lines[i]):
            start, buf = i, [lines[i]]
            while buf[-1].rstrip().endswith("\\") and i + 1 < len(lines):
                buf[-1] = buf[-1].rstrip()[:-1]
                i += 1
                buf.append(lines[i])
            yield start + 1, i + 1, " ".join(buf)
        i += 1


def parse_defines(path, clean_text):
    out = []
    for start, _end, text in define_regions(clean_text):
        m = _DEFINE.match(text)
        if not m:
            continue
        raw = [p.strip() for p in m.group(2).split(",")] if m.group(2).strip() else []
        params, variadic = [], False
        for p in raw:
            if p == "...":
                variadic = True
                params.append("__VA_ARGS__")
            elif p.endswith("..."):  # GNU named variadic: fmt...
                variadic = True
                params.append(p[:-3].strip())
            else:
                params.append(p)
        out.append(MacroDef(m.group(1), params, variadic, m.group(3).strip(), path, start))
    return out

# ---------------------------------------------------------------------------------------------
# Tokens

_TOKEN = re.compile(r'''
    (?P<str>(?:L|u8|u|U)?"(?:\\.|[^"\\])*")
  | (?P<chr>'(?:\\.|[^'\\])*')
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eEpP][-+])*)
  | (?P<paste>\#\#)
  | (?P<hash>\#)
  | (?P<ws>\s+)
  | (?P<op>.)
''', re.X | re.S)


def tokens(text):
    return [(m.lastgroup, m.group()) for m in _TOKEN.finditer(text)]


def stringize(arg):
    s = " ".join(arg.split())
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def substitute(mdef, args):
    """The body of `mdef` with `args` substituted (one level, no rescanning)."""
    n_fixed = len(mdef.params) - (1 if mdef.variadic else 0)
    fixed = args[:n_fixed] + [""] * max(0, n_fixed - len(args))
    rest = args[n_fixed:] if mdef.variadic else []
    values = dict(zip(mdef.params[:n_fixed], (a.strip() for a in fixed)))
    if mdef.variadic:
        values[mdef.params[-1]] = ",".join(rest).strip()
        if mdef.params[-1] != "__VA_ARGS__":
            values["__VA_ARGS__"] = values[mdef.params[-1]]
    toks = tokens(mdef.body)
    out = []
    i = 0
    while i < len(toks):
        kind, t = toks[i]
        if kind == "hash":  # #param
            j = i + 1
            while j < len(toks) and toks[j][0] == "ws":
                j += 1
            if j < len(toks) and toks[j][0] == "id" and toks[j][1] in values:
                out.append(("str", stringize(values[toks[j][1]])))
                i = j + 1
                continue
            out.append((kind, t))
            i += 1
            continue
        if kind == "paste":
            # a ## b: drop the operator and the spaces around it; `, ##__VA_ARGS__` drops the comma when empty.
            while out and out[-1][0] == "ws":
                out.pop()
            j = i + 1
            while j < len(toks) and toks[j][0] == "ws":
                j += 1
            if j < len(toks) and toks[j][1] in values and toks[j][0] == "id":
                v = values[toks[j][1]]
                if v == "" and out and out[-1][1] == ",":
                    out.pop()
                else:
                    out.append(("pasted", v))
                i = j + 1
            else:
                i = j
            continue
        if kind == "id" and t in values:
            nxt = i + 1
            while nxt < len(toks) and toks[nxt][0] == "ws":
                nxt += 1
            if nxt < len(toks) and toks[nxt][0] == "paste":
                out.append(("pasted", values[t]))  # a ## b: pasted without expansion
            else:
                out.append(("arg", values[t]))
            i += 1
            continue
        out.append((kind, t))
        i += 1
    # Join: a "pasted" piece glues to its neighbours.
    text, glue = [], False
    for kind, t in out:
        if kind == "pasted":
            text.append(t)
            glue = True
            continue
        if glue and kind != "ws":
            glue = False
        text.append(t)
    return re.sub(r"(\w)\s*##\s*(\w)", r"\1\2", "".join(text))

# ---------------------------------------------------------------------------------------------
# Sinks: where a log call ends


class Sink:
    """A call whose format argument is known. level/module: ('arg', i) or ('const', value).
    kind 'fmt': args[fmt] is the format; kind 'table': args[code] selects a message template
    from `table` (code -> (format, level)), filled with args[values:] (literal ones as text)."""

    def __init__(self, name, fmt=None, level=("const", "error"), module=("const", None), kind="fmt",
                 code=None, values=None, table=None):
        self.name, self.fmt, self.level, self.module = name, fmt, level, module
        self.kind, self.code, self.values, self.table = kind, code, values, table


class Hit:
    __slots__ = ("format", "level", "module", "from_call_site", "code")

    def __init__(self, fmt, level, module, from_call_site, code=None):
        self.format, self.level, self.module, self.from_call_site, self.code = fmt, level, module, from_call_site, code


_SENTINEL = re.compile(r"__CALLARG_(\d+)__")


class Expander:
    """Expands calls of the macros defined under a snapshot directory to their sinks."""

    def __init__(self, defs, sinks, level_words, module_names, module_aliases=None, max_depth=14):
        self.defs = {}
        for d in defs:
            self.defs.setdefault(d.name, []).append(d)
        self.sinks = {s.name: s for s in sinks}
        self.level_words = level_words          # identifier -> 'error' | 'other'
        self.module_names = set(module_names)
        self.module_aliases = module_aliases or {}
        self.max_depth = max_depth
        self._reaches = self._names_reaching_sinks()

    def _names_reaching_sinks(self):
        """Macro names whose expansion can reach a sink (fixpoint over the names in bodies)."""
        reach = set(self.sinks)
        ids_of, prefixes_of = {}, {}
        for name, ds in self.defs.items():
            body = " ".join(d.body for d in ds)
            ids_of[name] = set(re.findall(r"[A-Za-z_]\w*", body))
            # Token pasting builds names (RT_LOG_##level -> RT_LOG_RT_LOG_ERROR): keep the prefix.
            prefixes_of[name] = set(re.findall(r"([A-Za-z_]\w*)\s*##", body))
        changed = True
        while changed:
            changed = False
            for name, ids in ids_of.items():
                if name in reach:
                    continue
                if ids & reach or any(r.startswith(p) for p in prefixes_of[name] for r in reach):
                    reach.add(name)
                    changed = True
        return reach

    def callable_names(self):
        return {n for n in self._reaches if n in self.defs or n in self.sinks}

    def candidates(self, name, site_path):
        """Definitions of `name`, the ones nearest to the call site first (same file, then the
        longest common directory): the preprocessor sees the header the file includes."""
        ds = self.defs.get(name, [])
        site_dir = os.path.dirname(site_path).split("/")

        def score(d):
            if d.path == site_path:
                return 10_000
            ddir = os.path.dirname(d.path).split("/")
            n = 0
            for a, b in zip(site_dir, ddir):
                if a != b:
                    break
                n += 1
            return n

        if not ds:
            return []
        best = max(score(d) for d in ds)
        return [d for d in ds if score(d) == best]

    def expand_call(self, name, args, site_path):
        """All sink hits reached from a call `name(args)` at `site_path`."""
        marked = []
        originals = {}
        for k, a in enumerate(args):
            if c_format_of(a) is not None:
                originals[k] = c_format_of(a)
                marked.append(f"__CALLARG_{k}__")
            else:
                marked.append(a)
        hits = []
        self._expand(name, marked, site_path, originals, hits, 0, frozenset())
        return hits

    def _expand(self, name, args, site_path, originals, hits, depth, active):
        if depth > self.max_depth:
            return
        if name in self.sinks:
            self._at_sink(self.sinks[name], args, originals, hits)
            return
        for d in self.candidates(name, site_path):
            if (d.name, d.path, d.line) in active:
                continue
            text = substitute(d, args)
            self._scan(text, site_path, originals, hits, depth + 1, active | {(d.name, d.path, d.line)})

    def _scan(self, text, site_path, originals, hits, depth, active):
        for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", text):
            nm = m.group(1)
            if nm not in self._reaches:
                continue
            call_args, _ = _call_args(text, m.end() - 1)
            if call_args is None:
                continue
            # A literal that a macro body passes on is that level's message (a wrapper such as
            # ACL_REQUIRES_POSITIVE passes "[Check][%s]param must be positive." to ACL_LOG_ERROR,
            # which adds its "%d %s:" header): mark it like a call site's literal.
            marked = []
            for a in call_args:
                a = a.strip()
                lit = c_format_of(a) if "__CALLARG_" not in a else None
                if lit is not None:
                    k = max(originals, default=-1) + 1
                    originals[k] = lit
                    marked.append(f"__CALLARG_{k}__")
                else:
                    marked.append(a)
            self._expand(nm, marked, site_path, originals, hits, depth, active)

    # -- at a sink ---------------------------------------------------------------------------

    def _word(self, expr):
        ids = re.findall(r"[A-Za-z_]\w*", expr)
        return ids

    def level_of(self, spec, args):
        kind, v = spec
        if kind == "const":
            return v
        if v >= len(args):
            return None
        for ident in self._word(args[v]):
            if ident in self.level_words:
                return self.level_words[ident]
        return None

    def module_of(self, spec, args):
        kind, v = spec
        if kind == "const":
            return v
        if v >= len(args):
            return None
        for ident in self._word(args[v]):
            if ident in self.module_aliases:
                return self.module_aliases[ident]
            if ident in self.module_names:
                return ident
        return None

    def format_of(self, expr, originals):
        """(format, from_call_site) of a sink's format argument after expansion, or (None, _)."""
        expr = expr.strip()
        while expr.startswith("(") and expr.endswith(")") and _balanced(expr[1:-1]):
            expr = expr[1:-1].strip()
        # A call-site literal passed through (outside any string): the message is what the call site wrote.
        outside = re.sub(r'"(?:\\.|[^"\\])*"', '""', expr)
        for k in _SENTINEL.findall(outside):
            if int(k) in originals:
                return originals[int(k)], True
        text = re.sub(r"\(\s*(\"(?:\\.|[^\"\\])*\")\s*\)", r"\1", expr)
        fmt = c_format_of(text)
        if fmt is None:
            return None, False
        fmt = _SENTINEL.sub(lambda m: originals.get(int(m.group(1)), m.group(0)), fmt)
        return fmt, False

    def _at_sink(self, sink, args, originals, hits):
        if sink.kind == "table":
            self._at_table_sink(sink, args, originals, hits)
            return
        if sink.fmt is None or sink.fmt >= len(args):
            return
        fmt, site = self.format_of(args[sink.fmt], originals)
        hits.append(Hit(fmt, self.level_of(sink.level, args), self.module_of(sink.module, args), site))

    def _at_table_sink(self, sink, args, originals, hits):
        if sink.code >= len(args):
            return
        codes = re.findall(r"\b([A-Z]{2}\d{4})\b", args[sink.code])
        if not codes or codes[0] not in sink.table:
            return
        template, level = sink.table[codes[0]]
        values = []
        for a in args[sink.values:]:
            a = a.strip()
            while a.startswith("(") and a.endswith(")") and _balanced(a[1:-1]):
                a = a[1:-1].strip()
            m = _SENTINEL.fullmatch(a)
            lit = originals.get(int(m.group(1))) if m else c_format_of(a)
            if lit is not None:
                lit = _SENTINEL.sub(lambda mm: originals.get(int(mm.group(1)), "%s"), lit)
                values.append(lit.replace("%", "%%"))
            elif re.fullmatch(r"-?\d+[uUlL]*", a):
                values.append(re.sub(r"[uUlL]+$", "", a))
            else:
                values.append(None)
        out, vi = [], 0
        for piece in re.split(r"(%%|%s)", template):
            if piece == "%s":
                v = values[vi] if vi < len(values) else None
                out.append("%s" if v is None else v)
                vi += 1
            else:
                out.append(piece)
        hits.append(Hit("".join(out), level, self.module_of(sink.module, args), False, codes[0]))


def _balanced(s):
    depth = 0
    for c in s:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0

# ---------------------------------------------------------------------------------------------
# Call sites


_FUNC_HEAD = re.compile(r"^(?:[\w:<>,*&~\[\]]+[ \t*&]+)+?((?:\w+::)*~?\w+)\s*\(")


def enclosing_function(lines, index):
    """The name of the function around line `index` (0-based): the nearest line above that
    starts at column 0 and looks like a function head. Only for realistic sample lines."""
    for i in range(index, -1, -1):
        ln = lines[i]
        if not ln or ln[0] in " \t#{}/*":
            continue
        m = _FUNC_HEAD.match(ln)
        if m and not ln.rstrip().endswith(";"):
            name = m.group(1).split("::")[-1]
            if name not in ("if", "for", "while", "switch", "return", "sizeof"):
                return name
    return None


class CallSite:
    __slots__ = ("path", "line", "macro", "args", "hits", "function", "context", "after")

    def __init__(self, path, line, macro, args, hits, function, context, after):
        self.path, self.line, self.macro, self.args, self.hits = path, line, macro, args, hits
        self.function, self.context, self.after = function, context, after


def call_sites(expander, path, text, context_lines=8, after_lines=4):
    """Every call in `text` (a source file) of a macro or sink that can log, with its hits, the
    lines before it (`context`: the condition tested) and the lines after it up to the end of
    the block (`after`: the error code returned or assigned)."""
    clean = strip_c_comments(text)
    in_define = set()
    for start, end, _ in define_regions(clean):
        in_define.update(range(start, end + 1))
    names = expander.callable_names()
    if not names:
        return
    pat = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\s*\(")
    lines = clean.split("\n")
    line_starts = [0]
    for ln in lines:
        line_starts.append(line_starts[-1] + len(ln) + 1)
    import bisect
    for m in pat.finditer(clean):
        line = bisect.bisect_right(line_starts, m.start())
        if line in in_define:
            continue
        # A declaration or a member function of the same name (obj.RecordErrorLog) is not a call of ours.
        before = clean[max(0, m.start() - 2):m.start()]
        if before.endswith(".") or before.endswith("->"):
            continue
        args, end = _call_args(clean, m.end() - 1)
        if args is None:
            continue
        args = [a.strip() for a in args]
        hits = expander.expand_call(m.group(1), args, path)
        if not hits:
            continue
        end_line = bisect.bisect_right(line_starts, end)
        ctx = "\n".join(lines[max(0, line - 1 - context_lines):end_line])
        after = []
        for ln in lines[end_line:end_line + after_lines]:
            after.append(ln)
            if "}" in ln or "return" in ln or "goto" in ln:
                break
        yield CallSite(path, line, m.group(1), args, hits, enclosing_function(lines, line - 1), ctx, "\n".join(after))
