# SPDX-License-Identifier: GPL-2.0-only
"""What the bench parts share: the machine note, running commands, tables, JSON files.

Every figure bench/ prints is a ratio or a count measured in the same invocation as its
baseline; absolute times appear only as context, next to the machine they were taken on.
"""
import json
import os
import platform
import re
import shlex
import subprocess
import sys
import time

FORMAT_VERSION = 1


def machine():
    """The machine note every result file carries."""
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = [float(x) for x in open("/proc/loadavg").read().split()[:3]]
    except OSError:
        load = []
    return {
        "tree": tree(),
        "cpu_model": model,
        "online_cpus": os.cpu_count(),
        "kernel": platform.release(),
        "loadavg_at_start": load,
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def tree():
    """The commit measured, and whether the working tree differed from it: other engineers'
    uncommitted work is part of what a run in the shared tree measures."""
    rc, out, _ = run(["git", "-C", ROOT, "describe", "--always", "--dirty"], timeout=30)
    return out.strip() if rc == 0 else "unknown"


def machine_line(m):
    load = "/".join("%.1f" % x for x in m.get("loadavg_at_start", []))
    return "machine: %s, %s CPUs, Linux %s, load %s; tree %s" % (
        m["cpu_model"], m["online_cpus"], m["kernel"], load or "?", m.get("tree", "?"))


def run(cmd, timeout=None, cwd=None, env=None):
    """Runs cmd, returns (status, stdout, stderr); status -1 on timeout or missing program."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                           env=env)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return -1, e.stdout or "", "timed out after %s s" % timeout
    except OSError as e:
        return -1, "", str(e)


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cmdline(cmd):
    """The command as a shell line, paths inside the tree relative to its top."""
    return " ".join(shlex.quote(str(c).replace(ROOT + "/", "")) for c in cmd)


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def table(rows, header, out=sys.stdout):
    """Prints rows (lists of str) under header, columns right-aligned except the first two."""
    widths = [len(h) for h in header]
    for r in rows:
        widths = [max(w, len(c)) for w, c in zip(widths, r)]

    def fmt(r):
        cells = []
        for i, (c, w) in enumerate(zip(r, widths)):
            cells.append(c.ljust(w) if i < 2 else c.rjust(w))
        return "  ".join(cells).rstrip()

    print(fmt(header), file=out)
    for r in rows:
        print(fmt(r), file=out)


_ABS_PATH = re.compile(r"(?<![\w.~-])/(?:[\w.+~-]+/)*[\w.+~-]+")


def cache_dir():
    """Where scripts/lib/deps.sh keeps what it downloads and builds (the VM kernel among it)."""
    return os.environ.get("GEARBOX_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "gearbox")


def portable(doc, places):
    """doc with every machine path in its strings replaced: each prefix of places (a dict
    path -> name, e.g. the build directory -> "BUILD") by its name, the tree's own root by
    nothing, then any other absolute path by PATH/ and its last component.  Result files go into
    the repository, where a path of the machine that wrote them means nothing."""
    pairs = sorted(((os.path.abspath(k), v) for k, v in places.items() if k),
                   key=lambda kv: -len(kv[0]))

    def fix(s):
        for k, v in pairs:
            s = s.replace(k + "/", v + "/" if v else "").replace(k, v or ".")
        return _ABS_PATH.sub(lambda m: "PATH/" + os.path.basename(m.group(0)), s)

    if isinstance(doc, str):
        return fix(doc)
    if isinstance(doc, list):
        return [portable(x, places) for x in doc]
    if isinstance(doc, dict):
        return {k: portable(v, places) for k, v in doc.items()}
    return doc


def write_json(path, doc):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=False)
        f.write("\n")
    os.replace(tmp, path)


def fmt_ratio(x):
    return "-" if x is None else "%.3f" % x


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


# Student's t, two-sided 95%, by degrees of freedom (the simulator's --seeds intervals use the
# same); beyond the table the normal 1.96
_T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306,
         9: 2.262, 10: 2.228, 15: 2.131, 20: 2.086, 30: 2.042}


def ci95(xs):
    """[low, high]: the 95% Student-t interval of the mean of xs (replicates), None with fewer
    than two."""
    import math
    n = len(xs)
    if n < 2:
        return None
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    t = _T975.get(n - 1) or next((v for k, v in sorted(_T975.items()) if k >= n - 1), 1.96)
    h = t * sd / math.sqrt(n)
    return [m - h, m + h]


def total(xs):
    """The sum of per-case counts, each the mean over the bench's seeds: rounded to 0.1, which is
    exact for means over 1 or 5 seeds, so that tables and files carry no float noise."""
    t = sum(xs)
    return round(t, 1) if isinstance(t, float) else t


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    if not xs:
        return None
    import math
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


class Skip(Exception):
    """A part that cannot run here: the message says why (printed, and kept in the JSON)."""
