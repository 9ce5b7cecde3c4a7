#!/usr/bin/env python3
"""The incident report in a real headless browser (Debian's chromium), offline.

    html_browser_test.py NPU_DOCTOR GEN_CLUSTER_PY CASE

CASE is one of:
  DomShowsTheRootCauseWithoutConsoleErrors  the rendered DOM (--dump-dom) shows the root
      cause and the timeline; chromium's console log has no error (checked to catch one
      on a page made to fail); the page loads nothing from anywhere.
  ScreenshotShowsTheCulpritRow  a screenshot (--screenshot) of a 16-rank cluster has the
      culprit row's highlight colour and the error marks; a healthy cluster's has none.
  MemoryChartIsDrawn  with --attach mem=..., the inline script draws the memory chart.

Exit 77 (skipped) without chromium. PNG decoding uses zlib only (no PIL). Every external
command runs with a timeout.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

SKIP = 77
CULPRIT_BG = (0xFF, 0x9F, 0x9F)  # .tl .r.c in html_timeline.cpp
ERROR_MARK = (0xC0, 0x39, 0x2B)  # .m.e
ROW_RUN = 600  # pixels: a highlighted row, not the legend's swatch


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def browser():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run(cmd, timeout, **kw):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kw)
    except subprocess.TimeoutExpired:
        fail("timed out after %ss: %s" % (timeout, " ".join(cmd)))


def chromium(chrome, work, page, *mode, window="1280,2400"):
    profile = tempfile.mkdtemp(dir=work)
    cmd = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0", "--hide-scrollbars",
           "--window-size=" + window] + list(mode) + ["file://" + page]
    r = run(cmd, 120)
    if r.returncode != 0:
        fail("chromium exit %d\n%s" % (r.returncode, r.stderr[-3000:]))
    return r


def console_errors(stderr):
    """Console messages chromium logged for the page: uncaught exceptions, console.error."""
    return [l for l in stderr.splitlines()
            if "CONSOLE" in l and re.search(r"Uncaught|Error|error", l)]


def generate(work, name, ranks, fault):
    out = os.path.join(work, name)
    r = run([sys.executable, GEN, out, "--ranks", str(ranks), "--fault", fault, "--seed", "5", "--steps", "20"], 120)
    if r.returncode != 0:
        fail("gen_cluster.py: " + r.stderr)
    return out


def report(work, logs, name, *extra):
    page = os.path.join(work, name + ".html")
    js = os.path.join(work, name + ".json")
    r = run([NPU_DOCTOR, "diagnose", logs, "-f", "json", "-o", js, "--html", page] + list(extra), 120)
    if r.returncode not in (0, 1):
        fail("npu-doctor exit %d: %s" % (r.returncode, r.stderr))
    with open(js) as f:
        return page, json.load(f)


def read_png(path):
    """(width, height, rows of (r, g, b) tuples) for 8-bit RGB/RGBA PNGs, zlib only."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("not a PNG: " + path)
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            if depth != 8 or colour not in (2, 6):
                fail("unexpected PNG format depth=%d colour=%d" % (depth, colour))
            bpp = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def colour_counts(path, colours):
    """Pixels of each colour, its longest horizontal run, and how many colours there are."""
    width, height, bpp, rows = read_png(path)
    counts = {c: 0 for c in colours}
    longest = {c: 0 for c in colours}
    distinct = set()
    for row in rows:
        run = {c: 0 for c in colours}
        for x in range(0, width * bpp, bpp):
            px = (row[x], row[x + 1], row[x + 2])
            distinct.add(px)
            for c in colours:
                if all(abs(px[k] - c[k]) <= 3 for k in range(3)):
                    counts[c] += 1
                    run[c] += 1
                    longest[c] = max(longest[c], run[c])
                else:
                    run[c] = 0
    return counts, longest, len(distinct)


