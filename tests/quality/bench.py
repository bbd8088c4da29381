#!/usr/bin/env python3
"""The drawing-quality benchmark (issue 13): draws every graph of corpus/ with
inkboard, `dot` (splines=ortho and splines=spline) and ELK (elkjs, layered,
orthogonal), measures each final drawing with metrics.py, and prints the figures
per graph set and overall, inkboard next to the others. Run through
scripts/quality (tests/quality/README.md); Python standard library only.

- inkboard: a new board, one `add_shape` per node (its shape and label; sized to
  fit the label) and one `add_connector` per edge (default: orthogonal, arrow at
  the end), then `layout` (layered, down, default spacing), all through
  `inkboard batch`; the board read back with `inkboard call read_board`, then
  `inkboard export -o x.svg`. Lines come from the exported SVG (each connector is
  a `<g id=ID data-type="connector">` whose first path is its line), nodes and
  which connector joins which from the board.
- dot and ELK get inkboard's node sizes (read after its layout) and its spacing:
  40 px between nodes, 60 px between layers (layout.rs: layers 1.5 x spacing).
"""

import argparse
import concurrent.futures as cf
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import metrics  # noqa: E402
import svgpath  # noqa: E402

SETS = ["gallery", "random", "flowcharts"]
TOOLS = ["inkboard", "dot-ortho", "dot-spline", "elk"]
SPACING = 40.0
LAYER_SPACING = 60.0
BATCH_MAX = 200
METRICS = ["crossings", "overlap", "shared_ports", "side_entries", "bends", "area", "aspect"]


class DrawError(Exception):
    """A tool could not draw a graph; the message says which step failed."""


def load_corpus(only):
    graphs = []
    wanted = set(only.split(",")) if only else None
    for s in SETS:
        folder = os.path.join(HERE, "corpus", s)
        for f in sorted(os.listdir(folder)):
            if not f.endswith(".json"):
                continue
            with open(os.path.join(folder, f)) as fh:
                g = json.load(fh)
            if wanted and not ({s, g["name"]} & wanted):
                continue
            graphs.append(g)
    return graphs


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise DrawError(f"{' '.join(cmd[:3])}... exit {p.returncode}: {(p.stderr or p.stdout).strip()[:300]}")
    return p.stdout


def draw_inkboard(binary, g, work):
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


def draw_dot(g, sizes, splines):
    svg = run(["dot", "-Tsvg"], input=dot_source(g, sizes, splines), timeout=300)
    nodes, lines = svgpath.dot_drawing(svg)
    index = {f"n{k}": n["id"] for k, n in enumerate(g["nodes"])}
    edges = []
    for k, e in enumerate(g["edges"]):
        pts = lines.get(f"e{k}")
        if not pts or len(pts) < 2:
            raise DrawError(f"edge e{k} has no line in dot's SVG")
        edges.append({"id": f"e{k}", "from": e["from"], "to": e["to"], "points": pts})
    return {"nodes": {index[k]: v for k, v in nodes.items()}, "edges": edges}


def draw_elk_all(graphs, sizes_by_graph):
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


