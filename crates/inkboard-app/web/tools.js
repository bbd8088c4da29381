// tools.js: the toolbar and the drawing tools. Routes the canvas's pointer events
// to the active tool: select (selection.js), hand, every geom of add_shape (click:
// default size centred on the click; drag: that rectangle), sticky note, text,
// frame, connector (drag from one shape to another; empty space makes a free end),
// pen (freehand ink), eraser (eraser.js) and image (file picker; drop and paste also
// work). The tooltips' names and keys come from shortcuts.js.

import { state, on, select, emit } from './state.js';
import { GEOMS, defaultSize, spanRect, snapNumber, center, containsPoint } from './geom.js';
import { layers, svgEl, setAttrs, rectAttrs, toBoard, boundsOf, getView } from './canvas.js';
import { hitTest } from './hittest.js';
import { selectTool } from './selection.js';
import { attachable, showTarget } from './drag.js';
import { startEdit, startNew, isEditing, finishEdit } from './textedit.js';
import { pickImages } from './images.js';
import { icon } from './icons.js';
import { eraserTool } from './eraser.js';
import { hint } from './shortcuts.js';
import { kindOf, styleArgs, remembered } from './stylememory.js';
import * as sync from './sync.js';

/** Names of the tools that have no key (those with one are named in shortcuts.js). */
const LABELS = {
  rounded: 'Rounded rectangle', triangle: 'Triangle', hexagon: 'Hexagon',
  parallelogram: 'Parallelogram', cylinder: 'Cylinder', cloud: 'Cloud', star: 'Star',
};
const GROUPS = [
  ['select', 'hand'],
  GEOMS.filter((g) => !['note', 'text', 'frame'].includes(g)),
  ['note', 'text', 'frame'],
  ['connector', 'pen', 'eraser', 'image'],
];

const DRAG_START = 4;
const tools = {};
let container;
let active = null; // pointer id of the press in progress
const buttons = new Map();

export function initTools(canvasEl, toolbar) {
  container = canvasEl;
  tools.select = selectTool;
  tools.hand = { name: 'hand', down() {}, move() {}, up() {}, cancel() {} };
  for (const g of GEOMS) tools[g] = g === 'text' ? textTool() : shapeTool(g);
  tools.connector = connectorTool();
  tools.pen = penTool();
  tools.eraser = eraserTool();
  buildToolbar(toolbar);

  container.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || active !== null) return;
    if (isEditing()) {
      finishEdit();
      if (state.tool === 'select' || state.tool === 'text') return;
    }
    container.setPointerCapture(e.pointerId);
    active = e.pointerId;
    current().down(e);
  });
  container.addEventListener('pointermove', (e) => {
    if (e.pointerId === active) {
      const events = e.getCoalescedEvents?.() ?? [];
      current().move(e, events.length ? events : [e]);
    } else if (active === null) current().hover?.(e);
  });
  const end = (e, cancel) => {
    if (e.pointerId !== active) return;
    active = null;
    if (cancel) current().cancel();
    else current().up(e);
  };
  container.addEventListener('pointerup', (e) => end(e, false));
  container.addEventListener('pointercancel', (e) => end(e, true));
  container.addEventListener('pointerleave', () => active === null && showTarget(null));
  container.addEventListener('dblclick', onDoubleClick);
  on('gesture', () => {
    if (active !== null) current().cancel();
    active = null;
  });
}

function current() {
  return tools[state.tool] ?? selectTool;
}

export function setTool(name) {
  if (name === 'image') {
    pickImages();
    return;
  }
  if (!tools[name] || name === state.tool) return;
  if (active !== null) current().cancel();
  active = null;
  state.tool = name;
  showTarget(null);
  container.dataset.tool = name;
  for (const [n, b] of buttons) {
    b.classList.toggle('active', n === name);
    b.setAttribute('aria-pressed', String(n === name));
  }
  emit('tool', name);
}

/** Cancels what the active tool is doing (Escape). Returns whether there was something. */
export function cancelTool() {
  if (active === null) return false;
  current().cancel();
  active = null;
  return true;
}