def case_dom(chrome, work):
    logs = generate(work, "job", 16, "aicore")
    page, rep = report(work, logs, "job")
    html = open(page, encoding="utf-8").read()
    # Nothing to fetch: no src/href attributes, no stylesheet links, a CSP that forbids it.
    if re.search(r"\s(src|href)=", html) or "<link" in html:
        fail("the page refers to an external resource")
    if "default-src 'none'" not in html:
        fail("no Content-Security-Policy")
    r = chromium(chrome, work, page, "--dump-dom")
    errors = console_errors(r.stderr)
    if errors:
        fail("console errors:\n" + "\n".join(errors))
    title = rep["root_cause"]["title"]
    m = re.search(r'<span id="root-cause">([^<]*)</span>', r.stdout)
    if not m or m.group(1).replace("&amp;", "&") != title:
        fail("the rendered DOM does not show the root cause %r:\n%s" % (title, r.stdout[:2000]))
    culprit = rep["cluster"]["culprit"]["rank"]
    if '<div class="r c" data-rank="%d">' % culprit not in r.stdout:
        fail("the culprit row is not in the DOM")
    # The console check itself: a page with a script error must be caught.
    bad = os.path.join(work, "bad.html")
    with open(bad, "w") as f:
        f.write("<!DOCTYPE html><html><body><p>x</p><script>no_such_function();</script></body></html>")
    if not console_errors(chromium(chrome, work, bad, "--dump-dom").stderr):
        fail("a page with a script error was not caught: the console check cannot fail")


def case_screenshot(chrome, work):
    logs = generate(work, "job", 16, "aicore")
    page, rep = report(work, logs, "job")
    if rep["cluster"]["culprit"] is None:
        fail("no culprit in the synthetic cluster")
    shot = os.path.join(work, "job.png")
    chromium(chrome, work, page, "--screenshot=" + shot)
    counts, longest, distinct = colour_counts(shot, [CULPRIT_BG, ERROR_MARK])
    print("culprit colour: %d pixels, longest run %d; error-mark pixels %d; distinct colours %d"
          % (counts[CULPRIT_BG], longest[CULPRIT_BG], counts[ERROR_MARK], distinct))
    if distinct < 10:
        fail("the screenshot is blank")
    # The row spans the timeline's width (over 1,000 px at 1280); the legend swatch is small.
    if longest[CULPRIT_BG] < ROW_RUN or counts[CULPRIT_BG] < 5000:
        fail("the culprit row's highlight is not visible")
    if counts[ERROR_MARK] < 50:
        fail("no error mark visible")
    # A healthy cluster: no culprit, so no highlight (the colour check can fail).
    healthy = generate(work, "healthy", 16, "none")
    page, rep = report(work, healthy, "healthy")
    shot = os.path.join(work, "healthy.png")
    chromium(chrome, work, page, "--screenshot=" + shot)
    counts, longest, distinct = colour_counts(shot, [CULPRIT_BG])
    if longest[CULPRIT_BG] >= ROW_RUN:
        fail("a healthy cluster shows a culprit row (a run of %d pixels)" % longest[CULPRIT_BG])
    if distinct < 10:
        fail("the healthy cluster's screenshot is blank")


def case_memory(chrome, work):
    logs = generate(work, "job", 4, "oom")
    samples = os.path.join(work, "mem.jsonl")
    with open(samples, "w") as f:
        for step in range(300):
            f.write(json.dumps({"step": step, "device": 0, "allocated": 2**30 + step * 40 * 2**20,
                                "reserved": 2**31 + step * 40 * 2**20, "capacity": 64 * 2**30}) + "\n")
    page, _ = report(work, logs, "job", "--attach", "mem=" + samples)
    r = chromium(chrome, work, page, "--dump-dom")
    errors = console_errors(r.stderr)
    if errors:
        fail("console errors:\n" + "\n".join(errors))
    if 'data-rendered="ok"' not in r.stdout:
        fail("the memory chart script did not finish:\n" + r.stdout[:2000])
    if '<svg class="mem-chart"' not in r.stdout or '<path class="allocated"' not in r.stdout:
        fail("no memory chart in the DOM")
    if '<span id="root-cause">' not in r.stdout:
        fail("no root cause in the DOM")


if __name__ == "__main__":
    NPU_DOCTOR, GEN, CASE = sys.argv[1], sys.argv[2], sys.argv[3]
    chrome = browser()
    if not chrome:
        print("SKIP: chromium is not installed (apt-get install chromium)")
        sys.exit(SKIP)
    cases = {"DomShowsTheRootCauseWithoutConsoleErrors": case_dom,
             "ScreenshotShowsTheCulpritRow": case_screenshot,
             "MemoryChartIsDrawn": case_memory}
    with tempfile.TemporaryDirectory() as work:
        cases[CASE](chrome, work)
    print("ok")
