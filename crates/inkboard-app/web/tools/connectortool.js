// connectortool.js: the arrow (connector) and line tools, as Excalidraw draws
// them. A drag draws a connector from where it starts to where it ends (a shape
// under either end is attached to, empty board makes a free end). A click without
// a drag starts a connector with several points instead: each further click adds
// a point (Shift holds its leg to 15° steps), a click on a shape ends it attached
// there, and Enter, Escape or a double-click ends it at the last point. It is ONE
// connector bending at those points (`waypoints`), sent in one call (one undo
// step), drawn straight from point to point (curved when the remembered route is
// curved). The line tool is the same with no arrowheads and a straight route.

import { state } from '../sync/state.js';
import { center, snapNumber } from '../canvas/geom.js';
import { layers, svgEl, setAttrs, toBoard, boundsOf, getView } from '../canvas/canvas.js';
import { hitTest } from '../canvas/hittest.js';
import { attachable, showTarget } from '../select/drag.js';
import { styleArgs, remembered } from './stylememory.js';
import * as sync from '../sync/sync.js';

/** Screen pixels a press must travel to be a drag. */
const DRAG_START = 4;
/** A click this close (screen pixels) to the last point ends the connector: a double-click. */
const SAME_POINT = 5;

/**
 * A connector tool. `kind` names its style memory ('connector' or 'line'),
 * `defaults` the arguments every connector it draws starts from (a line's: no
 * heads, straight), and `done(id, name)` is called with the new connector's id.
 */
export function connectorTool({ name, kind, defaults = {}, done }) {
  let press = null; // a press in progress: {from, p, sx, sy, to, q, line}
  let poly = null; // a connector being clicked point by point: {from, start, points, to, line}

  const targetAt = (e) => hitTest(e.clientX, e.clientY, { groups: false, accept: attachable, locked: true });
  const endPoint = (id, p) => (id ? center(boundsOf(id)) : p);
  const pt = (q) => {
    const z = getView().zoom;
    return { x: snapNumber(q.x, z), y: snapNumber(q.y, z) };
  };

  /** The arguments of the new connector: the remembered style over the tool's defaults. */
  const args = (extra) => ({ ...defaults, ...styleArgs(kind), ...extra });

  const send = (a, cleanup) => {
    sync.call('add_connector', a).then((r) => {
      if (r?.id) done(r.id, name);
    }, () => {}).finally(cleanup);
  };

  /** Where the pointer puts the next point: Shift holds the leg from `last` to 15° steps. */
  const aim = (e, last) => {
    const q = toBoard(e.clientX, e.clientY);
    if (!e.shiftKey || !last) return q;
    const len = Math.hypot(q.x - last.x, q.y - last.y);
    const step = Math.PI / 12;
    const a = Math.round(Math.atan2(q.y - last.y, q.x - last.x) / step) * step;
    return { x: last.x + len * Math.cos(a), y: last.y + len * Math.sin(a) };
  };

  const drawPoly = (pointer) => {
    const to = poly.to ? endPoint(poly.to) : pointer;
    const all = [endPoint(poly.from, poly.start), ...poly.points, ...(to ? [to] : [])];
    setAttrs(poly.line, { points: all.map((p) => `${p.x},${p.y}`).join(' ') });
  };

  const endPoly = () => {
    const p = poly;
    poly = null;
    showTarget(null);
    if (!p) return;
    const points = [...p.points];
    let to = p.to;
    if (!to) to = points.pop();
    if (!to) {
      p.line.remove();
      return;
    }
    const route = remembered(kind).route === 'curved' ? 'curved' : 'straight';
    const extra = { from: p.from ?? p.start, to, route };
    if (points.length) extra.waypoints = points.map((q) => [q.x, q.y]);
    send(args(extra), () => p.line.remove());
  };

  return {
    name,
    hover(e) {
      if (poly) {
        poly.to = targetAt(e);
        if (poly.to === poly.from && !poly.points.length) poly.to = null;
        showTarget(poly.from, poly.to);
        drawPoly(poly.to ? null : aim(e, poly.points.at(-1) ?? poly.start));
        return;
      }
      showTarget(targetAt(e));
    },
    down(e) {
      if (poly) {
        press = { sx: e.clientX, sy: e.clientY, polyClick: true };
        return;
      }
      const from = targetAt(e);
      const p = toBoard(e.clientX, e.clientY);
      press = { from, p, sx: e.clientX, sy: e.clientY, to: null, q: p,
        line: svgEl('line', { class: 'draft-line' }, layers.draft) };
      showTarget(from);
    },
    move(e) {
      if (!press) return;
      if (press.polyClick) {
        this.hover(e);
        return;
      }
      press.q = toBoard(e.clientX, e.clientY);
      press.to = targetAt(e);
      if (press.to === press.from) press.to = null;
      showTarget(press.from, press.to);
      const a = endPoint(press.from, press.p);
      const b = endPoint(press.to, press.q);
      setAttrs(press.line, { x1: a.x, y1: a.y, x2: b.x, y2: b.y });
    },
    up(e) {
      const p = press;
      press = null;
      if (!p) return;
      if (p.polyClick) {
        const last = poly.points.at(-1) ?? poly.start;
        const target = targetAt(e);
        if (target && (target !== poly.from || poly.points.length)) {
          poly.to = target;
          endPoly();
          return;
        }
        const q = pt(aim(e, last));
        const z = getView().zoom;
        if (Math.hypot(q.x - last.x, q.y - last.y) * z < SAME_POINT) {
          // The second click of a double-click, or a click on the last point: done.
          poly.to = null;
          endPoly();
          return;
        }
        poly.points.push(q);
        drawPoly(q);
        return;
      }
      const far = Math.hypot(e.clientX - p.sx, e.clientY - p.sy) >= DRAG_START;
      if (!far && !p.to) {
        // A click: the first point of a connector drawn click by click.
        p.line.remove();
        poly = {
          from: p.from, start: p.from ? null : pt(p.p), points: [], to: null,
          line: svgEl('polyline', { class: 'draft-line', fill: 'none', 'data-testid': 'connector-draft' }, layers.draft),
        };
        if (p.from) poly.start = center(boundsOf(p.from));
        drawPoly(null);
        return;
      }
      send(args({ from: p.from ?? pt(p.p), to: p.to ?? pt(p.q) }), () => {
        p.line.remove();
        showTarget(null);
      });
    },
    cancel() {
      press?.line?.remove();
      press = null;
    },
    /** Whether a connector is being drawn click by click (Enter or Escape ends it). */
    pending() {
      return poly !== null;
    },
    /** Ends the connector being drawn click by click, at its last point. */
    finish() {
      if (poly) poly.to = null;
      endPoly();
    },
    /** Drops what is being drawn, sending nothing (the board was switched). */
    drop() {
      press?.line?.remove();
      press = null;
      poly?.line.remove();
      poly = null;
      showTarget(null);
    },
  };
}
