#!/usr/bin/env python3
"""The drawing-quality benchmark (issue 13): draws every graph of corpus/ with
inkboard, `dot` (splines=ortho and splines=spline) and ELK (elkjs, layered,
orthogonal), measures each final drawing with metrics.py, and prints the figures
per graph set and overall, inkboard next to the others. Run through
scripts/quality (tests/quality/README.md); Python standard library only.

How each tool is driven: draw.py; the metrics: metrics.py; the tables: report.py.
"""

import argparse
import concurrent.futures as cf
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import draw  # noqa: E402
import metrics  # noqa: E402
import report  # noqa: E402
from draw import DrawError  # noqa: E402

SETS = ["gallery", "random", "flowcharts"]


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


def draw_one(binary, g, work):
    """inkboard and both dots for one graph: {tool: metrics or {"error"}}."""
    res = {}
    try:
        drawing, export_s = draw.inkboard(binary, g, work)
        res["inkboard"] = metrics.measure(drawing)
        res["inkboard"]["export_s"] = round(export_s, 3)
        sizes = {k: (v["w"], v["h"]) for k, v in drawing["nodes"].items()}
    except (DrawError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
        res["inkboard"] = {"error": str(e)}
        return res, None
    for splines in ("ortho", "spline"):
        try:
            res[f"dot-{splines}"] = metrics.measure(draw.dot(g, sizes, splines))
        except (DrawError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
            res[f"dot-{splines}"] = {"error": str(e)}
    return res, sizes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--inkboard", required=True, help="the inkboard binary to measure")
    ap.add_argument("--only", help="a set (gallery, random, flowcharts) or graph name; several separated by commas")
    ap.add_argument("--jobs", type=int, default=2, help="graphs drawn at once (default 2)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "latest.json"), help="the results file")
    ap.add_argument("--keep", help="keep the boards and SVGs in this folder")
    ap.add_argument("--per-graph", action="store_true", help="print a line per graph (default with --only)")
    ap.add_argument("--compare", metavar="FILE", help="a results file (e.g. results/baseline.json): print inkboard's figures then and now")
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
    print(f"inkboard quality benchmark: {len(graphs)} graphs, {binary} ({version}), dot {draw.dot_version()}, elkjs {draw.elk_version()}", file=sys.stderr)

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
    elk = draw.elk_all(graphs, sizes_by_graph)
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
        "dot": draw.dot_version(), "elkjs": draw.elk_version(),
        "only": a.only, "seconds": round(time.time() - started, 1),
        "crossings_ratio": "geometric mean of (inkboard + 1) / (other + 1) over the graphs",
        "sets": {}, "graphs": table,
    }
    if a.per_graph or a.only:
        report.print_graphs(table)
    for r in table:
        for tool, m in r["tools"].items():
            if m.get("detached_ends"):
                print(f"  warning: {r['name']}: {tool} has {m['detached_ends']} edge ends more than 3 px off their node", file=sys.stderr)
    for s in SETS:
        part = [r for r in table if r["set"] == s]
        if part:
            result["sets"][s] = report.summarise(part)
            report.print_summary(f"{s} ({len(part)} graphs)", result["sets"][s])
    result["overall"] = report.summarise(table)
    if len(result["sets"]) > 1:
        report.print_summary(f"overall ({len(table)} graphs)", result["overall"])
    if a.compare:
        with open(a.compare) as f:
            report.print_compare(json.load(f)["graphs"], table, SETS)
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    shown = os.path.relpath(a.out)
    print(f"\n{result['seconds']} s; results in {shown if not shown.startswith('..') else os.path.abspath(a.out)}")


if __name__ == "__main__":
    main()
