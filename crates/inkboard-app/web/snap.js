// snap.js: snapping and alignment guides. While moving or resizing, the left/centre/
// right and top/middle/bottom lines of the moving box snap to those of the other
// objects on screen, and thin guides show what it lines up with.

import { state } from './state.js';
import { hasBox } from './geom.js';
import { layers, svgEl, visibleRect, getView, boundsOf } from './canvas.js';

const THRESHOLD = 6; // screen pixels

/** The lines of the objects on screen that something may snap to. */
export function snapTargets(exclude) {
  const v = visibleRect();
  const xs = [];
  const ys = [];
  for (const id of state.order) {
    if (exclude.has(id)) continue;
    const obj = state.objects.get(id);
    if (!hasBox(obj)) continue;
    const b = boundsOf(id);
    if (b.x > v.x + v.w || b.x + b.w < v.x || b.y > v.y + v.h || b.y + b.h < v.y) continue;
    for (const x of [b.x, b.x + b.w / 2, b.x + b.w]) xs.push({ v: x, a: b.y, b: b.y + b.h });
    for (const y of [b.y, b.y + b.h / 2, b.y + b.h]) ys.push({ v: y, a: b.x, b: b.x + b.w });
  }
  return { xs, ys };
}

function lines(box, which, axis) {
  const [p, s] = axis === 'x' ? [box.x, box.w] : [box.y, box.h];
  const all = { start: p, mid: p + s / 2, end: p + s };
  return which.map((k) => all[k]);
}

function best(moving, targets, limit) {
  let d = null;
  for (const m of moving) {
    for (const t of targets) {
      const delta = t.v - m;
      if (Math.abs(delta) <= limit && (d === null || Math.abs(delta) < Math.abs(d))) d = delta;
    }
  }
  return d ?? 0;
}

/**
 * How far to shift `box` so that its lines (`which.x`, `which.y`: some of
 * 'start', 'mid', 'end') meet the targets', and the guides to draw after the shift.
 */
export function snap(box, targets, which = { x: ['start', 'mid', 'end'], y: ['start', 'mid', 'end'] }) {
  const limit = THRESHOLD / getView().zoom;
  const dx = which.x.length ? best(lines(box, which.x, 'x'), targets.xs, limit) : 0;
  const dy = which.y.length ? best(lines(box, which.y, 'y'), targets.ys, limit) : 0;
  const moved = { x: box.x + dx, y: box.y + dy, w: box.w, h: box.h };
  const guides = [];
  const eps = 0.01;
  if (dx || which.x.length) {
    for (const m of lines(moved, which.x, 'x')) {
      const hits = targets.xs.filter((t) => Math.abs(t.v - m) < eps);
      if (!hits.length) continue;
      const a = Math.min(moved.y, ...hits.map((t) => t.a));
      const b = Math.max(moved.y + moved.h, ...hits.map((t) => t.b));
      guides.push({ x1: m, y1: a, x2: m, y2: b });
    }
  }
  if (dy || which.y.length) {
    for (const m of lines(moved, which.y, 'y')) {
      const hits = targets.ys.filter((t) => Math.abs(t.v - m) < eps);
      if (!hits.length) continue;
      const a = Math.min(moved.x, ...hits.map((t) => t.a));
      const b = Math.max(moved.x + moved.w, ...hits.map((t) => t.b));
      guides.push({ x1: a, y1: m, x2: b, y2: m });
    }
  }
  return { dx, dy, guides };
}

export function drawGuides(guides) {
  layers.guides.replaceChildren();
  for (const g of guides) svgEl('line', { class: 'guide', ...g }, layers.guides);
}

export function clearGuides() {
  layers.guides.replaceChildren();
}
