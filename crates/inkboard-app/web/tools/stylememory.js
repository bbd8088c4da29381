// stylememory.js: the style the next new object takes, remembered per kind (shapes,
// sticky notes, text, frames, arrows, lines, ink), as Excalidraw does: a style set in
// the panel, on a selection or with a drawing tool active, is remembered for the kinds
// it was set on, and kept in the browser's storage for the next visit. The tools add
// it to their `add_*` calls (styleArgs), so the server draws the new object in it.

import { readStored, writeStored } from '../sync/stored.js';

const KEY = 'inkboard-style';
let memory = load();

function load() {
  const v = readStored(KEY, {});
  return v && typeof v === 'object' ? v : {};
}

function save() {
  writeStored(KEY, memory);
}

/** The kind of style memory an object, or a tool about to draw one, belongs to. */
export function kindOf(objOrTool) {
  if (typeof objOrTool === 'string') {
    if (objOrTool === 'pen') return 'ink';
    if (objOrTool === 'connector' || objOrTool === 'line') return objOrTool;
    return ['note', 'text', 'frame'].includes(objOrTool) ? objOrTool : 'shape';
  }
  const o = objOrTool;
  // A connector without heads is what the line tool draws: a line.
  if (o.type === 'connector') return o.end_arrow === 'none' && (o.start_arrow ?? 'none') === 'none' ? 'line' : 'connector';
  if (o.type === 'ink') return 'ink';
  if (o.type !== 'shape') return null;
  return kindOf(o.geom ?? 'rect');
}

/** The remembered style of a kind: {field: value} in `update`'s names. */
export function remembered(kind) {
  return { ...(memory[kind] ?? {}) };
}

/** Remembers `value` for `field` of these kinds. */
export function remember(kinds, field, value) {
  for (const k of new Set(kinds)) {
    if (!k) continue;
    memory[k] = { ...(memory[k] ?? {}), [field]: value };
  }
  save();
}

/** The arguments that give a new object of `kind` the remembered style. */
export function styleArgs(kind) {
  const r = remembered(kind);
  if (kind !== 'ink') return r;
  // add_ink names its line `color` and `width`; a dash is set by an `update` after.
  const out = {};
  if (r.stroke !== undefined) out.color = r.stroke;
  if (r.stroke_width !== undefined) out.width = r.stroke_width;
  return out;
}

/** Forgets everything (tests). */
export function forget() {
  memory = {};
  save();
}
