"""Reading a CANN C/C++ snapshot and collecting its ERROR-level log formats (shared by
extract_runtime.py and extract_driver.py).

`collect()` reads every source file of the chosen subtrees at one commit (one `git cat-file
--batch`, not a process per file), learns the macros, and returns one `Format` per distinct
ERROR-level format with every place it is logged (the first place is the reference; all of
them feed the category rules, which look at the code around each call).
"""
import re
import subprocess

import c_macro_expand as cme
from catalog_lib import strip_c_comments

SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".h", ".hpp", ".inc")

# The plog module names (log_types.h): a sink's module argument is matched against these.
PLOG_MODULES = set("""SLOG IDEDD SCC HCCL FMK CCU DVPP RUNTIME CCE HDC DRV NET HIXL DEVMM KERNEL LIBMEDIA
CCECPU ROS HCCP ROCE TEFUSION PROFILING DP APP TS TSDUMP AICPU LP TDT FE MD MB ME IMU IMP GE CAMERA
ASCENDCL TEEOS ISP SIS HSM DSS PROCMGR BBOX AIVECTOR TBE FV PYPTO TUNE HSS FFTS OP UDF HICAID TSYNC
AUDIO TPRT ASCENDCKERNEL ASYS ATRACE RTC SYSMONITOR AML ADETECT""".split())


def read_tree(repo, keep, rev="HEAD"):
    """{path: text} of the source files under `repo` at `rev` for which keep(path) is true."""
    names = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "--name-only", rev], capture_output=True,
                           check=True).stdout.decode("utf-8", "replace").splitlines()
    names = [n for n in names if n.endswith(SOURCE_SUFFIXES) and keep(n)]
    proc = subprocess.Popen(["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = {}
    try:
        for n in names:
            proc.stdin.write(f"{rev}:{n}\n".encode())
            proc.stdin.flush()
            header = proc.stdout.readline().split()
            if len(header) < 3 or header[1] != b"blob":
                continue
            data = proc.stdout.read(int(header[2]))
            proc.stdout.read(1)
            out[n] = data.decode("utf-8", "replace")
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return out


def module_aliases(clean_texts):
    """Names that stand for a plog module: `#define MSPROF_MODULE_NAME PROFILING`,
    `const int32_t ADX_MODULE_NAME = IDEDD;`, `ACL_MODE_ID = static_cast<int32_t>(ASCENDCL)`."""
    aliases = {}
    pat_def = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\(?\s*(?:static_cast<\w+>\()?\s*(\w+)\s*\)?\)?[ \t]*$", re.M)
    pat_const = re.compile(r"\b(\w+)\s*=\s*(?:static_cast<\w+>\()?\s*(?:\w+::)?(\w+)\s*\)?\s*;")
    for text in clean_texts:
        for pat in (pat_def, pat_const):
            for m in pat.finditer(text):
                if m.group(2) in PLOG_MODULES and m.group(1) not in PLOG_MODULES:
                    aliases.setdefault(m.group(1), m.group(2))
    return aliases


class Place:
    __slots__ = ("path", "line", "function", "macro", "module", "context", "code", "reported_only", "args", "after")

    def __init__(self, **kw):
        self.args, self.after = [], ""
        for k, v in kw.items():
            setattr(self, k, v)


class Format:
    """One distinct ERROR-level format and the places that log it."""

    def __init__(self, fmt):
        self.format = fmt
        self.places = []

    @property
    def first(self):
        return self.places[0]

    @property
    def module(self):
        for p in self.places:
            if p.module:
                return p.module
        return None


def collect(files, sinks, level_words, default_module, extra_aliases=None, exclude_from_calls=lambda p: False,
            exclude_macros=(), module_names=()):
    """(formats by text, non_literal call count). default_module(path) names the plog module for
    calls whose sink does not say (REPORT_INNER_ERROR alone)."""
    clean = {p: strip_c_comments(t) for p, t in files.items()}
    defs = []
    for p, c in clean.items():
        defs.extend(cme.parse_defines(p, c))
    aliases = module_aliases(clean.values())
    aliases.update(extra_aliases or {})
    expander = cme.Expander(defs, sinks, level_words, PLOG_MODULES | set(module_names), aliases)
    formats, non_literal = {}, 0
    for path in sorted(files):
        if exclude_from_calls(path):
            continue
        for cs in cme.call_sites(expander, path, files[path]):
            if cs.macro in exclude_macros:
                continue
            errors = [h for h in cs.hits if h.level == "error"]
            if not errors:
                continue
            # The plog module when a hit names one (UsrDlog(ROCE, ...)), else any (HAL_MODULE_TYPE_NET).
            module = (next((h.module for h in errors if h.module in PLOG_MODULES), None)
                      or next((h.module for h in errors if h.module), None) or default_module(path))
            seen = set()
            for h in errors:
                if h.format is None:
                    continue
                if h.format in seen:
                    continue
                seen.add(h.format)
                f = formats.get(h.format)
                if f is None:
                    f = formats[h.format] = Format(h.format)
                f.places.append(Place(path=path, line=cs.line, function=cs.function, macro=cs.macro, module=module,
                                      context=cs.context, code=h.code, reported_only=h.module is None,
                                      args=cs.args, after=cs.after))
            if all(h.format is None for h in errors):
                non_literal += 1
    return formats, non_literal
