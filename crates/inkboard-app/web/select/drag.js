// drag.js: the drags of the select tool. Moving (snapped, with guides; connectors
// follow through server previews; with Alt, a copy moves and the originals stay:
// one `duplicate`), resizing by a handle and turning by the round one (one object,
// several, or a group as one), and re-attaching a connector's end. Each shows a local
// preview and sends ONE call on release, so a drag is one undo step. Ink strokes and
// connectors' free ends and bends have no box or rotation of their own: handles
// carry them by rewriting their points.

import { state, on, membersOf, select, topOf } from '../sync/state.js';
import {
  hasBox, union, snapNumber, center, rotatePoint, rotationOf, cornersOf, normDeg, frameHolds,
} from '../canvas/geom.js';
import * as sync from '../sync/sync.js';
import {
  layers, svgEl, setAttrs, rectAttrs, toBoard, boundsOf, elementOf, showPreview, clearPreview, getView,
} from '../canvas/canvas.js';
import { hitTest } from '../canvas/hittest.js';
import { snapTargets, snap, drawGuides, clearGuides } from './snap.js';

/**
 * The objects that move with `ids`: group members and what lies in moved frames;
 * with `moving`, without the locked ones and what they hold, which a move leaves.
 */
export function movingSet(ids, { moving = false } = {}) {
  const out = new Set();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop();
    if (out.has(id)) continue;
    const obj = state.objects.get(id);
    // A moved locked object stays, with what it holds, as the server's `move` keeps it.
    if (!obj || (moving && obj.locked)) continue;
    out.add(id);
    stack.push(...membersOf(obj));
    if (obj.type === 'shape' && obj.geom === 'frame') {
      for (const other of state.order) {
        if (other === id || out.has(other)) continue;
        const o = state.objects.get(other);
        if (o.type !== 'connector' && frameHolds(obj, o)) stack.push(other);
      }
    }
  }
  // Connectors with both ends moving move whole.
  for (const [id, obj] of state.objects) {
    if (obj.type !== 'connector' || out.has(id)) continue;
    if (typeof obj.from === 'string' && typeof obj.to === 'string' && out.has(obj.from) && out.has(obj.to)) out.add(id);
  }
  return out;
}

/** Does moving this set change anything else (attached connectors)? */
function touchesConnectors(set) {
  for (const [id, obj] of state.objects) {
    if (obj.type !== 'connector' || set.has(id)) continue;
    if (set.has(obj.from) || set.has(obj.to)) return true;
  }
  return false;
}

/** Sends previews one at a time; the latest wanted one goes when the last answers. */
function previewer(onAnswer) {
  let inflight = false;
  let wanted = null;
  let stopped = false;
  const go = () => {
    if (inflight || !wanted || stopped) return;
    const { tool, args, tag } = wanted;
    wanted = null;
    inflight = true;
    sync.preview(tool, args).then((msg) => {
      inflight = false;
      if (stopped) return;
      if (!msg.error) onAnswer(msg, tag);
      go();
    }, () => {
      inflight = false;
    });
  };
  return {
    want(tool, args, tag) {
      wanted = { tool, args, tag };
      go();
    },
    stop() {
      stopped = true;
    },
  };
}

/**
 * What the drags share: the pointer's travel in board units since the press, the
 * server's previews (`onPreview` gets each answer), and the cleanup of both.
 */
function dragFrom(e, onPreview) {
  const start = toBoard(e.clientX, e.clientY);
  const previews = previewer(onPreview);
  return {
    previews,
    travel(ev) {
      const p = toBoard(ev.clientX, ev.clientY);
      return { x: p.x - start.x, y: p.y - start.y };
    },
    /** Stops previews and guides now, keeping the previewed drawing until a scene replaces it. */
    release() {
      previews.stop();
      clearGuides();
    },
    end() {
      this.release();
      clearPreview();
    },
  };
}

// ---- move -----------------------------------------------------------------------

/**
 * Moves `ids` with the pointer. With `duplicate`, a copy of them moves instead (drawn
 * from their elements) and the release sends one `duplicate` by the distance.
 */
