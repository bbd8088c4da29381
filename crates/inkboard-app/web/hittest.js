// hittest.js: which object is under the pointer (what is painted there, else a
// shape whose box holds the point, else a thin line nearby; frames only by their
// edge and title, so a marquee can start inside them), and which objects a marquee
// rectangle takes. A locked object (or one in a locked group) is looked through, as
// in Excalidraw: the mouse does not pick it, except the right-click menu's, which
// offers Unlock.

import { state, topOf } from './state.js';
import { FRAME_TITLE_HEIGHT, hasBox, contains, intersects, boxHolds, rotatePoint, rotationOf, center } from './geom.js';
import { toBoard, boundsOf, getView, objectIdOf, rootElement as svg } from './canvas.js';

function frameInterior(obj, p) {
  if (obj.type !== 'shape' || obj.geom !== 'frame') return false;
  // In the frame's own, unturned frame of reference.
  p = rotatePoint(p, -rotationOf(obj), center(obj));
  const edge = 6 / getView().zoom;
  return p.x > obj.x + edge && p.x < obj.x + obj.w - edge
    && p.y > obj.y + Math.min(FRAME_TITLE_HEIGHT, obj.h) && p.y < obj.y + obj.h - edge;
}

/**
 * The object under a client point, topmost first: what is painted there, else a
 * shape whose box holds the point, else a thin line nearby. Frames are hit on their
 * edge and title only. Options: `groups` (answer the outermost group; default true),
 * `accept(obj)` (a filter), `except` (a Set of ids to look through), `locked`
 * (also answer locked objects; default false).
 */
export function hitTest(clientX, clientY, { groups = true, accept = null, except = null, locked = false } = {}) {
  const p = toBoard(clientX, clientY);
  const ok = (id) => {
    const obj = state.objects.get(id);
    if (!obj || except?.has(id) || (accept && !accept(obj))) return false;
    if (!locked && isLocked(id)) return false;
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
    if (hasBox(obj) && boxHolds(obj, p) && ok(id)) return answer(id);
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

/** Whether an object is locked, itself or by a group holding it. */
export function isLocked(id) {
  let cur = id;
  for (let i = 0; i < 32 && cur; i++) {
    if (state.objects.get(cur)?.locked) return true;
    cur = state.memberOf.get(cur);
  }
  return false;
}

/**
 * Every top-level object (groups stand for their members) whose bounds meet, or for
 * frames lie inside, a board rectangle; locked ones are left out.
 */
export function idsIn(r) {
  const out = [];
  for (const id of state.order) {
    if (state.memberOf.has(id) || isLocked(id)) continue;
    const b = boundsOf(id);
    if (b && (state.objects.get(id).geom === 'frame' ? contains(r, b) : intersects(r, b))) out.push(id);
  }
  return out;
}
