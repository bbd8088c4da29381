// connect.js: connecting from Select mode, as in draw.io and tldraw. Hovering a
// shape or image (not a selected one, which has its resize handles) shows a round handle beyond the middle of each of its sides;
// dragging one draws a connector from that object: dropped on another object it
// connects the two, dropped on empty board it offers a small shape picker there,
// whose choice adds the shape and the connector to it in one call (one undo step).
// The handles follow what is under the pointer: a press hides them, and after a
// change (a drag, a paste, an agent's move), a new selection or a zoom they are
// shown again for what is there then, never at an object's old place. A side where
// a connector's line arrives gets no handle: it would cover the arrowhead. While
// the picker is open, the pending connector stays drawn to where it was dropped,
// the picker beside its end, beyond it, so it hides neither.

import { state, select, on } from '../sync/state.js';
import { center, rotationOf, rotatePoint, snapNumber, defaultSize } from '../canvas/geom.js';
import * as sync from '../sync/sync.js';
import {
  layers, svgEl, setAttrs, toBoard, getView, toContainer, shownElement,
} from '../canvas/canvas.js';
import { hitTest } from '../canvas/hittest.js';
import { attachable, showTarget } from './drag.js';
import { drawnLine, polylineDistance } from '../canvas/lines.js';

const SIDES = ['top', 'right', 'bottom', 'left'];
const REACH = 16; // screen pixels from a side to its handle
const KEEP = 28; // screen pixels around the object within which the handles stay
const PICKS = ['rect', 'rounded', 'ellipse', 'diamond', 'note'];

let shown = null; // the id whose handles are drawn
let picker = null; // the open shape picker, if any
/** The last hover's pointer (client point), to show the handles again after a change. */
let pointer = null;

/** Keeps the handles true to the board: see `refresh`; a board switch drops them and the picker. */
export function initLinks() {
  on('scene', refresh);
  on('selection', refresh);
  on('viewcommit', refresh);
  on('boardswitch', () => {
    clear();
    closePicker();
  });
}

/** Where the handle of `side` of object `obj` sits, in board units. */
function handlePoint(obj, side) {
  const c = center(obj);
  const r = REACH / getView().zoom;
  const local = {
    top: { x: c.x, y: obj.y - r }, bottom: { x: c.x, y: obj.y + obj.h + r },
    left: { x: obj.x - r, y: c.y }, right: { x: obj.x + obj.w + r, y: c.y },
  }[side];
  return rotatePoint(local, rotationOf(obj), c);
}

function clear() {
  if (shown === null) return;
  shown = null;
  for (const el of layers.hover.querySelectorAll('.link')) el.remove();
}

/** Whether a connector attached to object `id` draws its line within `reach` of `p`. */
function onALine(id, p, reach) {
  for (const obj of state.objects.values()) {
    if (obj.type !== 'connector' || (obj.from !== id && obj.to !== id)) continue;
    const line = drawnLine(obj, shownElement(obj.id));
    if (line && polylineDistance(p, line.polylines) <= reach + line.width / 2) return true;
  }
  return false;
}

function draw(id) {
  clear();
  const obj = state.objects.get(id);
  shown = id;
  const s = 6 / getView().zoom;
  for (const side of SIDES) {
    const p = handlePoint(obj, side);
    // An arrowhead (or the line) arriving there would be hidden under the handle.
    if (onALine(id, p, s + 4 / getView().zoom)) continue;
    svgEl('circle', {
      class: 'handle link', cx: p.x, cy: p.y, r: s,
      'data-link': side, 'data-testid': `link-${side}`,
    }, layers.hover);
  }
}

/** Is board point `p` near object `obj` (its turned box grown by KEEP px)? */
function near(obj, p) {
  const q = rotatePoint(p, -rotationOf(obj), center(obj));
  const pad = KEEP / getView().zoom;
  return q.x >= obj.x - pad && q.x <= obj.x + obj.w + pad && q.y >= obj.y - pad && q.y <= obj.y + obj.h + pad;
}

/** Select mode's hover: the handles of the attachable object under the pointer. */
export function hoverLinks(e) {
  pointer = { clientX: e.clientX, clientY: e.clientY };
  if (picker) return;
  const hit = hitTest(e.clientX, e.clientY, { groups: false, accept: attachable });
  // A selected object has its resize and rotate handles there instead.
  if (hit && state.selection.has(hit)) {
    clear();
    return;
  }
  if (hit) {
    if (hit !== shown) draw(hit);
    return;
  }
  const obj = shown && state.objects.get(shown);
  if (!obj || !near(obj, toBoard(e.clientX, e.clientY))) clear();
}

/** Hides the handles (a press that is not on one: a drag, a click). */
export function hideLinks() {
  clear();
}

/**
 * Shows the handles again for what is under the pointer now, after the board,
 * the selection or the zoom changed while they were shown: drawn from the
 * object's new place, or gone with it.
 */
