"""Shell scripts (the run-package installers of hicann/driver, the training launch scripts of
MindX DL): the error messages they print with echo / printf / their own log functions, as
records (fw_common.Record) with sample lines.

A shell script has no log levels of its own. A message is an error message when
- its call says so: a level argument (`log "ERROR" "..."`, `comm_log ERROR "..."`), a function
  named for it (`logger_error`, `errorUsage`), or a marker it prints (`"[ERROR]..."`,
  `"ERROR: ..."`); such a record has level "error" when the printed line carries a marker
  the scanner's find_level() reads (see `Printer.line`), or
- it has no level and its words say something went wrong (ERROR_WORDS: failed, not, invalid,
  please ...); the record then has no level, and the catalogue's gate policy keeps it only when
  a gate word covers it (docs/kb-messages.md).
Lines printed with an INFO / WARNING / DEBUG level or marker are not error messages.

Expansions ("$var", "${var}", "$(cmd)", `cmd`) become %s; a literal % becomes %%; colour
escapes (\\033[31m) are dropped; a message's first line is what a log line shows.
"""
import dataclasses
import re

import catalog_lib as L
from fw_common import Record, context_lines

# Words of a level-less message that say something went wrong: installers print their failures
# with plain echo, so these words are all that marks them.
ERROR_WORDS = re.compile(
    r"\berror|\bfail|\bnot\b|n't\b|\binvalid|\bplease\b|\bcannot\b|\bunable\b|\bdenied\b|\billegal\b|\bwrong\b|\bmissing\b"
    r"|\bno such\b|\bbusy\b|\boccupied\b|\btoo long\b|\btime ?out|\btimed out\b|\bexceed|\bmismatch|\bunsupported\b"
    r"|\babnormal|\bincorrect\b|\bforbid|\bnot (?:exist|found|support)|\bdoes not\b|\bis null\b", re.I)
LEVEL_WORD = re.compile(r"^\[?(ERROR|ERR|FATAL|CRITICAL|WARNING|WARN|INFO|DEBUG|NOTICE)\]?:?$", re.I)
# A marker the message itself prints at its start: "[ERROR]...", "ERROR: ...", "[WARNING] ...".
LEADING_MARKER = re.compile(r"^\s*(?:\[[^\]\[]{1,40}\]\s*)*?(?:\[(ERROR|ERR|FATAL|WARNING|WARN|INFO|DEBUG)\]\s*:?|(ERROR|WARNING|INFO|DEBUG)\s*:)\s*", re.I)
# A success line that mentions errors ("collect device error log success") is not an error.
SUCCESS = re.compile(r"\bsuccess|\bsucceed|\bdone\b|\bfinished\b|\bstart\.\.\.", re.I)
OTHER_MARKER = re.compile(r"\[(?:WARNING|WARN|INFO|DEBUG|NOTICE)\]")
ANSI = re.compile(r"(?:\\033|\\e|\\x1[bB]|\x1b)\[[0-9;]*[mK]")
ERROR_LEVELS = ("ERROR", "ERR", "FATAL", "CRITICAL")


@dataclasses.dataclass
class Printer:
    """A command that prints a message: `level_arg` when its first argument is the level,
    `level` when its name gives one, `prefix` what it prints before the message
    ('{level}' stands for the level; '' prints the message as it is)."""
    name: str
    level_arg: bool = False
    level: str = ""
    prefix: str = ""
    joins_args: bool = True        # echo-like: the arguments joined by blanks; else one only
    msg_index: int = 0             # the message's argument (after a level argument): error op code "msg" -> 2
    level_fmt: str = "[{level}]: "  # how it prints a level given as an argument or by its name

    def line(self, level, message):
        return self.prefix.replace("{level}", level or "") + message


ECHO = Printer("echo")


# -------------------------------------------------------------------------------------------
# A small shell tokenizer: simple commands as lists of words; a word as a printf-style format
# (literal text with % doubled, every expansion %s) and whether it was all literal.

_SEPARATORS = set(";&|(){}\n")
_KEYWORDS = {"if", "then", "elif", "else", "fi", "do", "done", "while", "until", "for", "case", "esac", "in", "!",
             "function", "time", "{", "}", "[[", "]]"}