def draw_one(binary, g, work):
    """inkboard and both dots for one graph: {tool: metrics or {"error"}}."""
    res = {}
    try:
        drawing, export_s = draw_inkboard(binary, g, work)
        res["inkboard"] = metrics.measure(drawing)
        res["inkboard"]["export_s"] = round(export_s, 3)
        sizes = {k: (v["w"], v["h"]) for k, v in drawing["nodes"].items()}
    except (DrawError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
        res["inkboard"] = {"error": str(e)}
        return res, None
    for splines in ("ortho", "spline"):
        try:
            res[f"dot-{splines}"] = metrics.measure(draw_dot(g, sizes, splines))
        except (DrawError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
            res[f"dot-{splines}"] = {"error": str(e)}
    return res, sizes


def geomean(values):
    values = [v for v in values if v > 0]
    if not values:
        return 0.0
    return math.exp(sum(math.log(v) for v in values) / len(values))


def median(values):
    v = sorted(values)
    if not v:
        return 0.0
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def summarise(rows):
    """Per tool, the metrics over the graphs every tool drew (so the columns
    compare the same drawings), and inkboard against dot-ortho and ELK."""
    ok = [r for r in rows if all("error" not in r["tools"].get(t, {"error": 1}) for t in TOOLS)]
    out = {"graphs": len(rows), "compared": len(ok), "tools": {}}
    for t in TOOLS:
        ms = [r["tools"][t] for r in ok]
        out["tools"][t] = {
            "crossings": sum(m["crossings"] for m in ms),
            "overlap": round(sum(m["overlap"] for m in ms), 1),
            "shared_ports": sum(m["shared_ports"] for m in ms),
            "side_entries": sum(m["side_entries"] for m in ms),
            "bends": round(sum(m["bends"] for m in ms), 1),
            "area_geomean": round(geomean([m["area"] for m in ms]), 1),
            "aspect_median": round(median([m["aspect"] for m in ms]), 3),
        }
    for other in ("dot-ortho", "elk"):
        pairs = [(r["tools"]["inkboard"]["crossings"], r["tools"][other]["crossings"]) for r in ok]
        le = sum(1 for a, b in pairs if a <= b)
        out[f"vs_{other}"] = {
            "crossings_le": le,
            "crossings_le_share": round(le / len(pairs), 3) if pairs else 0.0,
            "crossings_ratio_geomean": round(geomean([(a + 1) / (b + 1) for a, b in pairs]), 3) if pairs else 0.0,
            "crossings_more": sum(1 for a, b in pairs if a > b),
        }
    return out


def fmt_num(v):
    if isinstance(v, float) and not v.is_integer():
        return f"{v:,.1f}" if abs(v) >= 10 else f"{v:.2f}"
    return f"{int(v):,}"


def print_summary(title, s):
    print(f"\n== {title}: {s['compared']} graphs compared" + (f" ({s['graphs'] - s['compared']} with a failed drawing left out)" if s["graphs"] != s["compared"] else ""))
    labels = [
        ("crossings", "crossings (sum)"), ("overlap", "overlap px (sum)"),
        ("shared_ports", "shared ports (sum)"), ("side_entries", "side entries (sum)"),
        ("bends", "bends (sum)"), ("area_geomean", "area px² (geo mean)"),
        ("aspect_median", "aspect w/h (median)"),
    ]
    print(f"  {'metric':<24}" + "".join(f"{t:>13}" for t in TOOLS))
    for key, label in labels:
        if key == "area_geomean":
            vals = [f"{s['tools'][t][key] / 1000:,.0f}k" for t in TOOLS]
        else:
            vals = [fmt_num(s["tools"][t][key]) for t in TOOLS]
        print(f"  {label:<24}" + "".join(f"{v:>13}" for v in vals))
    for other in ("dot-ortho", "elk"):
        v = s[f"vs_{other}"]
        n = s["compared"]
        print(f"  inkboard crossings <= {other}: {v['crossings_le']}/{n} graphs ({100 * v['crossings_le_share']:.0f}%),"
              f" more on {v['crossings_more']}; geo mean of (ink+1)/({other}+1): {100 * v['crossings_ratio_geomean']:.0f}%")


def print_graphs(rows):
    print(f"\n  {'graph':<22}{'n':>4}{'m':>5}  crossings ink/ortho/spline/elk   overlap px ink/ortho/spline/elk")
    for r in rows:
        t = r["tools"]

        def cell(tool, key):
            m = t.get(tool, {})
            return "err" if "error" in m or key not in m else fmt_num(m[key])
        c = "/".join(cell(x, "crossings") for x in TOOLS)
        o = "/".join(cell(x, "overlap") for x in TOOLS)
        print(f"  {r['name']:<22}{r['nodes']:>4}{r['edges']:>5}  {c:<31} {o}")
        for tool in TOOLS:
            if "error" in t.get(tool, {}):
                print(f"      {tool}: {t[tool]['error']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inkboard", required=True, help="the inkboard binary to measure")
    ap.add_argument("--only", help="a set (gallery, random, flowcharts) or graph name; several separated by commas")
    ap.add_argument("--jobs", type=int, default=2, help="graphs drawn at once (default 2)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latest.json"), help="the results file")
    ap.add_argument("--keep", help="keep the boards and SVGs in this folder")
    ap.add_argument("--per-graph", action="store_true", help="print a line per graph (default with --only)")
    a = ap.parse_args()

    graphs = load_corpus(a.only)
    if not graphs:
        sys.exit(f"no graph matches --only {a.only!r}: give a set ({', '.join(SETS)}) or a graph name from corpus/")
    for tool in ("dot", "node"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed: see tests/quality/README.md")
    binary = os.path.abspath(a.inkboard)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    work = a.keep or tempfile.mkdtemp(prefix="inkboard-quality-")
    os.makedirs(work, exist_ok=True)
    started = time.time()
    print(f"inkboard quality benchmark: {len(graphs)} graphs, {binary} ({version}), dot {dot_version()}, elkjs {elk_version()}", file=sys.stderr)

    rows, sizes_by_graph = {}, {}
    with cf.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
        futures = {pool.submit(draw_one, binary, g, work): g for g in graphs}
        for fut in cf.as_completed(futures):
            g = futures[fut]
            res, sizes = fut.result()
            rows[g["name"]] = res
            if sizes:
                sizes_by_graph[g["name"]] = sizes
            print(f"  drawn {g['set']}/{g['name']}", file=sys.stderr)
    elk = draw_elk_all(graphs, sizes_by_graph)
    for g in graphs:
        d = elk.get(g["name"])
        if d is None:
            rows[g["name"]]["elk"] = {"error": "not drawn (inkboard failed, so no sizes)"}
        elif isinstance(d, Exception):
            rows[g["name"]]["elk"] = {"error": str(d)}
        else:
            rows[g["name"]]["elk"] = metrics.measure(d)
    if not a.keep:
        shutil.rmtree(work, ignore_errors=True)

    table = [{"name": g["name"], "set": g["set"], "nodes": len(g["nodes"]), "edges": len(g["edges"]), "tools": rows[g["name"]]} for g in graphs]
    result = {
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "inkboard": binary, "inkboard_version": version,
        "dot": dot_version(), "elkjs": elk_version(),
        "only": a.only, "seconds": round(time.time() - started, 1),
        "crossings_ratio": "geometric mean of (inkboard + 1) / (other + 1) over the graphs",
        "sets": {}, "graphs": table,
    }
    if a.per_graph or a.only:
        print_graphs(table)
    for r in table:
        for tool, m in r["tools"].items():
            if m.get("detached_ends"):
                print(f"  warning: {r['name']}: {tool} has {m['detached_ends']} edge ends more than 3 px off their node", file=sys.stderr)
    for s in SETS:
        part = [r for r in table if r["set"] == s]
        if part:
            result["sets"][s] = summarise(part)
            print_summary(f"{s} ({len(part)} graphs)", result["sets"][s])
    result["overall"] = summarise(table)
    if len(result["sets"]) > 1:
        print_summary(f"overall ({len(table)} graphs)", result["overall"])
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    print(f"\n{result['seconds']} s; results in {os.path.relpath(a.out)}")


def dot_version():
    p = subprocess.run(["dot", "-V"], capture_output=True, text=True)
    return (p.stderr or p.stdout).strip().replace("dot - graphviz version ", "")


def elk_version():
    try:
        with open(os.path.join(HERE, "node_modules", "elkjs", "package.json")) as f:
            return json.load(f)["version"]
    except OSError:
        return "not installed"


if __name__ == "__main__":
    main()
