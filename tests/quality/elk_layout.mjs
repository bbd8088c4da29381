// ELK drawings for the quality benchmark: reads a JSON list of graphs on stdin
// ({name, spacing, layer_spacing, nodes: [{id, w, h}], edges: [{id, from, to}]}),
// lays each out with elkjs (layered, down, orthogonal routing, the given node
// sizes and spacing) and writes {name: {nodes: {id: {x, y, w, h}}, edges:
// {id: [[x, y], ...]}}} on stdout. ELK's edge sections are its final geometry:
// nothing draws them after this, so they are what the benchmark measures.
import ELK from "elkjs/lib/elk.bundled.js";

const elk = new ELK();

async function readStdin() {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function options(g) {
  return {
    "elk.algorithm": "layered",
    "elk.direction": "DOWN",
    "elk.edgeRouting": "ORTHOGONAL",
    "elk.spacing.nodeNode": String(g.spacing),
    "elk.layered.spacing.nodeNodeBetweenLayers": String(g.layer_spacing),
  };
}

async function draw(g) {
  const graph = {
    id: "root",
    layoutOptions: options(g),
    children: g.nodes.map((n) => ({ id: n.id, width: n.w, height: n.h })),
    edges: g.edges.map((e) => ({ id: e.id, sources: [e.from], targets: [e.to] })),
  };
  const out = await elk.layout(graph);
  const nodes = {};
  for (const n of out.children) nodes[n.id] = { x: n.x, y: n.y, w: n.width, h: n.height };
  const edges = {};
  for (const e of out.edges) {
    const pts = [];
    for (const s of e.sections ?? []) {
      pts.push([s.startPoint.x, s.startPoint.y]);
      for (const b of s.bendPoints ?? []) pts.push([b.x, b.y]);
      pts.push([s.endPoint.x, s.endPoint.y]);
    }
    edges[e.id] = pts;
  }
  return { nodes, edges };
}

const graphs = await readStdin();
const result = {};
for (const g of graphs) {
  try {
    result[g.name] = await draw(g);
  } catch (err) {
    result[g.name] = { error: String(err && err.message ? err.message : err) };
  }
}
process.stdout.write(JSON.stringify(result));