def _skip_expansion(text, i):
    """text[i] == '$': the index after the expansion ($var, ${...}, $(...), $((...)))."""
    n = len(text)
    if i + 1 >= n:
        return i + 1
    c = text[i + 1]
    if c == "{":
        depth, j = 1, i + 2
        while j < n and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        return j
    if c == "(":
        depth, j = 1, i + 2
        quote = None
        while j < n and depth:
            ch = text[j]
            if quote:
                if ch == "\\" and quote == '"':
                    j += 1
                elif ch == quote:
                    quote = None
            elif ch in "'\"":
                quote = ch
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            j += 1
        return j
    if c.isalnum() or c == "_":
        j = i + 1
        if c.isdigit():
            return j + 1
        while j < n and (text[j].isalnum() or text[j] == "_"):
            j += 1
        return j
    if c in "@*#?$!-":
        return i + 2
    return i + 1  # a lone $


def commands(text):
    """[(line, [(format, all_literal, quoted)])] for every simple command of a script."""
    out, words, cur, lit_only, quoted, start_line = [], [], None, True, False, 1
    i, n, line = 0, len(text), 1

    def end_word():
        nonlocal cur, lit_only, quoted
        if cur is not None:
            words.append((cur, lit_only, quoted))
        cur, lit_only, quoted = None, True, False

    def end_command():
        nonlocal words
        end_word()
        if words:
            out.append((start_line, words))
        words = []

    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        if cur is None and not words:
            start_line = line
        if ch == "\\" and i + 1 < n:
            if text[i + 1] == "\n":  # line continuation
                line += 1
                i += 2
                continue
            cur = (cur or "") + text[i + 1].replace("%", "%%")
            i += 2
            continue
        if ch == "#" and cur is None:
            while i < n and text[i] != "\n":
                i += 1
            continue
        if ch in " \t":
            end_word()
            i += 1
            continue
        if ch in _SEPARATORS:
            end_command()
            i += 1
            continue
        if ch == "'":
            j = text.find("'", i + 1)
            j = n if j < 0 else j
            seg = text[i + 1:j]
            line += seg.count("\n")
            cur = (cur or "") + seg.replace("%", "%%")
            quoted = True
            i = j + 1
            continue
        if ch == '"':
            cur = cur or ""
            quoted = True
            j = i + 1
            while j < n and text[j] != '"':
                c = text[j]
                if c == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    if nxt == "\n":
                        line += 1
                    elif nxt in '"\\$`':
                        cur += nxt.replace("%", "%%")
                    else:
                        cur += ("\\" + nxt).replace("%", "%%")
                    j += 2
                    continue
                if c == "$":
                    k = _skip_expansion(text, j)
                    if k == j + 1:
                        cur += "$"
                    else:
                        line += text[j:k].count("\n")
                        cur += "%s"
                        lit_only = False
                    j = k
                    continue
                if c == "`":
                    k = text.find("`", j + 1)
                    k = n if k < 0 else k
                    cur += "%s"
                    lit_only = False
                    j = k + 1
                    continue
                if c == "\n":
                    line += 1
                cur += "%%" if c == "%" else c
                j += 1
            i = j + 1
            continue
        if ch == "$":
            k = _skip_expansion(text, i)
            line += text[i:k].count("\n")
            if k == i + 1:
                cur = (cur or "") + "$"
            else:
                cur = (cur or "") + "%s"
                lit_only = False
            i = k
            continue
        if ch == "`":
            k = text.find("`", i + 1)
            k = n if k < 0 else k
            line += text[i:k].count("\n")
            cur = (cur or "") + "%s"
            lit_only = False
            i = k + 1
            continue
        if ch in "<>":  # redirections: the target is not part of the message
            end_word()
            j = i
            while j < n and text[j] in "<>&0123456789":
                j += 1
            while j < n and text[j] in " \t":
                j += 1
            if text[i:i + 2] == "<<":  # a here-document: skip its body
                m = re.match(r"-?\s*['\"]?(\w+)['\"]?", text[i + 2:])
                if m:
                    body_end = re.compile(r"^\s*" + m.group(1) + r"\s*$", re.M).search(text, text.find("\n", i) + 1)
                    k = body_end.end() if body_end else n
                    line += text[i:k].count("\n")
                    end_command()
                    i = k
                    continue
            while j < n and text[j] not in " \t\n;&|()":
                j += 1
            i = j
            continue
        cur = (cur or "") + ("%%" if ch == "%" else ch)
        i += 1
    end_command()
    return out