function buildToolbar(toolbar) {
  toolbar.setAttribute('role', 'toolbar');
  toolbar.setAttribute('aria-label', 'Tools');
  for (const group of GROUPS) {
    const g = document.createElement('div');
    g.className = 'tool-group';
    for (const name of group) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'tool';
      b.dataset.testid = `tool-${name}`;
      b.dataset.tool = name;
      const label = LABELS[name] ?? hint(`tool:${name}`);
      b.title = label;
      b.setAttribute('aria-label', label);
      if (name !== 'image') b.setAttribute('aria-pressed', String(name === state.tool));
      b.append(icon(name));
      b.addEventListener('click', () => setTool(name));
      g.append(b);
      buttons.set(name, b);
    }
    toolbar.append(g);
  }
  buttons.get('select').classList.add('active');
  container.dataset.tool = 'select';
}

function onDoubleClick(e) {
  if (state.tool !== 'select') return;
  const id = hitTest(e.clientX, e.clientY, { groups: false });
  if (id) {
    const obj = state.objects.get(id);
    if (obj.type === 'shape' || obj.type === 'connector') {
      select([id]);
      startEdit(id);
    }
    return;
  }
  // Inside a frame's empty area, a double-click names the frame (as on its title),
  // rather than starting a stray text object in it.
  const p = toBoard(e.clientX, e.clientY);
  const frame = frameAt(p);
  if (frame) {
    select([frame]);
    startEdit(frame);
    return;
  }
  startNew(p);
}

/** The topmost frame whose box holds board point `p`. */
function frameAt(p) {
  for (let i = state.order.length - 1; i >= 0; i--) {
    const obj = state.objects.get(state.order[i]);
    if (obj?.type === 'shape' && obj.geom === 'frame' && containsPoint(obj, p)) return obj.id;
  }
  return null;
}

/** A drag or click that adds a shape of `geom`. */
function shapeTool(geom) {
  let press = null;
  const ghostOf = (r) => {
    if (!press.ghost) press.ghost = svgEl('rect', { class: 'ghost' }, layers.draft);
    setAttrs(press.ghost, rectAttrs(r));
  };
  return {
    name: geom,
    down(e) {
      press = { from: toBoard(e.clientX, e.clientY), sx: e.clientX, sy: e.clientY, dragged: false };
    },
    move(e) {
      if (!press) return;
      if (!press.dragged && Math.hypot(e.clientX - press.sx, e.clientY - press.sy) < DRAG_START) return;
      press.dragged = true;
      press.rect = dragRect(press.from, toBoard(e.clientX, e.clientY), e.shiftKey);
      ghostOf(press.rect);
    },
    up() {
      const p = press;
      press = null;
      if (!p) return;
      const z = getView().zoom;
      let args;
      if (p.dragged && p.rect.w >= 4 && p.rect.h >= 4) {
        const r = p.rect;
        args = { geom, x: snapNumber(r.x, z), y: snapNumber(r.y, z), w: snapNumber(r.w, z), h: snapNumber(r.h, z) };
      } else {
        const [w, h] = defaultSize(geom);
        args = { geom, x: snapNumber(p.from.x - w / 2, z), y: snapNumber(p.from.y - h / 2, z), w, h };
      }
      sync.call('add_shape', { ...styleArgs(kindOf(geom)), ...args }).then((r) => {
        p.ghost?.remove();
        if (!r?.id) return;
        select([r.id]);
        setTool('select');
        if (geom === 'note') startEdit(r.id);
      }, () => p.ghost?.remove());
    },
    cancel() {
      press?.ghost?.remove();
      press = null;
    },
  };
}

function dragRect(a, b, square) {
  const r = spanRect(a, b);
  if (square) {
    const s = Math.max(r.w, r.h);
    return { x: b.x < a.x ? a.x - s : a.x, y: b.y < a.y ? a.y - s : a.y, w: s, h: s };
  }
  return r;
}

