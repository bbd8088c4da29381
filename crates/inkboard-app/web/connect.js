// connect.js: connecting from Select mode, as in draw.io and tldraw. Hovering a
// shape or image (not a selected one, which has its resize handles) shows a round handle beyond the middle of each of its sides;
// dragging one draws a connector from that object: dropped on another object it
// connects the two, dropped on empty board it offers a small shape picker there,
// whose choice adds the shape and the connector to it in one call (one undo step).

import { state, select } from './state.js';
import { center, rotationOf, rotatePoint, snapNumber, defaultSize } from './geom.js';
import * as sync from './sync.js';
import { layers, svgEl, setAttrs, toBoard, getView, toContainer } from './canvas.js';
import { hitTest } from './hittest.js';
import { attachable, showTarget } from './drag.js';

const SIDES = ['top', 'right', 'bottom', 'left'];
const REACH = 16; // screen pixels from a side to its handle
const KEEP = 28; // screen pixels around the object within which the handles stay
const PICKS = ['rect', 'rounded', 'ellipse', 'diamond', 'note'];

let shown = null; // the id whose handles are drawn
let picker = null; // the open shape picker, if any

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

function draw(id) {
  clear();
  const obj = state.objects.get(id);
  shown = id;
  const s = 6 / getView().zoom;
  for (const side of SIDES) {
    const p = handlePoint(obj, side);
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
      cleanup();
      // Dropped close to where it started: no connector.
      if (Math.hypot(q.x - a.x, q.y - a.y) * getView().zoom < 12) return;
      openPicker(from, q);
    },
    cancel: cleanup,
  };
}

/** The small picker of shapes to add, connected, at board point `at`. */
function openPicker(from, at) {
  closePicker();
  const c = toContainer(at.x, at.y);
  const el = document.createElement('div');
  el.className = 'link-picker';
  el.dataset.testid = 'link-picker';
  el.style.left = `${c.x}px`;
  el.style.top = `${c.y}px`;
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
  const away = (e) => {
    if (!el.contains(e.target)) closePicker();
  };
  const esc = (e) => e.key === 'Escape' && closePicker();
  // Next turn: the release that opened it is not a press elsewhere.
  setTimeout(() => {
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('keydown', esc, true);
  });
  picker = { el, off: () => {
    document.removeEventListener('pointerdown', away, true);
    document.removeEventListener('keydown', esc, true);
  } };
}

function closePicker() {
  if (!picker) return;
  picker.off();
  picker.el.remove();
  picker = null;
}