# -------------------------------------------------------------------------------------------

def _clean(fmt):
    fmt = ANSI.sub("", fmt)
    fmt = fmt.split("\\n")[0].split("\n")[0]
    return fmt.rstrip()


def _printf_format(word):
    """printf's own format: its %s etc. are placeholders (the tokenizer doubled them)."""
    return word.replace("%%", "%")


def message_of(words, printer):
    """(level, format) of a print command, or None when it prints nothing recognisable."""
    name = words[0][0]
    args = words[1:]
    level = printer.level
    if name == "echo":
        while args and re.fullmatch(r"-[neE]+", args[0][0]):
            args = args[1:]
    if name == "printf":
        if args and args[0][0] == "-v":
            return None
        if not args:
            return None
        fmt = _printf_format(args[0][0])
        return level, _clean(fmt)
    # a log function called with its level first: log "ERROR" "msg", comm_log ERROR "msg"
    m = LEVEL_WORD.match(args[0][0]) if len(args) >= 2 and name not in ("echo", "printf") else None
    if m:
        level = m.group(1).upper()
        args = args[1:]
    elif printer.level_arg:
        return None
    if name not in ("echo", "printf"):  # a log function's own options: logger_error -c "..."
        while len(args) > 1 and re.fullmatch(r"-\w", args[0][0]):
            args = args[1:]
    if len(args) <= printer.msg_index:
        return None
    args = args[printer.msg_index:]
    text = " ".join(w for w, _, _ in args) if printer.joins_args else args[0][0]
    return level, _clean(text)


def classify(level, fmt, name=""):
    """(level, message, printed marker): level is "ERROR" / "" (a level-less message whose words
    say something failed) or None (not an error message)."""
    m = LEADING_MARKER.match(fmt)
    marker = ""
    if m:
        marker = (m.group(1) or m.group(2)).upper()
        fmt = fmt[m.end():]
        if not level:
            level = marker
    if level:
        level = level.upper()
        return (("ERROR" if level in ERROR_LEVELS else None), fmt, marker)
    if OTHER_MARKER.search(fmt):  # "[debug_switch][WARNING]...": a warning or a notice
        return None, fmt, marker
    if SUCCESS.search(fmt) and not re.search(r"fail|error:|not\b", fmt, re.I):
        return None, fmt, marker
    return ("" if ERROR_WORDS.search(fmt) else None), fmt, marker


def shell_records(repo, rev, paths, printers, line_of):
    """Records of the error messages printed by the scripts in `paths`. `printers` maps a
    command name to its Printer (echo and printf are always read); `line_of(printer, level,
    marker, message, path)` gives the line as the script prints it."""
    out = []
    table = {"echo": ECHO, "printf": Printer("printf")}
    table.update(printers)
    for path in paths:
        text = L.read_file(repo, path, rev)
        lines = text.splitlines()
        for line, words in commands(text):
            # skip assignments and keywords in front of the command name
            while words and (words[0][0] in _KEYWORDS or re.fullmatch(r"\w+=.*", words[0][0]) and not words[0][2]):
                words = words[1:]
            if not words or words[0][0] not in table:
                continue
            printer = table[words[0][0]]
            got = message_of(words, printer)
            if got is None:
                continue
            level, fmt = got
            level, fmt, marker = classify(level, fmt, printer.name)
            fmt = fmt.strip()
            if level is None or not fmt or fmt.startswith("#"):  # "# ..." is a line written into a config file
                continue
            sample = line_of(printer, level, marker, L.fill(fmt), path)
            out.append(Record(path, line, fmt, "printf", "log", printer.name, "error" if L.is_error_level_line(sample) else "",
                              context_lines(lines, line), sample))
    return out
