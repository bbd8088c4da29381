"""SVG path data to polylines, and the two SVG dialects the benchmark reads.

`flatten` turns a path's `d` (absolute and relative M, L, H, V, C, S, Q, Z, as
inkboard and Graphviz write them) into lists of points, curves cut into short
straight pieces. `inkboard_connectors` and `dot_drawing` read the exported SVGs
of inkboard and Graphviz. Python standard library only.
"""

import math
import re
import xml.etree.ElementTree as ET

_TOKEN = re.compile(r"[MmLlHhVvCcSsQqZz]|-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
# Longest straight piece a curve is cut into, in px, and the most pieces per curve.
PIECE = 4.0
MAX_PIECES = 64


def _cubic(p0, p1, p2, p3):
    rough = math.dist(p0, p1) + math.dist(p1, p2) + math.dist(p2, p3)
    n = max(1, min(MAX_PIECES, math.ceil(rough / PIECE)))
    out = []
    for i in range(1, n + 1):
        t = i / n
        s = 1 - t
        out.append((
            s * s * s * p0[0] + 3 * s * s * t * p1[0] + 3 * s * t * t * p2[0] + t * t * t * p3[0],
            s * s * s * p0[1] + 3 * s * s * t * p1[1] + 3 * s * t * t * p2[1] + t * t * t * p3[1],
        ))
    return out


def flatten(d):
    """The subpaths of path data `d`, each a list of (x, y)."""
    tokens = _TOKEN.findall(d.replace(",", " "))
    paths, cur = [], []
    pos = (0.0, 0.0)
    start = pos
    last_ctrl = None
    cmd = None
    i = 0

    def num():
        nonlocal i
        v = float(tokens[i])
        i += 1
        return v

    while i < len(tokens):
        if tokens[i].isalpha():
            cmd = tokens[i]
            i += 1
            if cmd in "Zz":
                if cur:
                    cur.append(start)
                    paths.append(cur)
                    cur = []
                pos = start
                last_ctrl = None
                continue
        rel = cmd.islower()
        c = cmd.upper()
        ox, oy = pos if rel else (0.0, 0.0)
        if c == "M":
            if len(cur) > 1:
                paths.append(cur)
            pos = (ox + num(), oy + num())
            start = pos
            cur = [pos]
            cmd = "l" if rel else "L"  # further pairs are lines
            last_ctrl = None
        elif c == "L":
            pos = (ox + num(), oy + num())
            cur.append(pos)
            last_ctrl = None
        elif c == "H":
            pos = ((ox if rel else 0.0) + num(), pos[1])
            cur.append(pos)
            last_ctrl = None
        elif c == "V":
            pos = (pos[0], (oy if rel else 0.0) + num())
            cur.append(pos)
            last_ctrl = None
        elif c == "C":
            p1 = (ox + num(), oy + num())
            p2 = (ox + num(), oy + num())
            p3 = (ox + num(), oy + num())
            cur += _cubic(pos, p1, p2, p3)
            pos, last_ctrl = p3, p2
        elif c == "S":
            p1 = (2 * pos[0] - last_ctrl[0], 2 * pos[1] - last_ctrl[1]) if last_ctrl else pos
            p2 = (ox + num(), oy + num())
            p3 = (ox + num(), oy + num())
            cur += _cubic(pos, p1, p2, p3)
            pos, last_ctrl = p3, p2
        elif c == "Q":
            q = (ox + num(), oy + num())
            p3 = (ox + num(), oy + num())
            p1 = (pos[0] + 2 / 3 * (q[0] - pos[0]), pos[1] + 2 / 3 * (q[1] - pos[1]))
            p2 = (p3[0] + 2 / 3 * (q[0] - p3[0]), p3[1] + 2 / 3 * (q[1] - p3[1]))
            cur += _cubic(pos, p1, p2, p3)
            pos, last_ctrl = p3, None
        else:
            raise ValueError(f"path command {cmd!r} is not read")
    if len(cur) > 1:
        paths.append(cur)
    return paths


def _local(tag):
    return tag.rsplit("}", 1)[-1]


def inkboard_connectors(svg_text):
    """{connector id: line points} from an inkboard SVG export. Each object is a
    `<g id=ID data-type=...>`; a connector's first `<path>` is its line, the
    paths after it are its arrowheads (and a label's background, if any)."""
    root = ET.fromstring(svg_text)
    out = {}
    for g in root.iter():
        if _local(g.tag) != "g" or g.get("data-type") != "connector":
            continue
        for child in g:
            if _local(child.tag) == "path":
                subpaths = flatten(child.get("d", ""))
                out[g.get("id")] = [p for sp in subpaths[:1] for p in sp]
                break
    return out


def inkboard_drawing(read, svg_text):
    """A drawing (see metrics.py) from an inkboard board as `read_board` returns
    it and its exported SVG: nodes are the page's shapes (box from the board,
    where the renderer draws them), edges its connectors between two shapes,
    with their lines from the SVG, matched by connector id. Raises KeyError
    naming a connector the SVG lacks."""
    lines = inkboard_connectors(svg_text)
    objects = read["page"]["objects"]
    nodes = {o["id"]: {"x": o["x"], "y": o["y"], "w": o["w"], "h": o["h"]}
             for o in objects if o.get("type") == "shape"}
    edges = []
    for o in objects:
        if o.get("type") != "connector" or not isinstance(o.get("from"), str) or not isinstance(o.get("to"), str):
            continue
        if len(lines.get(o["id"], [])) < 2:
            raise KeyError(f"connector {o['id']} has no line in the exported SVG")
        edges.append({"id": o["id"], "from": o["from"], "to": o["to"], "points": [list(p) for p in lines[o["id"]]]})
    return {"nodes": nodes, "edges": edges}


def _points_attr(s):
    nums = [float(v) for v in re.findall(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", s)]
    return list(zip(nums[0::2], nums[1::2]))


def _apex(polygon):
    """The tip of an arrowhead triangle: the corner as far from one other corner
    as from the other (dot's arrowheads are isosceles; their base is shorter
    than their sides). Not the corner farthest from the line's end: with
    splines=ortho dot sometimes ends the line near the tip, not the base."""
    corners = []
    for p in polygon:
        if all(math.dist(p, c) > 1e-6 for c in corners):
            corners.append(p)
    if len(corners) != 3:
        return corners[-1]

    def skew(i):
        a, b = (corners[j] for j in range(3) if j != i)
        return abs(math.dist(corners[i], a) - math.dist(corners[i], b))

    return corners[min(range(3), key=skew)]


def dot_drawing(svg_text):
    """Nodes and edges from `dot -Tsvg` output for a graph whose nodes and edges
    carry `id` attributes: ({node id: {x, y, w, h}}, {edge id: points}). Node
    boxes come from their outline (polygon or ellipse). An edge's line is its
    path, flattened, extended to the tip of its arrowhead (dot stops the path
    at the arrowhead's base; see `_apex`).
    Coordinates are dot's (points, y negative, under one translate), which only
    shifts the whole drawing."""
    root = ET.fromstring(svg_text)
    nodes, edges = {}, {}
    for g in root.iter():
        if _local(g.tag) != "g":
            continue
        cls = g.get("class")
        if cls == "node":
            xs, ys = [], []
            for child in g.iter():
                t = _local(child.tag)
                if t in ("polygon", "polyline"):
                    for x, y in _points_attr(child.get("points", "")):
                        xs.append(x)
                        ys.append(y)
                elif t == "ellipse":
                    cx, cy = float(child.get("cx")), float(child.get("cy"))
                    rx, ry = float(child.get("rx")), float(child.get("ry"))
                    xs += [cx - rx, cx + rx]
                    ys += [cy - ry, cy + ry]
            if xs:
                nodes[g.get("id")] = {"x": min(xs), "y": min(ys), "w": max(xs) - min(xs), "h": max(ys) - min(ys)}
        elif cls == "edge":
            line, heads = [], []
            for child in g.iter():
                t = _local(child.tag)
                if t == "path" and not line:
                    for sp in flatten(child.get("d", "")):
                        line += sp
                elif t == "polygon":
                    heads.append(_points_attr(child.get("points", "")))
            if line and heads:
                # The arrowhead marks the head: the line runs from tail to head.
                head = heads[-1]
                mid = (sum(p[0] for p in head) / len(head), sum(p[1] for p in head) / len(head))
                if math.dist(mid, line[0]) < math.dist(mid, line[-1]):
                    line.reverse()
                line.append(_apex(head))
            edges[g.get("id")] = line
    return nodes, edges
