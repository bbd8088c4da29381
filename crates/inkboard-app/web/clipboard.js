// clipboard.js: copy, cut, paste and duplicate. Copy puts the selected objects' data
// (the `obj` records, images with their bytes) on the clipboard as JSON; paste
// rebuilds them with ONE `batch` of add_shape/add_image/add_ink/add_connector/group,
// connectors re-pointed at the copies with "$N.id" references. Pasted images become
// images, pasted plain text a text shape. Duplicate is the server's `duplicate`.

import { state, select, topOf, emit, membersOf } from './state.js';
import { elementOf, visibleRect } from './canvas.js';
import { movingSet } from './drag.js';
import { addFiles, isImageFile } from './images.js';
import { typing } from './navigate.js';
import * as sync from './sync.js';

const MARK = 'inkboard/objects';
const SHAPE = ['geom', 'x', 'y', 'w', 'h', 'text', 'fill', 'stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'align', 'valign', 'opacity'];
const CONNECTOR = ['text', 'route', 'start_arrow', 'end_arrow', 'fill', 'stroke', 'stroke_width', 'dash', 'font_size', 'font', 'text_color', 'opacity'];
const STEP = 20;
let memory = null; // the last copied data, for pastes the system clipboard cannot carry
let lastPaste = { text: null, count: 0 };

export function initClipboard() {
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
    if (files.length) {
      addFiles(files);
      return;
    }
    const text = e.clipboardData?.getData('text/plain') ?? '';
    pasteText(text || memory || '');
  });
}

function pick(obj, keys) {
  const out = {};
  for (const k of keys) if (obj[k] !== undefined) out[k] = obj[k];
  return out;
}

/** The selection (with group members, frame contents and connectors between them) as JSON. */
function copyText() {
  const set = movingSet([...state.selection]);
  const objects = state.order.filter((id) => set.has(id)).map((id) => state.objects.get(id));
  const images = {};
  for (const o of objects) {
    if (o.type !== 'image') continue;
    const href = elementOf(o.id)?.querySelector('image')?.getAttribute('href');
    if (href) images[o.id] = href;
  }
  memory = JSON.stringify({ [MARK]: 1, objects, images });
  return memory;
}

/** Pastes clipboard text: our objects, or else a text shape holding it. */
function pasteText(text) {
  let data = null;
  try {
    const v = JSON.parse(text);
    if (v && v[MARK] === 1 && Array.isArray(v.objects)) data = v;
  } catch {
    // plain text
  }
  if (data) {
    lastPaste = { text, count: lastPaste.text === text ? lastPaste.count + 1 : 1 };
    return pasteObjects(data, STEP * lastPaste.count);
  }
  if (!text.trim()) return null;
  const v = visibleRect();
  return sync.call('add_shape', {
    geom: 'text', text: text.slice(0, 10000), x: Math.round(v.x + v.w / 2 - 60), y: Math.round(v.y + v.h / 2 - 12),
  }).then((r) => r?.id && select([r.id]), () => {});
}

/** The operations that rebuild `objects` shifted by (d, d). */
function buildOps(objects, images, d) {
  const ops = [];
  const index = new Map();
  const ref = (id) => (index.has(id) ? `$${index.get(id)}.id` : null);
  for (const o of objects) {
    if (o.type === 'shape') {
      const args = pick(o, SHAPE);
      args.x += d;
      args.y += d;
      ops.push({ tool: 'add_shape', args });
    } else if (o.type === 'image') {
      const data = images?.[o.id];
      if (!data) continue;
      ops.push({ tool: 'add_image', args: { data, x: o.x + d, y: o.y + d, w: o.w, h: o.h, ...pick(o, ['opacity']) } });
    } else if (o.type === 'ink') {
      const args = { points: o.points.map(([x, y]) => [x + d, y + d]), ...pick(o, ['color', 'width']) };
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
    if (typeof e === 'string') return ref(e) ?? (state.objects.has(e) ? e : null);
    return e && { x: e.x + d, y: e.y + d };
  };
  for (const o of objects) {
    if (o.type !== 'connector') continue;
    const from = end(o.from);
    const to = end(o.to);
    if (!from || !to) continue;
    ops.push({ tool: 'add_connector', args: { from, to, ...pick(o, CONNECTOR) } });
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

async function pasteObjects(data, d) {
  const ops = buildOps(data.objects, data.images, d);
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
