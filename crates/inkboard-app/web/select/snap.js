// snap.js: snapping and alignment guides. While moving or resizing, the left/centre/
// right and top/middle/bottom lines of the moving box snap to those of the other
// objects on screen, and thin guides show what it lines up with.

import { state } from '../sync/state.js';
import { hasBox, intersects } from '../canvas/geom.js';
import { layers, svgEl, visibleRect, getView, boundsOf } from '../canvas/canvas.js';

const THRESHOLD = 6; // screen pixels
const ALL = ['start', 'mid', 'end'];

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
    if (!intersects(b, v)) continue;
    for (const x of lines(b, ALL, 'x')) xs.push({ v: x, a: b.y, b: b.y + b.h });
    for (const y of lines(b, ALL, 'y')) ys.push({ v: y, a: b.x, b: b.x + b.w });
  }
  return { xs, ys };
}

/** The start, middle and end lines of a box on one axis, as picked by `which`. */
function lines(box, which, axis) {
  const [p, s] = axis === 'x' ? [box.x, box.w] : [box.y, box.h];
  const all = { start: p, mid: p + s / 2, end: p + s };
  return which.map((k) => all[k]);
}

/** The smallest shift (within `limit`) that puts one of `moving` on a target, else 0. */
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

/** Guides along one axis: each line of `box` that lies on targets, spanning them and the box. */
function guidesOn(box, which, targets, axis) {
  const across = axis === 'x' ? [box.y, box.y + box.h] : [box.x, box.x + box.w];
  const out = [];
  for (const m of lines(box, which, axis)) {
    const hits = targets.filter((t) => Math.abs(t.v - m) < 0.01);
    if (!hits.length) continue;
    const a = Math.min(across[0], ...hits.map((t) => t.a));
    const b = Math.max(across[1], ...hits.map((t) => t.b));
    out.push(axis === 'x' ? { x1: m, y1: a, x2: m, y2: b } : { x1: a, y1: m, x2: b, y2: m });
  }
  return out;
}

/**
 * How far to shift `box` so that its lines (`which.x`, `which.y`: some of
 * 'start', 'mid', 'end') meet the targets', and the guides to draw after the shift.
 */
export function snap(box, targets, which = { x: ALL, y: ALL }) {
  const limit = THRESHOLD / getView().zoom;
  const dx = best(lines(box, which.x, 'x'), targets.xs, limit);
  const dy = best(lines(box, which.y, 'y'), targets.ys, limit);
  const moved = { x: box.x + dx, y: box.y + dy, w: box.w, h: box.h };
  const guides = [...guidesOn(moved, which.x, targets.xs, 'x'), ...guidesOn(moved, which.y, targets.ys, 'y')];
  return { dx, dy, guides };
}

export function drawGuides(guides) {
  layers.guides.replaceChildren();
  for (const g of guides) svgEl('line', { class: 'guide', ...g }, layers.guides);
}

export function clearGuides() {
  layers.guides.replaceChildren();
}
