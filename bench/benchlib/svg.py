# SPDX-License-Identifier: GPL-2.0-only
"""The energy-vs-late-activations plot of docs/benchmarks.md, written as plain SVG.

One colour per policy: small dots are single cases (workload x model; hollow on the top edge:
above the y range), the large marker is the policy over the whole suite (x: late activations as % of all activations, y: geometric mean of
the energy ratio to mainline).  Down and left is better on both axes.
"""
import math
from xml.sax.saxutils import escape

COLORS = {"gearbox": "#d62728", "mainline": "#1f77b4", "rework": "#2ca02c",
          "performance": "#9467bd", "oracle": "#7f7f7f"}
W, H = 780, 480
L, R, T, B = 70, 220, 40, 60
X_TICKS = [1, 2, 5, 10, 20, 50, 100]
Y_CAP = 2.0


def plot(doc, path):
    cases = [c for c in doc["cases"] if "error" not in c and "not_applicable" not in c]
    pts = {p: [] for p in COLORS}
    for c in cases:
        for p, v in c["policies"].items():
            if not v["activations"]:
                continue
            pts[p].append((100.0 * v["late_activations"] / v["activations"],
                           c["energy_vs_mainline"][p]))
    summ = doc["summary"]["policies"]
    agg = {}
    for p, v in summ.items():
        if v["activations"] and v["geomean_energy_vs_mainline"]:
            agg[p] = (100.0 * v["late_activations"] / v["activations"],
                      v["geomean_energy_vs_mainline"])
    allx = [x for v in pts.values() for x, _ in v] + [1.0]
    ally = [y for v in pts.values() for _, y in v if y is not None] + [1.0]
    # x on a square-root scale: most cases have few late activations, a few overloaded ones
    # have most of them late; y capped at 2 (cases above are drawn on the top edge, hollow)
    xmax = next((t for t in X_TICKS if t >= max(allx)), 100.0)
    ymax = min(math.ceil(max(ally) * 4) / 4, Y_CAP)
    ymin = max(0.0, math.floor(min(ally) * 4) / 4 - 0.25)

    def sx(x):
        return L + (W - L - R) * math.sqrt(max(x, 0.0) / xmax)

    def sy(y):
        return T + (H - T - B) * (1 - (min(y, ymax) - ymin) / (ymax - ymin))

    o = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
         'font-family="sans-serif" font-size="12">' % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="22" font-size="14">%s</text>' % (
             L, escape("Energy vs late activations, %d cases (%s)" % (
                 len(cases), ", ".join(doc["models"]))))]
    for xv in [t for t in [0.0] + X_TICKS if t <= xmax]:
        o.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="#ddd"/>' % (
            sx(xv), T, sx(xv), H - B))
        o.append('<text x="%.1f" y="%d" text-anchor="middle">%g</text>' % (
            sx(xv), H - B + 16, xv))
    yv = ymin
    while yv <= ymax + 1e-9:
        o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#ddd"/>' % (
            L, sy(yv), W - R, sy(yv)))
        o.append('<text x="%d" y="%.1f" text-anchor="end">%.2f</text>' % (
            L - 6, sy(yv) + 4, yv))
        yv += 0.25
    o.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#1f77b4" '
             'stroke-dasharray="4 3"/>' % (L, sy(1.0), W - R, sy(1.0)))
    o.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="black"/>' % (
        L, T, W - L - R, H - T - B))
    o.append('<text x="%d" y="%d" text-anchor="middle">late activations, %% of activations '
             '(square-root scale)</text>' % ((L + W - R) // 2, H - 18))
    o.append('<text transform="translate(18,%d) rotate(-90)" text-anchor="middle">'
             'energy / mainline (geomean: large marker)</text>' % ((T + H - B) // 2))
    for p, col in COLORS.items():
        for x, y in pts[p]:
            if y is None:
                continue
            if y > ymax:
                o.append('<circle cx="%.1f" cy="%.1f" r="3" fill="none" stroke="%s"/>' % (
                    sx(x), sy(ymax), col))
            else:
                o.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s" fill-opacity="0.4"/>'
                         % (sx(x), sy(y), col))
    for i, (p, col) in enumerate(COLORS.items()):
        if p in agg:
            x, y = agg[p]
            o.append('<rect x="%.1f" y="%.1f" width="12" height="12" fill="%s" stroke="black"/>'
                     % (sx(x) - 6, sy(y) - 6, col))
        ly = T + 10 + 22 * i
        o.append('<rect x="%d" y="%d" width="12" height="12" fill="%s" stroke="black"/>' % (
            W - R + 14, ly, col))
        label = p if p not in agg else "%s %.3f, %.2f%%" % (p, agg[p][1], agg[p][0])
        o.append('<text x="%d" y="%d">%s</text>' % (W - R + 32, ly + 11, escape(label)))
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")
