// tools.js: the toolbar and the drawing tools. Routes the canvas's pointer events
// to the active tool: select (selection.js), hand, every geom of add_shape (click:
// default size centred on the click; drag: that rectangle), sticky note, text,
// frame, arrow and line (connectortool.js: a drag, or click by click), pen
// (freehand ink), eraser (eraser.js), laser pointer (laser.js) and image (file
// picker; drop and paste also work). A drawing tool goes back to Select after
// each object unless the tool lock is on (Q, the padlock), as in Excalidraw. The
// tooltips' names and keys come from shortcuts.js.

import { state, on, select, emit } from '../sync/state.js';
import { GEOMS, defaultSize, spanRect, snapNumber, containsPoint } from '../canvas/geom.js';
import { layers, svgEl, setAttrs, rectAttrs, toBoard, getView } from '../canvas/canvas.js';
import { hitTest } from '../canvas/hittest.js';
import { selectTool } from '../select/selection.js';
import { showTarget } from '../select/drag.js';
import { connectorTool } from './connectortool.js';
import { laserTool } from './laser.js';
import { startEdit, startNew, isEditing, finishEdit, endAt } from './textedit.js';
import { pickImages } from './images.js';
import { icon } from '../ui/icons.js';
import { eraserTool } from './eraser.js';
import { hint } from '../ui/shortcuts.js';
import { kindOf, styleArgs, remembered } from './stylememory.js';
import * as sync from '../sync/sync.js';

/** Names of the tools that have no key (those with one are named in shortcuts.js). */
const LABELS = {
  rounded: 'Rounded rectangle', triangle: 'Triangle', hexagon: 'Hexagon',
  parallelogram: 'Parallelogram', cylinder: 'Cylinder', cloud: 'Cloud', star: 'Star',
  table: 'Table (ER entity, class)', end_state: 'End state (state diagram)',
};
const GROUPS = [
  ['lock', 'select', 'hand'],
  GEOMS.filter((g) => !['note', 'text', 'frame'].includes(g)),
  ['note', 'text', 'frame'],
  ['connector', 'line', 'pen', 'eraser', 'laser', 'image'],
];

const DRAG_START = 4;
const tools = {};
let container;
let active = null; // pointer id of the press in progress
// Tool picks so far (a re-pick of the current tool and the lock count), and
// their number at the last press: an object whose answer comes after a pick
// made since its press does not switch the tool back to Select.
let picks = 0;
let picksAtPress = 0;
const buttons = new Map();

export function initTools(canvasEl, toolbar) {
  container = canvasEl;
  tools.select = selectTool;
  tools.hand = { name: 'hand', down() {}, move() {}, up() {}, cancel() {} };
  for (const g of GEOMS) tools[g] = g === 'text' ? textTool() : shapeTool(g);
  tools.connector = connectorTool({ name: 'connector', kind: 'connector', done: created });
  tools.line = connectorTool({
    name: 'line', kind: 'line', defaults: { route: 'straight', start_arrow: 'none', end_arrow: 'none' }, done: created,
  });
  tools.pen = penTool();
  tools.eraser = eraserTool();
  tools.laser = laserTool();
  buildToolbar(toolbar);

  container.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || active !== null) return;
    if (isEditing()) {
      finishEdit();
      if (state.tool === 'select' || state.tool === 'text') return;
    }
    container.setPointerCapture(e.pointerId);
    active = e.pointerId;
    picksAtPress = picks;
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
  // A gesture begun on another board ends with it: nothing it meant is sent here.
  on('boardswitch', () => {
    cancelTool();
    for (const t of Object.values(tools)) t.drop?.();
    showTarget(null);
  });
}

function current() {
  return tools[state.tool] ?? selectTool;
}

/**
 * After tool `by` made object `id`: back to Select with it selected, or, with
 * the tool lock on, the tool stays (and the panel keeps showing the next
 * object's style). A tool picked (or picked again) while the call was on its
 * way is kept, and so is one already drawing the next object.
 */
function created(id, by) {
  if (state.toolLocked || state.tool !== by || picks !== picksAtPress) return;
  // The person is already drawing the next one (the answer came late): switching
  // now would end that drawing where it got to.
  if (active !== null || current().pending?.()) return;
  select([id]);
  setTool('select');
}

export function setTool(name) {
  // A viewer on a team server (team.js) only looks.
  if (state.readOnly && name !== 'select' && name !== 'hand') return;
  picks += 1;
  if (name === 'image') {
    pickImages();
    return;
  }
  if (!tools[name] || name === state.tool) return;
  if (active !== null) current().cancel();
  active = null;
  // A connector drawn click by click is ended where it got to, as in Excalidraw.
  if (current().pending?.()) current().finish();
  state.tool = name;
  showTarget(null);
  container.dataset.tool = name;
  for (const [n, b] of buttons) {
    if (n === 'lock' || n === 'image') continue;
    b.classList.toggle('active', n === name);
    b.setAttribute('aria-pressed', String(n === name));
  }
  emit('tool', name);
}

/**
 * Ends what the active tool draws over several presses (a connector drawn click
 * by click: Enter, Escape). Returns whether there was something.
 */
export function finishTool() {
  if (active !== null || !current().pending?.()) return false;
  current().finish();
  return true;
}

/** Turns the tool lock on or off (Q): drawing tools then stay chosen after each object. */
export function toggleToolLock() {
  // A choice of how the tool behaves: an answer still on its way keeps the tool.
  picks += 1;
  state.toolLocked = !state.toolLocked;
  const b = buttons.get('lock');
  b?.classList.toggle('active', state.toolLocked);
  b?.setAttribute('aria-pressed', String(state.toolLocked));
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
      const label = LABELS[name] ?? hint(name === 'lock' ? 'tool-lock' : `tool:${name}`);
      b.title = label;
      b.setAttribute('aria-label', label);
      if (name === 'lock') b.setAttribute('aria-pressed', String(!!state.toolLocked));
      else if (name !== 'image') b.setAttribute('aria-pressed', String(name === state.tool));
      b.append(icon(name));
      b.addEventListener('click', () => (name === 'lock' ? toggleToolLock() : setTool(name)));
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
      // Near an end of a connector: that end's label.
      startEdit(id, obj.type === 'connector' ? endAt(id, e.clientX, e.clientY) : null);
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
        created(r.id, geom);
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
      if (!state.toolLocked) setTool('select');
      // After the pointer is released, so the new box keeps the focus.
      setTimeout(() => startNew(p), 0);
    },
    cancel() {
      from = null;
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
