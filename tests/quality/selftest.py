#!/usr/bin/env python3
"""Self-test of the benchmark's measuring code (metrics.py, svgpath.py) on small
hand-made fixtures in fixtures/, Python standard library only (no inkboard, dot or
node needed); scripts/test runs it. Each fixture NAME is a drawing
(NAME.drawing.json), an inkboard export (NAME.svg with the board as read_board
gives it, NAME.board.json) or a `dot -Tsvg` output (NAME.svg, made from NAME.gv);
its metrics must equal NAME.expected.json, worked out by hand (README.md, "Self-test",
says how). UPDATE_EXPECT=1 rewrites the expected files from what is
measured: look at the diff before committing it. fixtures/paths.json holds path
data and the points `svgpath.flatten` must make of it.

Exit status 0 when every check passes, 1 otherwise (each failure printed).
"""
import json
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import metrics  # noqa: E402
import svgpath  # noqa: E402

FIX = os.path.join(HERE, "fixtures")


def load(name):
    with open(os.path.join(FIX, name)) as f:
        return json.load(f)


def drawing_of(name):
    """The drawing a fixture describes, read the way the benchmark reads it."""
    if os.path.exists(os.path.join(FIX, name + ".drawing.json")):
        return load(name + ".drawing.json")
    with open(os.path.join(FIX, name + ".svg")) as f:
        svg = f.read()
    if os.path.exists(os.path.join(FIX, name + ".board.json")):
        return svgpath.inkboard_drawing(load(name + ".board.json"), svg)
    nodes, lines = svgpath.dot_drawing(svg)
    edges = []
    # Which edge joins which nodes: from the DOT source, lines `a -> b [id="eK"]`.
    with open(os.path.join(FIX, name + ".gv")) as f:
        ends = {m[2]: (m[0], m[1]) for m in re.findall(r'(\w+) -> (\w+) \[id="(\w+)"', f.read())}
    for eid, pts in sorted(lines.items()):
        edges.append({"id": eid, "from": ends[eid][0], "to": ends[eid][1], "points": pts})
    return {"nodes": nodes, "edges": edges}


def on_outline(node, p, tol):
    """Whether p lies in the node's box grown by tol (a line's end is on its
    node's outline, which lies in that box)."""
    x, y, w, h = node["x"], node["y"], node["w"], node["h"]
    inside = x - tol <= p[0] <= x + w + tol and y - tol <= p[1] <= y + h + tol
    return inside


def main():
    failures = []
    update = os.environ.get("UPDATE_EXPECT") == "1"
    names = sorted({f.split(".")[0] for f in os.listdir(FIX) if f.endswith(".expected.json")})
    for name in names:
        drawing = drawing_of(name)
        got = metrics.measure(drawing)
        if update:
            with open(os.path.join(FIX, name + ".expected.json"), "w") as f:
                json.dump(got, f, indent=1)
                f.write("\n")
            continue
        want = load(name + ".expected.json")
        for key, value in want.items():
            if not math.isclose(got.get(key, math.nan), value, abs_tol=0.051):
                failures.append(f"{name}: {key} is {got.get(key)}, expected {value}")
        # Every line starts at its source's box and ends at its target's, so the
        # readers took the right path, the right way round.
        for e in drawing["edges"]:
            if not on_outline(drawing["nodes"][e["from"]], e["points"][0], 1.5):
                failures.append(f"{name}: edge {e['id']} starts at {e['points'][0]}, away from {e['from']}")
            if not on_outline(drawing["nodes"][e["to"]], e["points"][-1], 1.5):
                failures.append(f"{name}: edge {e['id']} ends at {e['points'][-1]}, away from {e['to']}")
    for case in load("paths.json"):
        got = svgpath.flatten(case["d"])
        rounded = [[[round(x, 2), round(y, 2)] for x, y in sp] for sp in got]
        if "expected" in case and rounded != case["expected"]:
            failures.append(f"path {case['d']!r}: {rounded}, expected {case['expected']}")
        if "expected_end" in case:
            if rounded[-1][-1] != case["expected_end"]:
                failures.append(f"path {case['d']!r} ends at {rounded[-1][-1]}, expected {case['expected_end']}")
            if len(rounded[-1]) < case["expected_len_min"]:
                failures.append(f"path {case['d']!r}: only {len(rounded[-1])} points for a curve")
    checked = len(names)
    for f in failures:
        print("FAIL", f)
    print(f"quality self-test: {checked} fixtures, {len(load('paths.json'))} paths, {len(failures)} failures"
          + (" (expected files rewritten)" if update else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
