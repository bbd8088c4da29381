// clipboard.js: copy, cut, paste and duplicate. Copy puts the selected objects' data
// (the `obj` records, images with their bytes) on the clipboard as JSON; paste
// rebuilds them with ONE `batch` of add_shape/add_image/add_ink/add_connector/group,
// connectors re-pointed at the copies with "$N.id" references. Pasted images become
// images, pasted plain text a text shape. A paste lands at the pointer when it is on
// the board and has moved since the copy (or the last paste); pasting again without
// moving it steps each copy 20 px on. Duplicate is the server's `duplicate`. A
// connector copied without the object one end is on keeps that end only when
// pasted on the board it was copied from: the same id names another object on
// another board.

import { state, select, topOf, emit, membersOf } from '../sync/state.js';
import { elementOf, visibleRect, toBoard } from '../canvas/canvas.js';
import { movingSet } from '../select/drag.js';
import { addFiles, isImageFile } from './images.js';
import { typing } from '../canvas/navigate.js';
import * as sync from '../sync/sync.js';

const MARK = 'inkboard/objects';
const SHAPE = ['geom', 'x', 'y', 'w', 'h', 'text', 'fill', 'stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'align', 'valign', 'opacity'];
const CONNECTOR = ['text', 'route', 'start_arrow', 'end_arrow', 'label_at', 'fill', 'stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'opacity'];
const STEP = 20;
let memory = null; // the last copied data, for pastes the system clipboard cannot carry
/** The last paste: its text, the shift of its first copy, and how many followed it. */
let lastPaste = { text: null, base: { x: 0, y: 0 }, count: 0 };
/** The pointer on the board (client point), null when it is elsewhere. */
let pointer = null;
/** Where the pointer was at the last copy or paste. */
let anchor = null;

export function initClipboard() {
  document.addEventListener('pointermove', (e) => {
    pointer = e.target.closest?.('[data-testid="canvas"]') ? { x: e.clientX, y: e.clientY } : null;
  }, true);
  for (const kind of ['copy', 'cut']) {
    document.addEventListener(kind, (e) => {
      if (typing(e.target) || !state.selection.size) return;
      e.clipboardData.setData('text/plain', copyText());
      e.preventDefault();
      if (kind === 'cut') deleteSelection();
    });
  }
  document.addEventListener('paste', (e) => {
    if (typing(e.target)) return;
    e.preventDefault();
    const files = [...(e.clipboardData?.files ?? [])].filter(isImageFile);
    const at = pointer && toBoard(pointer.x, pointer.y);
    if (files.length) {
      addFiles(files, at);
      return;
    }
    const text = e.clipboardData?.getData('text/plain') ?? '';
    pasteText(text || memory || '', movedSinceAnchor() ? at : null);
    anchor = pointer;
  });
}

function movedSinceAnchor() {
  if (!pointer) return false;
  return !anchor || Math.hypot(pointer.x - anchor.x, pointer.y - anchor.y) > 4;
}

/** Copies the selection (the context menu's Copy): to the system clipboard when allowed. */
export function copySelection() {
  if (!state.selection.size) return;
  const text = copyText();
  navigator.clipboard?.writeText(text).catch(() => {});
}

/** Pastes at board point `p` (the context menu's Paste): the system clipboard, else the last copy. */
export async function pasteAt(p) {
  let text = '';
  try {
    text = (await navigator.clipboard?.readText()) ?? '';
  } catch {
    // not allowed: the last copy in this page
  }
  return pasteText(text || memory || '', p);
}

function pick(obj, keys) {
  const out = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** The selection (with group members, frame contents and connectors between them) as JSON. */
function copyText() {
  anchor = pointer;
  lastPaste = { text: null, base: { x: 0, y: 0 }, count: 0 };
  const set = movingSet([...state.selection]);
  const objects = state.order.filter((id) => set.has(id)).map((id) => state.objects.get(id));
  const images = {};
  for (const o of objects) {
    if (o.type !== 'image') continue;
    const href = elementOf(o.id)?.querySelector('image')?.getAttribute('href');
    if (href) images[o.id] = href;
  }
  memory = JSON.stringify({ [MARK]: 1, board: boardKey(), objects, images });
  return memory;
}

/** What names the board shown: its file, else its number in this run. */
function boardKey() {
  return state.board?.path ?? `board ${state.board?.board}`;
}

/**
 * Pastes clipboard text: our objects, or else a text shape holding it. With `at` (a
 * board point), the objects are centred on it; else each paste of the same text
 * steps on from the last.
 */
function pasteText(text, at = null) {
  let data = null;
  try {
    const v = JSON.parse(text);
    if (v && v[MARK] === 1 && Array.isArray(v.objects)) data = v;
  } catch {
    // plain text
  }
  if (data) {
    const b = extent(data.objects);
    if (at && b) {
      const base = { x: Math.round(at.x - (b.x + b.w / 2)), y: Math.round(at.y - (b.y + b.h / 2)) };
      lastPaste = { text, base, count: 0 };
    } else if (lastPaste.text === text) {
      lastPaste.count += 1;
    } else {
      lastPaste = { text, base: { x: 0, y: 0 }, count: 1 };
    }
    const step = STEP * lastPaste.count;
    return pasteObjects(data, lastPaste.base.x + step, lastPaste.base.y + step, data.board === boardKey());
  }
  if (!text.trim()) return null;
  const v = visibleRect();
  const p = at ?? { x: v.x + v.w / 2 - 60, y: v.y + v.h / 2 - 12 };
  return sync.call('add_shape', {
    geom: 'text', text: text.slice(0, 10000), x: Math.round(p.x), y: Math.round(p.y),
  }).then((r) => r?.id && select([r.id]), () => {});
}

/** The box the copied objects cover (their data's own coordinates). */
function extent(objects) {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  const add = (x, y) => {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  };
  for (const o of objects) {
    if (typeof o.x === 'number' && typeof o.w === 'number') {
      add(o.x, o.y);
      add(o.x + o.w, o.y + o.h);
    } else if (o.type === 'ink') {
      for (const [x, y] of o.points ?? []) add(x, y);
    } else if (o.type === 'connector') {
      for (const e of [o.from, o.to]) if (e && typeof e === 'object') add(e.x, e.y);
    }
  }
  return x0 <= x1 ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/**
 * The operations that rebuild `objects` shifted by (dx, dy). A connector's end on
 * an object left out of the copy stays on it only when `here` (the copy is pasted
 * on the board it came from); else that connector is left out.
 */
function buildOps(objects, images, dx, dy, here) {
  const ops = [];
  const index = new Map();
  const ref = (id) => (index.has(id) ? `$${index.get(id)}.id` : null);
  for (const o of objects) {
    if (o.type === 'shape') {
      const args = pick(o, SHAPE);
      args.x += dx;
      args.y += dy;
      ops.push({ tool: 'add_shape', args });
    } else if (o.type === 'image') {
      const data = images?.[o.id];
      if (!data) continue;
      ops.push({ tool: 'add_image', args: { data, x: o.x + dx, y: o.y + dy, w: o.w, h: o.h, ...pick(o, ['opacity']) } });
    } else if (o.type === 'ink') {
      const args = { points: o.points.map(([x, y]) => [x + dx, y + dy]), ...pick(o, ['color', 'width']) };
      ops.push({ tool: 'add_ink', args });
      const extra = pick(o, ['dash', 'opacity']);
      if (Object.keys(extra).length) {
        index.set(o.id, ops.length - 1);
        ops.push({ tool: 'update', args: { id: `$${ops.length - 1}.id`, ...extra } });
        continue;
      }
    } else continue;
    index.set(o.id, ops.length - 1);
  }
  const end = (e) => {
    if (typeof e === 'string') return ref(e) ?? (here && state.objects.has(e) ? e : null);
    return e && { x: e.x + dx, y: e.y + dy };
  };
  for (const o of objects) {
    if (o.type !== 'connector') continue;
    const from = end(o.from);
    const to = end(o.to);
    if (!from || !to) continue;
    // Bends move with the copy, as its free ends do.
    const bends = o.waypoints && { waypoints: o.waypoints.map(([x, y]) => [x + dx, y + dy]) };
    ops.push({ tool: 'add_connector', args: { from, to, ...pick(o, CONNECTOR), ...bends } });
    index.set(o.id, ops.length - 1);
  }
  // Groups after their members (inner groups first: objects come bottom first).
  let pending = objects.filter((o) => o.type === 'group');
  for (let round = 0; round < 8 && pending.length; round++) {
    pending = pending.filter((o) => {
      const members = membersOf(o).map(ref);
      if (members.some((m) => m === null)) return true;
      ops.push({ tool: 'group', args: { ids: members } });
      index.set(o.id, ops.length - 1);
      return false;
    });
  }
  return ops;
}

async function pasteObjects(data, dx, dy, here) {
  const ops = buildOps(data.objects, data.images, dx, dy, here);
  if (!ops.length) return;
  if (ops.length > 200) {
    emit('error', `Cannot paste ${ops.length} objects at once: 200 at most.`);
    return;
  }
  try {
    const r = await sync.call('batch', { operations: ops });
    const ids = (r?.results ?? []).map((x) => x?.id).filter(Boolean);
    select([...new Set(ids.map(topOf))]);
  } catch {
    // reported by the status line
  }
}

export async function duplicateSelection() {
  if (!state.selection.size) return;
  try {
    const r = await sync.call('duplicate', { ids: [...state.selection], dx: STEP, dy: STEP });
    if (r?.ids) select([...new Set(r.ids.map(topOf))]);
  } catch {
    // reported by the status line
  }
}

export function deleteSelection() {
  if (!state.selection.size) return;
  const ids = [...state.selection];
  select([]);
  sync.call('delete', { ids }).catch(() => {});
}
