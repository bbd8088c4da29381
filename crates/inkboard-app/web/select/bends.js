// bends.js: a selected connector's bends and label, dragged by hand. An orthogonal
// connector shows a handle on the middle of each leg; dragging it moves the leg
// across itself, so the route stays square. A straight or curved one shows a
// handle on each bend and one on the middle of each stretch, which adds a bend
// there. The label's handle (a diamond beside it) slides the label along the line. Each drag sends ONE
// `update` (waypoints: every corner of the drawn route; or label_at: the fraction
// of the line), so it is one undo step. A double-click on a bend handle, or "Reset
// route" in the right-click menu, gives the route back to the router.
//
// The handles are read off the renderer's own drawing of the line (its path), so
// they sit where the server drew it ("one look"), and the route drawn after the
// call is the server's too.

import { state } from '../sync/state.js';
import { layers, svgEl, setAttrs, toBoard, elementOf, getView } from '../canvas/canvas.js';
import { snapNumber } from '../canvas/geom.js';
import * as sync from '../sync/sync.js';

/** Shorter legs (in screen pixels) get no handle: it would hide the corner. */
const MIN_LEG = 14;

const isOrthogonal = (obj) => !obj.route || obj.route === 'orthogonal';

/** Is this `data-handle` one of ours? */
export const isBendHandle = (h) => typeof h === 'string' && /^(seg|bend|add):\d+$|^label$/.test(h);

/** The drawn line of connector `id`: its path element and the ends of its pieces. */
function drawnLine(id) {
  const path = elementOf(id)?.querySelector('path');
  if (!path) return null;
  const nums = (path.getAttribute('d') ?? '').match(/[MLC]|-?[\d.]+(?:e-?\d+)?/g) ?? [];
  const points = [];
  let cmd = null;
  let args = [];
  for (const t of nums) {
    if (/[MLC]/.test(t)) {
      cmd = t;
      args = [];
      continue;
    }
    args.push(Number(t));
    const need = cmd === 'C' ? 6 : 2;
    if (args.length === need) {
      points.push({ x: args[need - 2], y: args[need - 1] });
      args = [];
    }
  }
  return { path, points };
}

