// hittest.js: which object is under the pointer, topmost first: one painted there,
// a shape whose box holds the point, or a line (connector, ink stroke) within
// LINE_REACH screen pixels of its drawn edge at any zoom (lines.js: the distance to
// the line as drawn, as Excalidraw and tldraw measure it, so a click or a
// right-click beside a thin arrow lands on it); frames only by their edge and
// title, so a marquee can start inside them. And which objects a marquee
// rectangle takes. A locked object (or one in a locked group) is looked through, as
// in Excalidraw: the mouse does not pick it, except the right-click menu's, which
// offers Unlock.

import { state, topOf } from '../sync/state.js';
import { FRAME_TITLE_HEIGHT, hasBox, contains, intersects, boxHolds, rotatePoint, rotationOf, center } from './geom.js';
import {
  toBoard, boundsOf, getView, objectIdOf, shownElement, rootElement as svg,
} from './canvas.js';
import { drawnLine, polylineDistance } from './lines.js';

/** How far from a line's drawn edge a press still takes it, in screen pixels. */
export const LINE_REACH = 6;

function frameInterior(obj, p) {
  if (obj.type !== 'shape' || obj.geom !== 'frame') return false;
  // In the frame's own, unturned frame of reference.
  p = rotatePoint(p, -rotationOf(obj), center(obj));
  const edge = 6 / getView().zoom;
  return p.x > obj.x + edge && p.x < obj.x + obj.w - edge
    && p.y > obj.y + Math.min(FRAME_TITLE_HEIGHT, obj.h) && p.y < obj.y + obj.h - edge;
}

/**
 * The object under a client point, topmost first: one painted there, a shape
 * whose box holds the point, or a line within LINE_REACH screen pixels of its
 * drawn edge. Frames are hit on their edge and title only. Options: `groups`
 * (answer the outermost group; default true), `accept(obj)` (a filter), `except`
 * (a Set of ids to look through), `locked` (also answer locked objects; default
 * false).
 */
export function hitTest(clientX, clientY, { groups = true, accept = null, except = null, locked = false } = {}) {
  const p = toBoard(clientX, clientY);
  const ok = (id) => {
    const obj = state.objects.get(id);
    if (!obj || except?.has(id) || (accept && !accept(obj))) return false;
    if (!locked && isLocked(id)) return false;
    return !frameInterior(obj, p);
  };
  const painted = new Set();
  for (const el of document.elementsFromPoint(clientX, clientY)) {
    if (el === svg()) break;
    const id = objectIdOf(el);
    if (id) painted.add(id);
  }
  const zoom = getView().zoom;
  for (let i = state.order.length - 1; i >= 0; i--) {
    const id = state.order[i];
    const obj = state.objects.get(id);
    if (!obj) continue;
    const hit = painted.has(id) || (hasBox(obj) && boxHolds(obj, p)) || nearLine(id, obj, p, zoom);
    if (hit && ok(id)) return groups ? topOf(id) : id;
  }
  return null;
}

/** Whether board point `p` is within LINE_REACH screen pixels of line `id`'s drawn edge. */
function nearLine(id, obj, p, zoom) {
  if (obj.type !== 'connector' && obj.type !== 'ink') return false;
  const reach = LINE_REACH / zoom;
  // Most lines are far away: their drawn box, grown by the reach, says so cheaply.
  const b = boundsOf(id);
  if (b && (p.x < b.x - reach || p.x > b.x + b.w + reach || p.y < b.y - reach || p.y > b.y + b.h + reach)) return false;
  const line = drawnLine(obj, shownElement(id));
  return !!line && polylineDistance(p, line.polylines) <= reach + line.width / 2;
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
