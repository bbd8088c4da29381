// lanes.js: swimlanes from the editor (issue 32). A selected frame becomes a pool
// of lanes ("Make lanes"): its box is cut into three bands across it (rows in a
// frame wider than tall, columns in one taller than wide), each band a frame
// "Lane 1", "Lane 2", ... put in the pool, and the agents' own `layout` with
// `"algorithm": "lanes"` then fits the lanes to what they hold (the shapes the
// pool held go to the lane they lie in, or the nearest). "Add lane" puts one
// more lane after the last, and "Lay out lanes" runs the layout again. Each is
// one `batch` (or one `layout`) call, so one undo step, and the engine places
// everything; the bands here only say which lane a shape starts in.

import { state, select, emit } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import { frameHolds } from '../canvas/geom.js';

/** How many lanes a new pool gets. */
const NEW_LANES = 3;
/** A frame's title band and the padding under it, and its side padding (as the server's). */
const TITLE = 42;
const PAD = 20;

function isFrame(id) {
  const o = state.objects.get(id);
  return o?.type === 'shape' && o.geom === 'frame';
}

/** The lanes of frame `id`: the frames it holds that no other of them holds, in page order. */
export function lanesOf(id) {
  const pool = state.objects.get(id);
  if (!isFrame(id)) return [];
  const inside = state.order.filter((o) => o !== id && isFrame(o) && frameHolds(pool, state.objects.get(o)));
  return inside.filter((l) => !inside.some((m) => m !== l && frameHolds(state.objects.get(m), state.objects.get(l))));
}

/** Whether pool `id`'s lanes are rows (stacked top to bottom): by its lanes, or a new pool by its shape. */
function rows(id) {
  const lanes = lanesOf(id).map((l) => state.objects.get(l));
  if (lanes.length >= 2) {
    const ys = new Set(lanes.map((l) => Math.round(l.y)));
    return ys.size > 1;
  }
  const f = state.objects.get(id);
  return f.w >= f.h;
}

/** The `layout` of pool `id`'s lanes, as an operation. */
function layoutOp(id, asRows) {
  return { tool: 'layout', args: { algorithm: 'lanes', ids: [id], direction: asRows ? 'right' : 'down' } };
}

/** Splits frame `id` into lanes (see the top of this file). */
export function makeLanes(id, n = NEW_LANES) {
  if (!isFrame(id)) return say('Select a frame to make it a pool of lanes.');
  if (lanesOf(id).length) return say('This frame holds lanes already: add a lane instead.');
  const f = state.objects.get(id);
  const asRows = rows(id);
  const inner = { x: f.x + PAD, y: f.y + TITLE, w: Math.max(f.w - 2 * PAD, 3 * n), h: Math.max(f.h - TITLE - PAD, 3 * n) };
  const ops = [];
  for (let k = 0; k < n; k++) {
    const band = asRows
      ? { x: inner.x, y: inner.y + (inner.h * k) / n, w: inner.w, h: inner.h / n }
      : { x: inner.x + (inner.w * k) / n, y: inner.y, w: inner.w / n, h: inner.h };
    ops.push({ tool: 'add_shape', args: { geom: 'frame', text: `Lane ${k + 1}`, inside: id, ...band } });
  }
  ops.push(layoutOp(id, asRows));
  return run(ops, id);
}

/** Adds a lane after the last of pool `id`'s lanes. */
export function addLane(id) {
  const lanes = lanesOf(id).map((l) => state.objects.get(l));
  if (!lanes.length) return makeLanes(id);
  const asRows = rows(id);
  const last = lanes.reduce((a, b) => (asRows ? (b.y > a.y ? b : a) : (b.x > a.x ? b : a)));
  const band = asRows
    ? { x: last.x, y: last.y + last.h, w: last.w, h: last.h }
    : { x: last.x + last.w, y: last.y, w: last.w, h: last.h };
  const ops = [
    { tool: 'add_shape', args: { geom: 'frame', text: `Lane ${lanes.length + 1}`, inside: id, ...band } },
    layoutOp(id, asRows),
  ];
  return run(ops, id);
}

/** Lays pool `id`'s lanes out again. */
export function layoutLanes(id) {
  if (!lanesOf(id).length) return say('This frame holds no lanes: make lanes first.');
  return sync.call('layout', layoutOp(id, rows(id)).args).catch(() => {});
}

async function run(ops, id) {
  try {
    await sync.call('batch', { operations: ops });
    select([id]);
  } catch {
    // reported by the status line
  }
  return null;
}

function say(message) {
  emit('error', message);
  return null;
}