/** Draws the bend and label handles of selected connector `id` into `g`; `s` is the handle size. */
export function drawBendHandles(id, g, s) {
  const obj = state.objects.get(id);
  const line = drawnLine(id);
  if (!obj || !line || line.points.length < 2) return;
  const z = getView().zoom;
  const pts = line.points;
  const handle = (p, name, cls) => svgEl('rect', {
    class: `handle bend ${cls}`, x: p.x - s / 2, y: p.y - s / 2, width: s, height: s, rx: s / 2,
    'data-handle': name, 'data-testid': `handle-${name.replace(':', '-')}`,
  }, g);
  // An elbow connector between two free points is drawn straight: it bends like one.
  const square = pts.every((p, i) => i === 0
    || Math.abs(p.x - pts[i - 1].x) < 0.5 || Math.abs(p.y - pts[i - 1].y) < 0.5);
  if (isOrthogonal(obj) && square) {
    for (let i = 0; i + 1 < pts.length; i++) {
      const [a, b] = [pts[i], pts[i + 1]];
      if (Math.hypot(b.x - a.x, b.y - a.y) * z < MIN_LEG) continue;
      const horizontal = Math.abs(a.y - b.y) < 0.5;
      handle({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, `seg:${i}`, horizontal ? 'ns' : 'ew');
    }
  } else {
    const wps = obj.waypoints ?? [];
    wps.forEach(([x, y], i) => handle({ x, y }, `bend:${i}`, 'move'));
    const stops = [pts[0], ...wps.map(([x, y]) => ({ x, y })), pts[pts.length - 1]];
    for (let i = 0; i + 1 < stops.length; i++) {
      const [a, b] = [stops[i], stops[i + 1]];
      if (Math.hypot(b.x - a.x, b.y - a.y) * z < 3 * MIN_LEG) continue;
      // A curve without bends bows away from its chord: its handle sits on it.
      const onCurve = stops.length === 2 && line.path.getPointAtLength(line.path.getTotalLength() / 2);
      handle(onCurve ? { x: onCurve.x, y: onCurve.y } : { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }, `add:${i}`, 'add');
    }
  }
  const label = labelHandle(id, s);
  if (label) {
    svgEl('rect', {
      class: 'handle bend label', x: label.x - s * 0.6, y: label.y - s * 0.6, width: s * 1.2,
      height: s * 1.2, transform: `rotate(45 ${label.x} ${label.y})`,
      'data-handle': 'label', 'data-testid': 'handle-label',
    }, g);
  }
}

/**
 * Where the label's handle sits: just right of its text, so that it does not
 * cover the handle of the leg the label sits on (the middle of the longest leg).
 */
function labelHandle(id, s) {
  const box = labelBox(id);
  return box && { x: box.x1 + s * 1.2, y: (box.y0 + box.y1) / 2 };
}

/** The middle of a connector's label as drawn, or null without one. */
function labelCentre(id) {
  const box = labelBox(id);
  return box && { x: (box.x0 + box.x1) / 2, y: (box.y0 + box.y1) / 2 };
}

/** The box of a connector's label text as drawn, or null without one. */
function labelBox(id) {
  // The label's own text: end labels (`data-end`) are not it.
  const texts = elementOf(id)?.querySelectorAll('text:not([data-end])');
  if (!texts?.length) return null;
  let box = null;
  for (const t of texts) {
    const b = t.getBBox();
    box = box
      ? { x0: Math.min(box.x0, b.x), y0: Math.min(box.y0, b.y), x1: Math.max(box.x1, b.x + b.width), y1: Math.max(box.y1, b.y + b.height) }
      : { x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height };
  }
  return box;
}

/** Drops the middle one of three points in a row on one line, and repeats. */
function squareUp(points) {
  const out = [];
  for (const p of points) {
    const q = out[out.length - 1];
    if (q && Math.abs(q.x - p.x) < 0.01 && Math.abs(q.y - p.y) < 0.01) continue;
    if (out.length >= 2) {
      const a = out[out.length - 2];
      const straight = (Math.abs(a.x - q.x) < 0.01 && Math.abs(q.x - p.x) < 0.01)
        || (Math.abs(a.y - q.y) < 0.01 && Math.abs(q.y - p.y) < 0.01);
      const onward = (q.x - a.x) * (p.x - q.x) + (q.y - a.y) * (p.y - q.y) >= 0;
      if (straight && onward) out.pop();
    }
    out.push(p);
  }
  return out;
}

/** Whether the press `e` is on the label of connector `id`, as drawn: the label
 * itself is dragged along the line, as in draw.io and tldraw. */
export function onLabel(e, id) {
  const g = elementOf(id);
  return !!g && document.elementsFromPoint(e.clientX, e.clientY)
    .some((el) => el.tagName === 'text' && !el.dataset.end && g.contains(el));
}

/** Starts dragging handle `name` of connector `id` (the select tool's press). */
export function startBend(e, id, name) {
  if (name === 'label') return labelDrag(e, id);
  const obj = state.objects.get(id);
  const line = drawnLine(id);
  const start = toBoard(e.clientX, e.clientY);
  const draft = svgEl('polyline', { class: 'draft-line bend-draft', fill: 'none' }, layers.draft);
  const [kind, n] = name.split(':');
  const i = Number(n);
  const pts = line?.points ?? [];
  let waypoints = null;
  const cleanup = () => draft.remove();

  const orthogonal = (d) => {
    // The leg from pts[i] to pts[i + 1] moves across itself, its ends with it; the
    // corners of the drawn route become the waypoints. A leg on an end moves
    // that end along its side: the moved end is a waypoint too, which the
    // route reaches straight from the side.
    const [a, b] = [pts[i], pts[i + 1]];
    const horizontal = Math.abs(a.y - b.y) < 0.5;
    const moved = pts.map((p, k) => (k === i || k === i + 1
      ? (horizontal ? { x: p.x, y: p.y + d.y } : { x: p.x + d.x, y: p.y })
      : p));
    const squared = squareUp(moved);
    const inner = squared.slice(1, -1);
    if (i === 0) inner.unshift(squared[0]);
    if (i + 1 === pts.length - 1) inner.push(squared[squared.length - 1]);
    return { draw: squared, waypoints: inner };
  };

  const bent = (p) => {
    const wps = (obj.waypoints ?? []).map(([x, y]) => ({ x, y }));
    if (kind === 'bend') wps[i] = p;
    else wps.splice(i, 0, p);
    return { draw: [pts[0], ...wps, pts[pts.length - 1]], waypoints: wps };
  };

  return {
    move(ev) {
      const p = toBoard(ev.clientX, ev.clientY);
      const z = getView().zoom;
      const d = { x: snapNumber(p.x - start.x, z), y: snapNumber(p.y - start.y, z) };
      const at = { x: snapNumber(p.x, z), y: snapNumber(p.y, z) };
      const r = kind === 'seg' ? orthogonal(d) : bent(at);
      waypoints = r.waypoints;
      setAttrs(draft, { points: r.draw.map((q) => `${q.x},${q.y}`).join(' ') });
    },
    up() {
      if (!waypoints) {
        cleanup();
        return;
      }
      const round = (v) => Math.round(v * 100) / 100;
      sync.call('update', { id, waypoints: waypoints.map((q) => [round(q.x), round(q.y)]) })
        .catch(() => {})
        .finally(cleanup);
    },
    cancel: cleanup,
  };
}

/** Slides the label of connector `id` along its drawn line. */
function labelDrag(e, id) {
  const line = drawnLine(id);
  // The label's middle follows the pointer, held where it was pressed from it.
  const press = toBoard(e.clientX, e.clientY);
  const centre = labelCentre(id) ?? press;
  const held = { x: press.x - centre.x, y: press.y - centre.y };
  const mark = svgEl('circle', { class: 'bend-draft label-draft', r: 5 / getView().zoom }, layers.draft);
  let at = null;
  const cleanup = () => mark.remove();
  return {
    move(ev) {
      if (!line) return;
      const q = toBoard(ev.clientX, ev.clientY);
      const { t, point } = nearestOnPath(line.path, { x: q.x - held.x, y: q.y - held.y });
      at = Math.round(t * 10000) / 10000;
      setAttrs(mark, { cx: point.x, cy: point.y });
    },
    up() {
      if (at === null) {
        cleanup();
        return;
      }
      sync.call('update', { id, label_at: at }).catch(() => {}).finally(cleanup);
    },
    cancel: cleanup,
  };
}

/** The point of `path` nearest `p`, and its fraction of the path's length. */
function nearestOnPath(path, p) {
  const total = path.getTotalLength();
  if (!(total > 0)) return { t: 0.5, point: path.getPointAtLength(0) };
  const dist = (s) => {
    const q = path.getPointAtLength(s);
    return (q.x - p.x) ** 2 + (q.y - p.y) ** 2;
  };
  const steps = 200;
  let best = 0;
  for (let k = 1; k <= steps; k++) {
    if (dist((k / steps) * total) < dist(best)) best = (k / steps) * total;
  }
  // Refined by halving around the best sample.
  let span = total / steps;
  while (span > 0.25) {
    span /= 2;
    for (const s of [best - span, best + span]) {
      if (s >= 0 && s <= total && dist(s) < dist(best)) best = s;
    }
  }
  const q = path.getPointAtLength(best);
  return { t: best / total, point: { x: q.x, y: q.y } };
}

/** Does connector `id` have bends or a label place to reset? */
export function hasOwnRoute(id) {
  const obj = state.objects.get(id);
  return obj?.type === 'connector' && (obj.waypoints?.length > 0 || obj.label_at !== undefined);
}

/** Gives connector `id`'s route and label back to the router: one `update`. */
export function resetRoute(id) {
  return sync.call('update', { id, waypoints: [], label_at: null }).catch(() => {});
}

/** A double-click on a bend handle resets the route, before text editing sees it. */
export function initBends(container) {
  container.addEventListener('dblclick', (e) => {
    // The board captures the pointer on press, so the event's target is the board:
    // the handle is found under the pointer.
    const under = document.elementsFromPoint(e.clientX, e.clientY);
    const name = under.find((el) => el.dataset?.handle)?.dataset.handle;
    if (!isBendHandle(name) || name === 'label') return;
    const ids = [...state.selection];
    if (ids.length !== 1) return;
    e.stopPropagation();
    resetRoute(ids[0]);
  }, true);
}
