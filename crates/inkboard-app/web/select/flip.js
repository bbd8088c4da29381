// flip.js: flipping the selection (Shift+H across, Shift+V up and down), as in
// Excalidraw and tldraw. The selection is mirrored about the middle of the box
// around it, in one call (one undo step): each shape's and image's box moves to
// its mirrored place and its turn is mirrored (a turn of r becomes −r); an ink
// stroke's points, and a connector's free ends, bends and pinned sides, are
// mirrored themselves; a connector between two objects follows them.
//
// A shape's or image's own drawing is turned over too: `flip_x` or `flip_y`
// toggles (the renderer mirrors its outline or picture in its box, its text
// staying readable), so a triangle flipped up and down points down.

import { state, emit } from '../sync/state.js';
import { hasBox, union, rotationOf, normDeg } from '../canvas/geom.js';
import { boundsOf } from '../canvas/canvas.js';
import { transformable } from './drag.js';
import { isLocked } from '../canvas/hittest.js';
import * as sync from '../sync/sync.js';

/** Each side's mirror across each axis. */
const MIRROR_SIDE = {
  horizontal: { left: 'right', right: 'left' },
  vertical: { top: 'bottom', bottom: 'top' },
};

const round = (v) => Math.round(v * 100) / 100;

/**
 * The `update` arguments that mirror object `obj` about the line `axis`
 * ('horizontal': x = c.x; 'vertical': y = c.y), or null when nothing changes.
 */
export function mirrored(obj, axis, c) {
  const h = axis === 'horizontal';
  const point = ({ x, y }) => (h ? { x: round(2 * c.x - x), y } : { x, y: round(2 * c.y - y) });
  const args = { id: obj.id };
  if (hasBox(obj)) {
    if (h) args.x = round(2 * c.x - obj.x - obj.w);
    else args.y = round(2 * c.y - obj.y - obj.h);
    const deg = rotationOf(obj);
    if (deg) args.rotation = round(normDeg(-deg));
    // Mirrored then turned: M·R(r)·F = R(−r)·M·F, so the turn is negated and
    // the flag toggled.
    if (obj.type === 'shape' || obj.type === 'image') {
      if (h) args.flip_x = !obj.flip_x;
      else args.flip_y = !obj.flip_y;
    }
    return args;
  }
  if (obj.type === 'ink') {
    args.points = (obj.points ?? []).map(([x, y]) => {
      const p = point({ x, y });
      return [p.x, p.y];
    });
    return args;
  }
  if (obj.type === 'connector') {
    for (const end of ['from', 'to']) {
      if (obj[end] && typeof obj[end] === 'object') args[end] = point(obj[end]);
    }
    if (obj.waypoints?.length) {
      args.waypoints = obj.waypoints.map(([x, y]) => {
        const p = point({ x, y });
        return [p.x, p.y];
      });
    }
    for (const side of ['from_side', 'to_side']) {
      const turned = MIRROR_SIDE[axis][obj[side]];
      if (turned) args[side] = turned;
    }
    return Object.keys(args).length > 1 ? args : null;
  }
  return null;
}

/** Flips the selection across ('horizontal') or up and down ('vertical'). */
export function flip(axis) {
  const leaves = (transformable([...state.selection]) ?? []).filter((id) => !isLocked(id));
  if (!leaves.length) return null;
  let box = null;
  for (const id of leaves) box = union(box, boundsOf(id));
  if (!box) return null;
  const c = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
  // Frames first: moving a frame carries what it holds, which then takes its own place.
  const frame = (id) => (state.objects.get(id)?.geom === 'frame' ? 0 : 1);
  const ops = [...leaves].sort((a, b) => frame(a) - frame(b))
    .map((id) => mirrored(state.objects.get(id), axis, c)).filter(Boolean);
  if (!ops.length) return null;
  if (ops.length > 200) {
    emit('error', `Cannot flip ${ops.length} objects at once: 200 at most.`);
    return null;
  }
  const call = ops.length === 1 ? sync.call('update', ops[0])
    : sync.call('batch', { operations: ops.map((args) => ({ tool: 'update', args })) });
  return call.catch(() => {});
}
