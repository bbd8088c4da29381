#!/usr/bin/env python3
"""Makes corpus/gallery/ from the Graphviz example graphs that Debian installs
(package `graphviz`, /usr/share/doc/graphviz/examples/graphs/directed/).

Run once by hand (the output is committed): python3 tools/make_gallery.py.
Each graph is read through `dot -Tjson0` (Graphviz's own parser, so no DOT
grammar is re-implemented here) and kept when it is a digraph with 10 to 100
nodes, no cluster and no record-shaped node (records have inner fields that no
single inkboard shape maps to). What is skipped, and why, goes to
corpus/gallery/SKIPPED.md. Node shapes map to the nearest inkboard geometry.
"""
import gzip
import json
import os
import subprocess
import sys

SRC = "/usr/share/doc/graphviz/examples/graphs/directed"
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "corpus", "gallery")

# Graphviz shape -> inkboard geom; anything else becomes "rect".
SHAPES = {
    "ellipse": "ellipse", "oval": "ellipse", "circle": "ellipse",
    "doublecircle": "ellipse", "point": "ellipse", "egg": "ellipse",
    "diamond": "diamond", "Mdiamond": "diamond",
    "hexagon": "hexagon", "parallelogram": "parallelogram",
    "triangle": "triangle", "cylinder": "cylinder", "note": "note",
    "box": "rect", "rect": "rect", "rectangle": "rect", "square": "rect",
}


def read(path):
    raw = gzip.open(path).read() if path.endswith(".gz") else open(path, "rb").read()
    out = subprocess.run(["dot", "-Tjson0"], input=raw, capture_output=True, check=True)
    return json.loads(out.stdout)


def label_of(obj):
    label = obj.get("label", "\\N")
    if label in ("\\N", "") or label.startswith("<"):  # default or HTML label
        label = obj["name"]
    return label.replace("\\n", "\n").replace("\\l", "\n").replace("\\r", "\n").strip()[:40]


def main():
    kept, skipped = [], []
    for name in sorted(os.listdir(SRC)):
        if not (name.endswith(".gv") or name.endswith(".gv.gz")):
            continue
        base = name.split(".")[0]
        try:
            g = read(os.path.join(SRC, name))
        except Exception as e:  # a file dot cannot read is skipped, with why
            skipped.append((name, f"dot cannot read it: {e}"))
            continue
        objs = g.get("objects", [])
        nodes = [o for o in objs if "nodes" not in o and "subgraphs" not in o]
        clusters = [o["name"] for o in objs if "nodes" in o and o["name"].startswith("cluster")]
        shapes = {o.get("shape", g.get("shape", "ellipse")) for o in nodes}
        why = None
        if not g.get("directed"):
            why = "undirected"
        elif not 10 <= len(nodes) <= 100:
            why = f"{len(nodes)} nodes (outside 10-100)"
        elif clusters:
            why = f"clusters ({len(clusters)}): inkboard's layout has no clusters to compare"
        elif shapes & {"record", "Mrecord"}:
            why = "record shapes (fields inside a node; no inkboard shape holds them)"
        if why:
            skipped.append((name, why))
            continue
        index = {o["_gvid"]: o["name"] for o in nodes}
        graph = {
            "name": base,
            "set": "gallery",
            "source": f"Debian package graphviz: {SRC}/{name}",
            "licence": "EPL-1.0 (Graphviz, /usr/share/doc/graphviz/copyright)",
            "nodes": [
                {"id": o["name"], "label": label_of(o),
                 "shape": SHAPES.get(o.get("shape", "ellipse"), "rect")}
                for o in nodes
            ],
            "edges": [
                {"from": index[e["tail"]], "to": index[e["head"]]}
                for e in g.get("edges", [])
            ],
        }
        with open(os.path.join(OUT, base + ".json"), "w") as f:
            json.dump(graph, f, indent=1, ensure_ascii=False)
            f.write("\n")
        kept.append((name, len(graph["nodes"]), len(graph["edges"]), sorted(shapes)))
    with open(os.path.join(OUT, "SKIPPED.md"), "w") as f:
        f.write("# Graphviz examples kept and skipped\n\n"
                "Made by `tools/make_gallery.py` from " + SRC + ".\n\n"
                "| file | nodes | edges | Graphviz shapes |\n|---|---|---|---|\n")
        for name, n, m, s in kept:
            f.write(f"| {name} | {n} | {m} | {', '.join(s)} |\n")
        f.write("\n## Skipped\n\n| file | why |\n|---|---|\n")
        for name, why in skipped:
            f.write(f"| {name} | {why} |\n")
        f.write("\nThe undirected examples (../undirected/) are not digraphs and are not read.\n")
    print(f"kept {len(kept)}, skipped {len(skipped)}", file=sys.stderr)


if __name__ == "__main__":
    main()
