// peer.mjs: inkboard's `render` side by side with a browser-based peer, on the
// render benchmark's 199-object flow (crates/inkboard-render/benches/render.rs:
// 100 shapes of six outlines in rows of ten, "Step i: check the input", each
// joined to the next by an orthogonal connector).
//
// - inkboard: the `render` tool of a warm `inkboard mcp` (the release binary by
//   default), called over stdio as an agent calls it: the PNG (at most 1600 px)
//   and the problem list, base64 in the answer.
// - the peer: Excalidraw's own export (the npm package @excalidraw/excalidraw,
//   `exportToBlob` to a PNG of the same width, and `exportToSvg`) of the same
//   flow exported to `.excalidraw`, in Debian's Chromium, warm.
//
// Each is timed over RUNS calls after WARM unmeasured ones; the medians and the
// ratio are printed, and the peer once more cold, as a server that starts
// Chromium for each picture does. A benchmark, not a test (docs/performance.md has its
// figures): `node tests/interop/peer.mjs` after `cargo build --release -p
// inkboard` and `npm ci` here; INKBOARD_BIN picks another binary.

import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { excalidrawScript, launch, ROOT, serve, tempDir } from './lib.mjs';

const BIN = path.resolve(ROOT, process.env.INKBOARD_BIN ?? 'target/release/inkboard');
const RUNS = Number(process.env.RUNS ?? 20);
const WARM = 3;
const GEOMS = ['rounded', 'rect', 'ellipse', 'diamond', 'note', 'hexagon'];

/** The benchmark's flow as a board file. */
function flow() {
  const objects = [];
  for (let i = 0; i < 100; i++) {
    objects.push({
      id: `s${i + 1}`, type: 'shape', geom: GEOMS[i % GEOMS.length],
      x: (i % 10) * 200, y: Math.floor(i / 10) * 150, w: 140, h: 80,
      text: `Step ${i}: check the input`,
    });
  }
  for (let i = 0; i < 99; i++) {
    objects.push({ id: `c${101 + i}`, type: 'connector', from: `s${i + 1}`, to: `s${i + 2}`, route: 'orthogonal' });
  }
  return { format: 'inkboard', version: 3, title: 'flow', next_id: 200, pages: [{ id: 'p1', name: 'Page 1', objects }] };
}

/** A warm `inkboard mcp`: `call(name, args)` answers the tool's result. */
async function mcp() {
  const child = spawn(BIN, ['mcp'], { stdio: ['pipe', 'pipe', 'ignore'], env: { ...process.env, INKBOARD_RUNTIME_DIR: tempDir() } });
  let buffer = '';
  const waiting = new Map();
  child.stdout.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const msg = JSON.parse(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
      waiting.get(msg.id)?.(msg);
    }
  });
  let id = 0;
  const request = (method, params) => new Promise((resolve, reject) => {
    const n = ++id;
    waiting.set(n, (m) => (m.error ? reject(new Error(JSON.stringify(m.error))) : resolve(m.result)));
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: n, method, params }) + '\n');
  });
  await request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'peer', version: '0' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  return {
    call: async (name, args) => {
      const r = await request('tools/call', { name, arguments: args });
      if (r.isError) throw new Error(JSON.stringify(r.content));
      return r;
    },
    close: () => child.kill(),
  };
}

/** Median of `times` (ms). */
const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

/** Times `f` RUNS times after WARM unmeasured calls; answers the median, ms. */
async function timed(f) {
  for (let i = 0; i < WARM; i++) await f();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  return median(times);
}

const dir = tempDir();
const board = path.join(dir, 'flow.inkboard');
writeFileSync(board, JSON.stringify(flow()));

const agent = await mcp();
let png = 0;
const inkboard = await timed(async () => {
  const r = await agent.call('render', { path: board });
  png = Buffer.from(r.content.find((c) => c.type === 'image').data, 'base64').length;
});
const scene = path.join(dir, 'flow.excalidraw');
await agent.call('export', { path: board, output: scene });
agent.close();

const server = await serve({ pages: { '/': '<!doctype html><html><body></body></html>' } });
const browser = await launch();
const page = await browser.newPage();
await page.goto(server.base + '/');
await page.addScriptTag({ content: await excalidrawScript(['restore', 'exportToBlob', 'exportToSvg']) });
const text = (await import('node:fs')).readFileSync(scene, 'utf8');
await page.evaluate((json) => {
  const data = window.Excalidraw.restore(JSON.parse(json), null, null);
  window.scene = { elements: data.elements, appState: { ...data.appState, exportBackground: true }, files: data.files };
}, text);
const peer = {};
for (const kind of ['png', 'svg']) {
  const f = () => page.evaluate(async (k) => {
    const { elements, appState, files } = window.scene;
    if (k === 'svg') return (await window.Excalidraw.exportToSvg({ elements, appState, files })).outerHTML.length;
    // The same width as inkboard's picture: at most 1600 px.
    const blob = await window.Excalidraw.exportToBlob({
      elements, appState, files, mimeType: 'image/png',
      getDimensions: (w, h) => ({ width: Math.min(w, 1600), height: (h * Math.min(w, 1600)) / w, scale: Math.min(1, 1600 / w) }),
    });
    return blob.size;
  }, kind);
  peer[kind] = await timed(f);
}
await browser.close();

// Cold, as a server that starts a browser for each picture: Chromium launched,
// Excalidraw's code loaded, the scene read and exported, the browser closed.
const script = await excalidrawScript(['restore', 'exportToBlob']);
const coldRuns = Math.max(3, Math.floor(RUNS / 4));
const cold = [];
for (let i = 0; i < coldRuns; i++) {
  const t = performance.now();
  const b = await launch();
  const p = await b.newPage();
  await p.goto(server.base + '/');
  await p.addScriptTag({ content: script });
  await p.evaluate(async (json) => {
    const data = window.Excalidraw.restore(JSON.parse(json), null, null);
    const w = 1600;
    await window.Excalidraw.exportToBlob({
      elements: data.elements, appState: { ...data.appState, exportBackground: true }, files: data.files,
      mimeType: 'image/png', getDimensions: (x, y) => ({ width: Math.min(x, w), height: (y * Math.min(x, w)) / x, scale: Math.min(1, w / x) }),
    });
  }, text);
  await b.close();
  cold.push(performance.now() - t);
}
peer.cold = median(cold);
await server.close();

const round = (v) => Math.round(v * 10) / 10;
console.log(`199-object flow, median of ${RUNS}:`);
console.log(`  inkboard render (MCP, PNG ${png} bytes + problems): ${round(inkboard)} ms`);
console.log(`  Excalidraw exportToBlob (PNG) in Chromium: ${round(peer.png)} ms (${round(peer.png / inkboard)}x inkboard's)`);
console.log(`  Excalidraw exportToSvg in Chromium: ${round(peer.svg)} ms (${round(peer.svg / inkboard)}x inkboard's)`);
console.log(`  Excalidraw exportToBlob with Chromium started for it (median of ${coldRuns}): ${round(peer.cold)} ms (${round(peer.cold / inkboard)}x inkboard's)`);
