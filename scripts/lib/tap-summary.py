#!/usr/bin/env python3
"""Counts the TAP results of every meson test and prints the closing summary line.

Each meson test is a TAP producer; every "ok"/"not ok" line is one test case.  A test whose
process failed although all its cases passed (a crash at exit, a leak report, a timeout) counts
as one more failure, so that nothing fails silently.  Each failure is printed with the first
diagnostic lines ("# ...") that follow it in the test's output, so that the tail of a run says
why, not only what.  Exit status 1 when anything failed.
"""
import json
import re
import sys

OK = re.compile(r"^ok\b")
NOT_OK = re.compile(r"^not ok\b")
SKIP = re.compile(r"#\s*SKIP", re.I)
DIAG = re.compile(r"^\s*#")
DIAG_LINES = 12


def main(path):
    passed = failed = skipped = 0
    try:
        lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    except OSError as e:
        print(f"tap-summary: {e}", file=sys.stderr)
        print("0 passed, 1 failed, 0 skipped")
        return 1
    failures = []
    for line in lines:
        if not line.strip():
            continue
        t = json.loads(line)
        p = f = s = 0
        out_lines = (t.get("stdout") or "").splitlines()
        for i, out in enumerate(out_lines):
            if NOT_OK.match(out):
                f += 1
                diag = []
                for d in out_lines[i + 1:]:
                    if not DIAG.match(d) or len(diag) == DIAG_LINES:
                        break
                    diag.append("    " + d.strip())
                failures.append("\n".join([f"{t['name']}: {out}"] + diag))
            elif OK.match(out):
                if SKIP.search(out):
                    s += 1
                else:
                    p += 1
        result = t.get("result", "")
        if result == "SKIP" and p + f + s == 0:
            s += 1
        elif result not in ("OK", "SKIP", "EXPECTEDFAIL") and f == 0:
            f += 1
            failures.append(f"{t['name']}: process result {result}")
        passed += p
        failed += f
        skipped += s
    for fl in failures:
        print(f"FAILED: {fl}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
