#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""TAP test: docs/benchmarks.md's result tables are what bench/results/ gives
(bench/docs-tables --check), and the script refuses bad input without writing."""
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "bench", "docs-tables")
DOC = os.path.join(ROOT, "docs", "benchmarks.md")
n = 0
bad = 0


def ok(cond, what):
    global n, bad
    n += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", n, what))
    bad += not cond


def run(*args):
    p = subprocess.run([sys.executable, TOOL] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


print("1..7")
rc, out = run("--check")
ok(rc == 0, "docs/benchmarks.md agrees with bench/results/" + ("" if rc == 0 else ": " + out[-2000:]))
with tempfile.TemporaryDirectory() as tmp:
    doc = os.path.join(tmp, "b.md")
    text = open(DOC).read()
    marker = "<!-- /bench:energy-policies -->"
    ok(marker in text, "the doc has the energy tables' markers")
    # a figure changed by hand: --check finds it, the rewrite restores it
    i = text.index("| gearbox |")
    edited = text[:i] + "| gearbox | 1 | 9.999 |" + text[text.index("\n", i):]
    open(doc, "w").write(edited)
    rc, out = run("--check", "--doc", doc)
    ok(rc == 1 and "9.999" in out and open(doc).read() == edited,
       "--check reports a hand-edited figure (exit 1) and changes nothing")
    rc, _ = run("--doc", doc)
    ok(rc == 0 and open(doc).read() == text, "the rewrite gives the doc from the results back")
    # bad input: exit 2, file untouched
    for label, content, args in [
            ("a marker without its end", "x\n<!-- bench:energy-run -->\ny\n", []),
            ("a marker naming no table", "<!-- bench:nonsense -->\n<!-- /bench:nonsense -->\n", []),
            ("a results directory without the file", text, ["--results", tmp])]:
        open(doc, "w").write(content)
        rc, out = run("--doc", doc, *args)
        ok(rc == 2 and "error:" in out and open(doc).read() == content,
           "%s: exit 2 with a message, doc unchanged" % label)
sys.exit(1 if bad else 0)