export function startMove(e, ids, { duplicate = false } = {}) {
  const rigid = movingSet(ids, { moving: true });
  let box = null;
  for (const id of ids) box = union(box, boundsOf(id));
  // A copy may snap to its originals, which stay.
  const targets = snapTargets(duplicate ? new Set() : rigid);
  const needsPreview = !duplicate
    && (touchesConnectors(rigid) || ids.some((id) => state.objects.get(id)?.geom === 'frame'));
  let ghost = null;
  if (duplicate) {
    ghost = svgEl('g', { class: 'dup-ghost' }, layers.draft);
    for (const id of state.order) {
      const el = rigid.has(id) && elementOf(id);
      if (!el) continue;
      const copy = el.cloneNode(true);
      copy.removeAttribute('id');
      ghost.append(copy);
    }
  }
  const base = new Map(); // id -> offset already drawn in its (preview) fragment
  let dx = 0;
  let dy = 0;
  let committing = false;

  const apply = () => {
    if (ghost) {
      ghost.setAttribute('transform', `translate(${dx} ${dy})`);
      layers.selection.setAttribute('transform', `translate(${dx} ${dy})`);
      return;
    }
    for (const id of rigid) {
      const el = elementOf(id);
      if (!el) continue;
      const b = base.get(id) ?? { dx: 0, dy: 0 };
      el.setAttribute('transform', `translate(${dx - b.dx} ${dy - b.dy})`);
    }
    layers.selection.setAttribute('transform', `translate(${dx} ${dy})`);
  };
  const drag = dragFrom(e, (msg, at) => {
    for (const id of showPreview(msg.items)) {
      if (rigid.has(id)) base.set(id, at);
    }
    apply();
  });
  const offScene = on('scene', () => {
    if (committing) {
      // The move has landed: the selection is drawn where the objects now are.
      layers.selection.removeAttribute('transform');
      return;
    }
    base.clear();
    apply();
  });
  const cleanup = () => {
    drag.end();
    offScene();
    ghost?.remove();
    for (const id of rigid) elementOf(id)?.removeAttribute('transform');
    layers.selection.removeAttribute('transform');
  };

  return {
    move(ev) {
      let { x: mx, y: my } = drag.travel(ev);
      if (ev.shiftKey) {
        if (Math.abs(mx) > Math.abs(my)) my = 0;
        else mx = 0;
      }
      // Alt turns snapping off, except while Alt means "a copy": then Ctrl does.
      const free = duplicate ? ev.ctrlKey || ev.metaKey : ev.altKey;
      if (box && !free) {
        const s = snap({ x: box.x + mx, y: box.y + my, w: box.w, h: box.h }, targets);
        mx += s.dx;
        my += s.dy;
        drawGuides(s.guides);
      } else clearGuides();
      const z = getView().zoom;
      dx = snapNumber(mx, z);
      dy = snapNumber(my, z);
      apply();
      if (needsPreview) drag.previews.want('move', { ids, dx, dy }, { dx, dy });
    },
    up() {
      committing = true;
      if (!dx && !dy) {
        cleanup();
        return;
      }
      drag.release();
      if (duplicate) {
        sync.call('duplicate', { ids, dx, dy })
          .then((r) => r?.ids && select([...new Set(r.ids.map(topOf))]), () => {})
          .finally(cleanup);
        return;
      }
      sync.call('move', { ids, dx, dy }).finally(cleanup);
    },
    cancel() {
      committing = true;
      cleanup();
    },
  };
}

// ---- resize and rotate -------------------------------------------------------------

/** A connector end that is a point on the board, not an object. */
const freeEnd = (end) => end && typeof end === 'object';

/** Does a connector have points of its own (a free end, a bend) for handles to carry? */
function hasOwnPoints(obj) {
  return freeEnd(obj.from) || freeEnd(obj.to) || obj.waypoints?.length > 0;
}

/**
 * The objects that handles resize and turn for a selection: groups stand for their
 * members (all the way down); shapes, images and ink strokes take part, and so do
 * connectors with points of their own (free ends, bends), which are carried with
 * the rest; a connector attached at both ends with no bends follows its ends and is
 * left out. Null when there are none. (A lone selected connector has handles of
 * its own, for its ends and bends: selection.js, bends.js.)
 */
export function transformable(ids) {
  const out = [];
  const seen = new Set();
  const stack = [...ids].reverse();
  while (stack.length) {
    const id = stack.pop();
    if (seen.has(id)) continue;
    seen.add(id);
    const obj = state.objects.get(id);
    if (!obj) continue;
    if (obj.type === 'group') stack.push(...[...membersOf(obj)].reverse());
    else if (hasBox(obj) || (obj.type === 'ink' && obj.points?.length)) out.push(id);
    else if (obj.type === 'connector' && hasOwnPoints(obj)) out.push(id);
  }
  return out.length ? out : null;
}

