"""Drawing one graph with each tool: inkboard (the binary under test), Graphviz
`dot` (splines=ortho and spline) and ELK (elkjs through elk_layout.mjs), each
drawing returned in the form metrics.py measures ({"nodes": {id: box}, "edges":
[{"id", "from", "to", "points"}]}), with the graph's own node ids.

- inkboard: a new board, one `add_shape` per node (its shape and label; sized to
  fit the label) and one `add_connector` per edge (default: orthogonal, arrow at
  the end), then `layout` (layered, down, default spacing), all through
  `inkboard batch` (at most 200 operations a batch); the board read back with
  `inkboard call read_board`, then `inkboard export -o x.svg`. Lines come from the
  exported SVG (svgpath.inkboard_drawing), nodes and which connector joins which
  from the board.
- dot and ELK get inkboard's node sizes (read after its layout) and its spacing:
  40 px between nodes, 60 px between layers (layout.rs: layers 1.5 x spacing).
"""

import json
import os
import subprocess
import time

import svgpath

HERE = os.path.dirname(os.path.abspath(__file__))
SPACING = 40.0
LAYER_SPACING = 60.0
BATCH_MAX = 200


class DrawError(Exception):
    """A tool could not draw a graph; the message says which step failed."""


# The longest one step may take: a hung binary fails its graph, not the run.
TIMEOUT_S = 300


def run(cmd, **kw):
    kw.setdefault("timeout", TIMEOUT_S)
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise DrawError(f"{' '.join(cmd[:3])}... exit {p.returncode}: {(p.stderr or p.stdout).strip()[:300]}")
    return p.stdout


def inkboard(binary, g, work):
    board = os.path.join(work, g["name"] + ".inkboard")
    svg = os.path.join(work, g["name"] + ".inkboard.svg")
    run([binary, "new", board, "--overwrite"])

    def batch(ops):
        path = os.path.join(work, g["name"] + ".ops.json")
        with open(path, "w") as f:
            json.dump(ops, f)
        return json.loads(run([binary, "batch", board, path]))["results"]

    ids = {}
    nodes = g["nodes"]
    for start in range(0, len(nodes), BATCH_MAX):
        chunk = nodes[start:start + BATCH_MAX]
        ops = [{"tool": "add_shape", "args": {"geom": n["shape"], "text": n["label"]}} for n in chunk]
        for n, r in zip(chunk, batch(ops)):
            ids[n["id"]] = r["id"]
    ops = [{"tool": "add_connector", "args": {"from": ids[e["from"]], "to": ids[e["to"]]}} for e in g["edges"]]
    ops.append({"tool": "layout", "args": {}})
    for start in range(0, len(ops), BATCH_MAX):
        batch(ops[start:start + BATCH_MAX])
    read = json.loads(run([binary, "call", "read_board", json.dumps({"path": board})]))
    t0 = time.perf_counter()
    run([binary, "export", board, "-o", svg, "--overwrite"])
    export_s = time.perf_counter() - t0
    with open(svg) as f:
        drawn = svgpath.inkboard_drawing(read, f.read())
    back = {v: k for k, v in ids.items()}
    nodes_out = {back[k]: v for k, v in drawn["nodes"].items() if k in back}
    edges_out = [dict(e, **{"from": back[e["from"]], "to": back[e["to"]]}) for e in drawn["edges"]]
    if len(edges_out) != len(g["edges"]) or len(nodes_out) != len(nodes):
        raise DrawError(f"board has {len(nodes_out)} nodes and {len(edges_out)} connectors, expected {len(nodes)} and {len(g['edges'])}")
    return {"nodes": nodes_out, "edges": edges_out}, export_s


def dot_source(g, sizes, splines):
    """A DOT graph with inkboard's node sizes (1 px = 1 pt: dot's unit) and
    spacing, no labels (sizes are fixed), ids on nodes and edges."""
    shape = {"ellipse": "ellipse", "diamond": "diamond"}
    index = {n["id"]: k for k, n in enumerate(g["nodes"])}
    out = [
        "digraph G {",
        f"  graph [rankdir=TB, splines={splines}, nodesep={SPACING / 72:.4f}, ranksep={LAYER_SPACING / 72:.4f}, pad=0];",
        '  node [fixedsize=true, label="", shape=box];',
    ]
    for n in g["nodes"]:
        w, h = sizes[n["id"]]
        out.append(f'  n{index[n["id"]]} [id="n{index[n["id"]]}", width={w / 72:.4f}, height={h / 72:.4f}, shape={shape.get(n["shape"], "box")}];')
    for k, e in enumerate(g["edges"]):
        out.append(f'  n{index[e["from"]]} -> n{index[e["to"]]} [id="e{k}"];')
    out.append("}")
    return "\n".join(out)


def dot(g, sizes, splines):
    svg = run(["dot", "-Tsvg"], input=dot_source(g, sizes, splines))
    nodes, lines = svgpath.dot_drawing(svg)
    index = {f"n{k}": n["id"] for k, n in enumerate(g["nodes"])}
    edges = []
    for k, e in enumerate(g["edges"]):
        pts = lines.get(f"e{k}")
        if not pts or len(pts) < 2:
            raise DrawError(f"edge e{k} has no line in dot's SVG")
        edges.append({"id": f"e{k}", "from": e["from"], "to": e["to"], "points": pts})
    return {"nodes": {index[k]: v for k, v in nodes.items()}, "edges": edges}


def elk_all(graphs, sizes_by_graph):
    jobs = []
    for g in graphs:
        sizes = sizes_by_graph.get(g["name"])
        if sizes is None:
            continue
        index = {n["id"]: f"n{k}" for k, n in enumerate(g["nodes"])}
        jobs.append({
            "name": g["name"], "spacing": SPACING, "layer_spacing": LAYER_SPACING,
            "nodes": [{"id": index[n["id"]], "w": sizes[n["id"]][0], "h": sizes[n["id"]][1]} for n in g["nodes"]],
            "edges": [{"id": f"e{k}", "from": index[e["from"]], "to": index[e["to"]]} for k, e in enumerate(g["edges"])],
        })
    out = json.loads(run(["node", os.path.join(HERE, "elk_layout.mjs")], input=json.dumps(jobs), cwd=HERE))
    drawings = {}
    for g in graphs:
        r = out.get(g["name"])
        if r is None:
            continue
        if "error" in r:
            drawings[g["name"]] = DrawError("elk: " + r["error"])
            continue
        back = {f"n{k}": n["id"] for k, n in enumerate(g["nodes"])}
        lacking = [k for k in range(len(g["edges"])) if len(r["edges"].get(f"e{k}", [])) < 2]
        if lacking:
            drawings[g["name"]] = DrawError(f"elk: edge e{lacking[0]} has no route ({len(lacking)} edges without one)")
            continue
        drawings[g["name"]] = {
            "nodes": {back[k]: v for k, v in r["nodes"].items()},
            "edges": [{"id": f"e{k}", "from": e["from"], "to": e["to"], "points": r["edges"][f"e{k}"]}
                      for k, e in enumerate(g["edges"])],
        }
    return drawings


def dot_version():
    p = subprocess.run(["dot", "-V"], capture_output=True, text=True)
    return (p.stderr or p.stdout).strip().replace("dot - graphviz version ", "")


def elk_version():
    try:
        with open(os.path.join(HERE, "node_modules", "elkjs", "package.json")) as f:
            return json.load(f)["version"]
    except OSError:
        return "not installed"
