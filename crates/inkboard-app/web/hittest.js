// hittest.js: which object is under the pointer (what is painted there, else a
// shape whose box holds the point, else a thin line nearby; frames only by their
// edge and title, so a marquee can start inside them), and which objects a marquee
// rectangle takes.

import { state, topOf } from './state.js';
import { FRAME_TITLE_HEIGHT, hasBox, containsPoint } from './geom.js';
import { toBoard, boundsOf, getView, objectIdOf, rootElement as svg } from './canvas.js';

function frameInterior(obj, p) {
  if (obj.type !== 'shape' || obj.geom !== 'frame') return false;
  const edge = 6 / getView().zoom;
  return p.x > obj.x + edge && p.x < obj.x + obj.w - edge
    && p.y > obj.y + Math.min(FRAME_TITLE_HEIGHT, obj.h) && p.y < obj.y + obj.h - edge;
}

/**
 * The object under a client point, topmost first: what is painted there, else a
 * shape whose box holds the point, else a thin line nearby. Frames are hit on their
 * edge and title only. Options: `groups` (answer the outermost group; default true),
 * `accept(obj)` (a filter), `except` (a Set of ids to look through).
 */
export function hitTest(clientX, clientY, { groups = true, accept = null, except = null } = {}) {
  const p = toBoard(clientX, clientY);
  const ok = (id) => {
    const obj = state.objects.get(id);
    if (!obj || except?.has(id) || (accept && !accept(obj))) return false;
    return !frameInterior(obj, p);
  };
  const answer = (id) => (groups ? topOf(id) : id);
  for (const el of document.elementsFromPoint(clientX, clientY)) {
    const id = objectIdOf(el);
    if (id && ok(id)) return answer(id);
    if (el === svg()) break;
  }
  for (let i = state.order.length - 1; i >= 0; i--) {
    const id = state.order[i];
    const obj = state.objects.get(id);
    if (hasBox(obj) && containsPoint(obj, p) && ok(id)) return answer(id);
  }
  const r = 5;
  for (const [dx, dy] of [[r, 0], [-r, 0], [0, r], [0, -r], [r, r], [-r, -r], [r, -r], [-r, r]]) {
    for (const el of document.elementsFromPoint(clientX + dx, clientY + dy)) {
      const id = objectIdOf(el);
      const type = id && state.objects.get(id)?.type;
      if ((type === 'connector' || type === 'ink') && ok(id)) return answer(id);
      if (el === svg()) break;
    }
  }
  return null;
}

/** Every object id whose bounds meet (or, for frames, lie inside) a board rectangle. */
export function idsIn(r) {
  const out = [];
  for (const id of state.order) {
    if (state.memberOf.has(id)) continue;
    const obj = state.objects.get(id);
    const b = boundsOf(id);
    if (!b) continue;
    const inside = b.x >= r.x && b.y >= r.y && b.x + b.w <= r.x + r.w && b.y + b.h <= r.y + r.h;
    const meets = b.x <= r.x + r.w && r.x <= b.x + b.w && b.y <= r.y + r.h && r.y <= b.y + b.h;
    if (obj.geom === 'frame' ? inside : meets) out.push(id);
  }
  // Groups: selected when any member is.
  for (const id of state.order) {
    const obj = state.objects.get(id);
    if (obj?.type !== 'group' || state.memberOf.has(id)) continue;
    const b = boundsOf(id);
    if (b && b.x <= r.x + r.w && r.x <= b.x + b.w && b.y <= r.y + r.h && r.y <= b.y + b.h) out.push(id);
  }
  return [...new Set(out.map(topOf))];
}
