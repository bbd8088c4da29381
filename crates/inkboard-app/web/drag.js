// drag.js: the drags of the select tool. Moving (snapped, with guides; connectors
// follow through server previews; with Alt, a copy moves and the originals stay:
// one `duplicate`), resizing by a handle, and re-attaching a connector's end. Each shows a local preview and sends ONE call on release, so a
// drag is one undo step.

import { state, on, membersOf, select, topOf } from './state.js';
import { hasBox, union, contains, snapNumber } from './geom.js';
import * as sync from './sync.js';
import {
  layers, svgEl, setAttrs, rectAttrs, toBoard, boundsOf, elementOf, showPreview, clearPreview, getView,
} from './canvas.js';
import { hitTest } from './hittest.js';
import { snapTargets, snap, drawGuides, clearGuides } from './snap.js';

/** The objects that move with `ids`: group members and what lies in moved frames. */
export function movingSet(ids) {
  const out = new Set();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop();
    if (out.has(id)) continue;
    const obj = state.objects.get(id);
    if (!obj) continue;
    out.add(id);
    stack.push(...membersOf(obj));
    if (obj.type === 'shape' && obj.geom === 'frame') {
      for (const other of state.order) {
        if (other === id || out.has(other)) continue;
        const o = state.objects.get(other);
        if (o.type === 'connector') continue;
        const b = boundsOf(other);
        if (b && contains(obj, b)) stack.push(other);
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
  const rigid = movingSet(ids);
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

// ---- resize ---------------------------------------------------------------------

/** Can these objects be resized by handles (shapes and images only)? */
export function resizable(ids) {
  return ids.length > 0 && ids.every((id) => hasBox(state.objects.get(id)));
}

export function startResize(e, handle, ids) {
  const items = ids.map((id) => ({ id, b: boundsOf(id) }));
  let box = null;
  for (const it of items) box = union(box, it.b);
  const targets = snapTargets(new Set(ids));
  const keepRatio = ids.length === 1 && state.objects.get(ids[0]).type === 'image';
  let rects = null;
  const drag = dragFrom(e, (msg) => showPreview(msg.items));

  const request = () => {
    if (rects.length === 1) {
      const { id, r } = rects[0];
      return ['update', { id, x: r.x, y: r.y, w: r.w, h: r.h }];
    }
    return ['batch', {
      operations: rects.map(({ id, r }) => ({ tool: 'update', args: { id, x: r.x, y: r.y, w: r.w, h: r.h } })),
    }];
  };

  const draw = (nb) => {
    layers.draft.replaceChildren();
    for (const { r } of rects) svgEl('rect', { class: 'resize-ghost', ...rectAttrs(r) }, layers.draft);
    if (rects.length > 1) svgEl('rect', { class: 'resize-ghost all', ...rectAttrs(nb) }, layers.draft);
  };

  const cleanup = () => {
    drag.end();
    layers.draft.replaceChildren();
    layers.selection.style.display = '';
  };

  return {
    move(ev) {
      const { x: dx, y: dy } = drag.travel(ev);
      let x0 = box.x, y0 = box.y, x1 = box.x + box.w, y1 = box.y + box.h;
      if (handle.includes('w')) x0 += dx;
      if (handle.includes('e')) x1 += dx;
      if (handle.includes('n')) y0 += dy;
      if (handle.includes('s')) y1 += dy;
      if (!ev.altKey) {
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
      }
      const min = 8;
      if (x1 - x0 < min) (handle.includes('w') ? (x0 = x1 - min) : (x1 = x0 + min));
      if (y1 - y0 < min) (handle.includes('n') ? (y0 = y1 - min) : (y1 = y0 + min));
      const corner = handle.length === 2;
      if (corner && (ev.shiftKey || keepRatio)) {
        const s = Math.max((x1 - x0) / box.w, (y1 - y0) / box.h);
        const w = box.w * s;
        const h = box.h * s;
        if (handle.includes('w')) x0 = x1 - w; else x1 = x0 + w;
        if (handle.includes('n')) y0 = y1 - h; else y1 = y0 + h;
      }
      const z = getView().zoom;
      const nb = { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
      const sx = nb.w / box.w;
      const sy = nb.h / box.h;
      rects = items.map(({ id, b }) => {
        const x = snapNumber(nb.x + (b.x - box.x) * sx, z);
        const y = snapNumber(nb.y + (b.y - box.y) * sy, z);
        const w = Math.max(1, snapNumber(b.w * sx, z));
        const h = Math.max(1, snapNumber(b.h * sy, z));
        return { id, r: { x, y, w, h } };
      });
      layers.selection.style.display = 'none';
      draw(nb);
      // The server previews one tool call, not a batch: several objects show ghosts only.
      if (rects.length === 1) drag.previews.want(...request());
    },
    up() {
      drag.release();
      if (!rects) {
        cleanup();
        return;
      }
      const [tool, args] = request();
      sync.call(tool, args).finally(cleanup);
    },
    cancel: cleanup,
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
      target = hitTest(ev.clientX, ev.clientY, { groups: false, accept: attachable });
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