/**
 * The box the handles of `leaves` stand on, and its turn: one shape's or image's
 * own box and rotation, or the (unturned) box around the drawing of the rest.
 */
export function handleFrame(leaves) {
  if (leaves.length === 1 && hasBox(state.objects.get(leaves[0]))) {
    const obj = state.objects.get(leaves[0]);
    return { box: { x: obj.x, y: obj.y, w: obj.w, h: obj.h }, deg: rotationOf(obj) };
  }
  let box = null;
  for (const id of leaves) box = union(box, boundsOf(id));
  return { box, deg: 0 };
}

/** Rounds degrees to hundredths, as files keep them. */
const roundDeg = (d) => Math.round(normDeg(d) * 100) / 100;

/** Rounds a point of a stroke or a connector to hundredths, as files keep them. */
const roundPoint = (p) => ({ x: Math.round(p.x * 100) / 100, y: Math.round(p.y * 100) / 100 });

/**
 * The points of a leaf without a box of its own that handles carry, as `{x, y}`:
 * an ink stroke's points, a connector's free ends and bends.
 */
function ownPoints(obj) {
  if (obj.type === 'ink') return { points: obj.points.map(([x, y]) => ({ x, y })) };
  return {
    from: freeEnd(obj.from) ? { x: obj.from.x, y: obj.from.y } : null,
    to: freeEnd(obj.to) ? { x: obj.to.x, y: obj.to.y } : null,
    waypoints: (obj.waypoints ?? []).map(([x, y]) => ({ x, y })),
  };
}

/**
 * The `update` that puts a stroke's or a connector's points where `map` takes
 * them, and the line through them for a ghost (a connector's attached ends stay
 * out of it: they follow their objects).
 */
function pointsUpdate(id, own, map) {
  if (own.points) {
    const points = own.points.map((p) => roundPoint(map(p)));
    return { args: { id, points: points.map((p) => [p.x, p.y]) }, line: points };
  }
  const args = { id };
  const from = own.from && roundPoint(map(own.from));
  const to = own.to && roundPoint(map(own.to));
  const waypoints = own.waypoints.map((p) => roundPoint(map(p)));
  if (from) args.from = from;
  if (to) args.to = to;
  if (waypoints.length) args.waypoints = waypoints.map((p) => [p.x, p.y]);
  return { args, line: [from, ...waypoints, to].filter(Boolean) };
}

/** One `update` call, or a batch of them: one transaction, one undo step. */
function updates(ops) {
  if (ops.length === 1) return ['update', ops[0]];
  return ['batch', { operations: ops.map((args) => ({ tool: 'update', args })) }];
}