/** Text: a click opens a text box; the shape is made when typing ends. */
function textTool() {
  let from = null;
  return {
    name: 'text',
    down(e) {
      from = toBoard(e.clientX, e.clientY);
    },
    move() {},
    up() {
      if (!from) return;
      const p = from;
      from = null;
      setTool('select');
      // After the pointer is released, so the new box keeps the focus.
      setTimeout(() => startNew(p), 0);
    },
    cancel() {
      from = null;
    },
  };
}

function connectorTool() {
  let press = null;
  const endPoint = (id, p) => (id ? center(boundsOf(id)) : p);
  return {
    name: 'connector',
    hover(e) {
      showTarget(hitTest(e.clientX, e.clientY, { groups: false, accept: attachable, locked: true }));
    },
    down(e) {
      const from = hitTest(e.clientX, e.clientY, { groups: false, accept: attachable, locked: true });
      const p = toBoard(e.clientX, e.clientY);
      press = { from, p, sx: e.clientX, sy: e.clientY, to: null, q: p,
        line: svgEl('line', { class: 'draft-line' }, layers.draft) };
      showTarget(from);
    },
    move(e) {
      if (!press) return;
      press.q = toBoard(e.clientX, e.clientY);
      press.to = hitTest(e.clientX, e.clientY, { groups: false, accept: attachable, locked: true });
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
      const far = Math.hypot(e.clientX - p.sx, e.clientY - p.sy) >= DRAG_START;
      if (!far && !p.to) {
        p.line.remove();
        return;
      }
      const z = getView().zoom;
      const pt = (q) => ({ x: snapNumber(q.x, z), y: snapNumber(q.y, z) });
      const args = { ...styleArgs('connector'), from: p.from ?? pt(p.p), to: p.to ?? pt(p.q) };
      sync.call('add_connector', args).then((r) => {
        if (r?.id) select([r.id]);
        setTool('select');
      }, () => {}).finally(() => {
        p.line.remove();
        showTarget(null);
      });
    },
    cancel() {
      press?.line.remove();
      press = null;
      showTarget(null);
    },
  };
}

function penTool() {
  let stroke = null;
  const WIDTH = 3;
  return {
    name: 'pen',
    down(e) {
      const p = toBoard(e.clientX, e.clientY);
      stroke = {
        points: [[p.x, p.y]],
        path: svgEl('path', { class: 'ink-draft', 'stroke-width': styleArgs('ink').width ?? WIDTH }, layers.draft),
      };
      draw();
    },
    move(e, events) {
      if (!stroke) return;
      const min = 1.5 / getView().zoom;
      for (const ev of events) {
        const p = toBoard(ev.clientX, ev.clientY);
        const [lx, ly] = stroke.points[stroke.points.length - 1];
        if (Math.hypot(p.x - lx, p.y - ly) >= min) stroke.points.push([p.x, p.y]);
      }
      draw();
    },
    up() {
      const s = stroke;
      stroke = null;
      if (!s) return;
      const pts = s.points.map(([x, y]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10]);
      if (pts.length === 1) pts.push([pts[0][0] + 0.5, pts[0][1] + 0.5]);
      const args = { width: WIDTH, ...styleArgs('ink'), points: pts };
      const { dash } = remembered('ink');
      // A remembered dash goes in the same step, by an update of the new ink.
      const call = dash && dash !== 'solid'
        ? sync.call('batch', { operations: [{ tool: 'add_ink', args }, { tool: 'update', args: { id: '$0.id', dash } }] })
        : sync.call('add_ink', args);
      call.catch(() => {}).finally(() => s.path.remove());
    },
    cancel() {
      stroke?.path.remove();
      stroke = null;
    },
  };
  function draw() {
    const d = stroke.points.map(([x, y], i) => `${i ? 'L' : 'M'}${x.toFixed(1)} ${y.toFixed(1)}`).join(' ');
    stroke.path.setAttribute('d', stroke.points.length === 1 ? `${d} l0.01 0` : d);
  }
}
