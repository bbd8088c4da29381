#!/usr/bin/env python3
"""Makes corpus/random/: random DAGs drawn once with networkx (run by hand, the
output is committed; networkx is installed in tests/quality/.venv, not committed):

    python3 -m venv tests/quality/.venv && tests/quality/.venv/bin/pip install networkx
    tests/quality/.venv/bin/python tests/quality/tools/make_random.py

Graph k (0..19) has n = min(100, 10 + 5k) nodes and m = 1.4 n edges drawn: a
G(n, m) random graph (networkx.gnm_random_graph, seed = SEED + k) with every edge
oriented from the lower to the higher number, so it is acyclic, cut to its largest
weakly connected part. The seed and networkx version are written into each file.
"""
import json
import os

import networkx as nx

SEED = 20261202
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "corpus", "random")


def main():
    for k in range(20):
        n = min(100, 10 + 5 * k)
        m = round(1.4 * n)
        g = nx.gnm_random_graph(n, m, seed=SEED + k)
        dag = nx.DiGraph()
        dag.add_edges_from((min(u, v), max(u, v)) for u, v in g.edges())
        part = max(nx.weakly_connected_components(dag), key=len)
        dag = dag.subgraph(part)
        nodes = sorted(dag.nodes())
        name = f"dag{k:02d}_n{len(nodes)}"
        graph = {
            "name": name,
            "set": "random",
            "source": f"tools/make_random.py: networkx {nx.__version__} gnm_random_graph(n={n}, m={m}, seed={SEED + k}), edges oriented low->high, largest weakly connected part",
            "licence": "generated for this benchmark (the project's licence)",
            "nodes": [{"id": f"v{v}", "label": f"v{v}", "shape": "rect"} for v in nodes],
            "edges": [{"from": f"v{u}", "to": f"v{v}"} for u, v in sorted(dag.edges())],
        }
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            json.dump(graph, f, indent=1)
            f.write("\n")
        print(name, len(graph["nodes"]), len(graph["edges"]))


if __name__ == "__main__":
    main()