export function startResize(e, handle, ids) {
  const leaves = transformable(ids) ?? [];
  const { box, deg } = handleFrame(leaves);
  const items = leaves.map((id) => {
    const o = state.objects.get(id);
    if (!hasBox(o)) return { id, own: ownPoints(o) };
    return { id, b: { x: o.x, y: o.y, w: o.w, h: o.h }, deg: rotationOf(o) };
  });
  const targets = snapTargets(movingSet(ids));
  const keepRatio = leaves.length === 1 && state.objects.get(leaves[0]).type === 'image';
  let changes = null;
  const drag = dragFrom(e, (msg) => showPreview(msg.items));
  const c0 = center(box);

  const request = () => updates(changes.map(({ args }) => args));

  const draw = (nb) => {
    layers.draft.replaceChildren();
    for (const { r, deg: d, line } of changes) {
      if (line) {
        const points = line.map((p) => `${p.x},${p.y}`).join(' ');
        if (line.length > 1) svgEl('polyline', { class: 'resize-ghost', points }, layers.draft);
        continue;
      }
      const points = cornersOf(r, d).map((p) => `${p.x},${p.y}`).join(' ');
      svgEl('polygon', { class: 'resize-ghost', points }, layers.draft);
    }
    if (changes.length > 1) svgEl('rect', { class: 'resize-ghost all', ...rectAttrs(nb) }, layers.draft);
  };

  const cleanup = () => {
    drag.end();
    layers.draft.replaceChildren();
    layers.selection.style.display = '';
  };

  return {
    move(ev) {
      // The travel in the box's own (unturned) frame: a turned object's handles
      // pull along its own sides.
      const t = drag.travel(ev);
      const { x: dx, y: dy } = rotatePoint(t, -deg, { x: 0, y: 0 });
      let x0 = box.x, y0 = box.y, x1 = box.x + box.w, y1 = box.y + box.h;
      if (handle.includes('w')) x0 += dx;
      if (handle.includes('e')) x1 += dx;
      if (handle.includes('n')) y0 += dy;
      if (handle.includes('s')) y1 += dy;
      if (!ev.altKey && !deg) {
        const which = {
          x: handle.includes('w') ? ['start'] : handle.includes('e') ? ['end'] : [],
          y: handle.includes('n') ? ['start'] : handle.includes('s') ? ['end'] : [],
        };
        const s = snap({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 }, targets, which);
        if (handle.includes('w')) x0 += s.dx;
        if (handle.includes('e')) x1 += s.dx;
        if (handle.includes('n')) y0 += s.dy;
        if (handle.includes('s')) y1 += s.dy;
        drawGuides(s.guides);
      } else clearGuides();
      // Only the sides the handle pulls are held to the least size: a thin box (a
      // level ink stroke) keeps its other extent.
      const min = 8;
      const across = handle.includes('w') || handle.includes('e');
      const down = handle.includes('n') || handle.includes('s');
      if (across && x1 - x0 < min) (handle.includes('w') ? (x0 = x1 - min) : (x1 = x0 + min));
      if (down && y1 - y0 < min) (handle.includes('n') ? (y0 = y1 - min) : (y1 = y0 + min));
      const corner = handle.length === 2;
      if (corner && (ev.shiftKey || keepRatio)) {
        const s = Math.max((x1 - x0) / box.w, (y1 - y0) / box.h);
        const w = box.w * s;
        const h = box.h * s;
        if (handle.includes('w')) x0 = x1 - w; else x1 = x0 + w;
        if (handle.includes('n')) y0 = y1 - h; else y1 = y0 + h;
      }
      const z = getView().zoom;
      let nb = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
      if (deg) {
        // The new box's centre, turned about the old one: the side or corner
        // opposite the handle stays where it is on the page.
        const m = rotatePoint(center(nb), deg, c0);
        nb = { x: m.x - nb.w / 2, y: m.y - nb.h / 2, w: nb.w, h: nb.h };
      }
      const sx = nb.w / box.w;
      const sy = nb.h / box.h;
      // Every point keeps its place in the box: a stroke's points and a
      // connector's own points go there, and each boxed object's centre.
      const place = (p) => ({ x: nb.x + (p.x - box.x) * sx, y: nb.y + (p.y - box.y) * sy });
      changes = items.map(({ id, b, deg: d, own }) => {
        if (own) return pointsUpdate(id, own, place);
        // A turned shape keeps its turn; alone, it fills the new box.
        const nc = leaves.length === 1 ? center(nb) : place(center(b));
        const w = Math.max(1, snapNumber(b.w * sx, z));
        const h = Math.max(1, snapNumber(b.h * sy, z));
        const r = { x: snapNumber(nc.x - w / 2, z), y: snapNumber(nc.y - h / 2, z), w, h };
        return { deg: d, r, args: { id, ...r } };
      });
      layers.selection.style.display = 'none';
      draw(nb);
      // The server previews one tool call, not a batch: several objects show ghosts only.
      if (changes.length === 1) drag.previews.want(...request());
    },
    up() {
      drag.release();
      if (!changes) {
        cleanup();
        return;
      }
      sync.call(...request()).finally(cleanup);
    },
    cancel: cleanup,
  };
}

/** The angle of `p` about `c`, in degrees, clockwise from straight up. */
function bearing(p, c) {
  return (Math.atan2(p.y - c.y, p.x - c.x) * 180) / Math.PI + 90;
}

/**
 * Turning by the round handle: one shape or image about its centre, anything else
 * (several objects, a group, an ink stroke) about the centre of the box around
 * it, each keeping its place in the turned whole: a boxed object's centre moves
 * and its rotation grows, an ink stroke's points and a connector's free ends and
 * bends are turned themselves (they have no rotation). Shift snaps to 15°: one
 * object's angle, several objects' turn. Shown by turning the drawn objects; one
 * call (an `update`, or a batch of them) on release.
 */