function refresh() {
  if (shown === null || picker) return;
  const was = shown;
  clear();
  if (!pointer || state.tool !== 'select') return;
  const hit = hitTest(pointer.clientX, pointer.clientY, { groups: false, accept: attachable });
  if (hit) {
    if (!state.selection.has(hit)) draw(hit);
    return;
  }
  const obj = state.objects.get(was);
  if (obj && !state.selection.has(was) && near(obj, toBoard(pointer.clientX, pointer.clientY))) draw(was);
}

/** A press on a connection handle starts a connector drag (else null). */
export function startLink(e) {
  const side = e.target.closest?.('[data-link]')?.dataset.link;
  const from = shown;
  if (!side || !from || !state.objects.has(from)) return null;
  closePicker();
  const obj = state.objects.get(from);
  const a = handlePoint(obj, side);
  const line = svgEl('line', { class: 'draft-line', x1: a.x, y1: a.y, x2: a.x, y2: a.y }, layers.draft);
  let to = null;
  let q = a;
  clear();
  const cleanup = () => {
    line.remove();
    showTarget(null);
  };
  return {
    move(ev) {
      q = toBoard(ev.clientX, ev.clientY);
      to = hitTest(ev.clientX, ev.clientY, { groups: false, accept: attachable, locked: true });
      if (to === from) to = null;
      showTarget(from, to);
      const b = to ? center(state.objects.get(to)) : q;
      setAttrs(line, { x2: b.x, y2: b.y });
    },
    up() {
      if (to) {
        sync.call('add_connector', { from, to }).then((r) => r?.id && select([r.id]), () => {}).finally(cleanup);
        return;
      }
      showTarget(null);
      // Dropped close to where it started: no connector.
      if (Math.hypot(q.x - a.x, q.y - a.y) * getView().zoom < 12) {
        line.remove();
        return;
      }
      // The pending connector stays drawn while the picker is open.
      openPicker(from, a, q, line);
    },
    cancel: cleanup,
  };
}

/** Screen pixels between the pending connector's end and the picker. */
const PICKER_GAP = 14;

/**
 * Puts the picker `el` beside board point `at`, the end of a connector drawn from
 * `a`, on the far side from `a` along the line's main direction: it covers
 * neither the line nor its end.
 */
function placePicker(el, a, at) {
  const c = toContainer(at.x, at.y);
  const { width: w, height: h } = el.getBoundingClientRect();
  const dx = at.x - a.x;
  const dy = at.y - a.y;
  let x;
  let y;
  if (Math.abs(dx) > Math.abs(dy)) {
    x = dx > 0 ? c.x + PICKER_GAP : c.x - PICKER_GAP - w;
    y = c.y - h / 2;
  } else {
    x = c.x - w / 2;
    y = dy > 0 ? c.y + PICKER_GAP : c.y - PICKER_GAP - h;
  }
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
}

/**
 * The small picker of shapes to add, connected, at board point `at`, the end of
 * the pending connector `line` drawn from `a` (removed when the picker closes).
 */
function openPicker(from, a, at, line) {
  closePicker();
  const el = document.createElement('div');
  el.className = 'link-picker';
  el.dataset.testid = 'link-picker';
  for (const geom of PICKS) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link-pick';
    b.dataset.testid = `link-pick-${geom}`;
    b.title = geom;
    b.textContent = { rect: '▭', rounded: '▢', ellipse: '◯', diamond: '◇', note: '🗒' }[geom];
    b.addEventListener('pointerdown', (e) => e.stopPropagation());
    b.addEventListener('click', () => {
      closePicker();
      const [w, h] = defaultSize(geom);
      const z = getView().zoom;
      const x = snapNumber(at.x - w / 2, z);
      const y = snapNumber(at.y - h / 2, z);
      sync.call('batch', {
        operations: [
          { tool: 'add_shape', args: { geom, x, y, w, h } },
          { tool: 'add_connector', args: { from, to: '$0.id' } },
        ],
      }).then((r) => {
        const id = r?.results?.[0]?.id;
        if (id) select([id]);
      }, () => {});
    });
    el.append(b);
  }
  const container = layers.hover.ownerSVGElement.parentElement;
  container.append(el);
  placePicker(el, a, at);
  const away = (e) => {
    if (!el.contains(e.target)) closePicker();
  };
  const esc = (e) => e.key === 'Escape' && closePicker();
  // Next turn: the release that opened it is not a press elsewhere.
  setTimeout(() => {
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('keydown', esc, true);
  });
  picker = { el, line, off: () => {
    document.removeEventListener('pointerdown', away, true);
    document.removeEventListener('keydown', esc, true);
  } };
}

function closePicker() {
  if (!picker) return;
  picker.off();
  picker.el.remove();
  picker.line?.remove();
  picker = null;
}