export function startRotate(e, ids) {
  const leaves = transformable(ids) ?? [];
  const { box } = handleFrame(leaves);
  const pivot = center(box);
  const lone = leaves.length === 1 ? state.objects.get(leaves[0]) : null;
  const single = lone && hasBox(lone) ? lone : null;
  const from = bearing(toBoard(e.clientX, e.clientY), pivot);
  // A frame carries what it holds: the server turns that along (`update`), so it
  // turns in the preview and is not sent again.
  const carried = new Set();
  for (const f of leaves.filter((id) => state.objects.get(id)?.geom === 'frame')) {
    for (const id of movingSet([f], { moving: true })) if (id !== f) carried.add(id);
  }
  const sent = leaves.filter((id) => !carried.has(id));
  const shown = [...new Set([...leaves, ...carried])];
  // Connectors are routed again by the server; those with points of their own
  // that turn (leaves) are shown turning.
  const turnsDrawn = (id) => state.objects.get(id)?.type !== 'connector' || leaves.includes(id);
  let turn = 0;

  const apply = () => {
    const t = turn ? `rotate(${turn} ${pivot.x} ${pivot.y})` : '';
    for (const id of shown) {
      const el = elementOf(id);
      if (el && turnsDrawn(id)) {
        if (t) el.setAttribute('transform', t); else el.removeAttribute('transform');
      }
    }
    if (t) layers.selection.setAttribute('transform', t);
    else layers.selection.removeAttribute('transform');
  };
  const cleanup = () => {
    turn = 0;
    apply();
  };
  let committing = false;
  const offScene = on('scene', () => {
    if (committing) cleanup();
  });

  return {
    move(ev) {
      let t = bearing(toBoard(ev.clientX, ev.clientY), pivot) - from;
      if (ev.shiftKey) {
        if (single) {
          const start = rotationOf(single);
          t = Math.round((start + t) / 15) * 15 - start;
        } else t = Math.round(t / 15) * 15;
      }
      turn = Math.round(normDeg(t) * 100) / 100;
      apply();
    },
    up() {
      committing = true;
      if (!turn) {
        offScene();
        cleanup();
        return;
      }
      const z = getView().zoom;
      const about = (p) => rotatePoint(p, turn, pivot);
      const ops = sent.map((id) => {
        const o = state.objects.get(id);
        if (!hasBox(o)) return pointsUpdate(id, ownPoints(o), about).args;
        const rotation = roundDeg(rotationOf(o) + turn);
        if (single) return { id, rotation };
        const c = about(center(o));
        return { id, x: snapNumber(c.x - o.w / 2, z), y: snapNumber(c.y - o.h / 2, z), rotation };
      });
      sync.call(...updates(ops)).finally(() => {
        offScene();
        cleanup();
      });
    },
    cancel() {
      offScene();
      cleanup();
    },
  };
}

// ---- connector ends -----------------------------------------------------------------

/** The two ends of a connector as drawn: first and last point of its line. */
export function connectorEnds(id) {
  const path = elementOf(id)?.querySelector('path');
  if (!path) return null;
  const len = path.getTotalLength();
  const a = path.getPointAtLength(0);
  const b = path.getPointAtLength(len);
  return { from: { x: a.x, y: a.y }, to: { x: b.x, y: b.y } };
}

export const attachable = (obj) => obj.type === 'shape' || obj.type === 'image';

/** Outlines objects as connector targets (null ids are skipped; none clears the outlines). */
export function showTarget(...ids) {
  layers.hover.replaceChildren();
  for (const id of ids) {
    const b = id && boundsOf(id);
    if (b) svgEl('rect', { class: 'target', x: b.x - 3, y: b.y - 3, width: b.w + 6, height: b.h + 6, rx: 4 }, layers.hover);
  }
}

export function startEndpoint(e, id, which) {
  const ends = connectorEnds(id);
  const fixed = which === 'from' ? ends?.to : ends?.from;
  const obj = state.objects.get(id);
  const other = which === 'from' ? obj.to : obj.from;
  let target = null;
  let point = toBoard(e.clientX, e.clientY);
  const line = svgEl('line', { class: 'draft-line' }, layers.draft);
  const cleanup = () => {
    layers.draft.replaceChildren();
    showTarget(null);
  };
  return {
    move(ev) {
      point = toBoard(ev.clientX, ev.clientY);
      target = hitTest(ev.clientX, ev.clientY, { groups: false, accept: attachable, locked: true });
      if (target === other) target = null;
      showTarget(target);
      if (fixed) setAttrs(line, { x1: fixed.x, y1: fixed.y, x2: point.x, y2: point.y });
    },
    up() {
      const z = getView().zoom;
      const end = target ?? { x: snapNumber(point.x, z), y: snapNumber(point.y, z) };
      sync.call('update', { id, [which]: end }).finally(cleanup);
    },
    cancel: cleanup,
  };
}
