// stylecopy.js: copy and paste style (Ctrl+Alt+C, Ctrl+Alt+V), as Excalidraw and
// tldraw do. Copy takes the style of the first selected object (a group's first
// member) as it is drawn, unset fields at the values they are drawn with (the
// style panel's reading: panel.js); paste gives every selected object the copied
// fields that apply to it, in one call (one undo step). The copy is kept for the
// page's life, across boards: a style names no object.

import { emit } from '../sync/state.js';
import { APPLIES, valueOf, styled } from './panel.js';
import * as sync from '../sync/sync.js';

/** The copied style: field -> value (null before the first copy). */
let copied = null;

/** Copies the style of the first selected object. Answers what was copied (or null). */
export function copyStyle() {
  const [obj] = styled();
  if (!obj) return null;
  const style = {};
  for (const field of APPLIES[obj.type] ?? []) style[field] = valueOf(obj, field);
  copied = style;
  emit('info', 'Style copied: Ctrl+Alt+V pastes it on a selection');
  return style;
}

/** The style copied last (a copy of it), or null. */
export function copiedStyle() {
  return copied && { ...copied };
}

/**
 * Pastes the copied style on the selection: each object takes the copied fields
 * that apply to its type; one `update` per set of fields, all in one batch.
 */
export function pasteStyle() {
  if (!copied) {
    emit('error', 'Copy a style first: select an object and press Ctrl+Alt+C.');
    return null;
  }
  const byFields = new Map(); // "field,field" -> {args, ids}
  for (const obj of styled()) {
    const args = {};
    for (const field of APPLIES[obj.type] ?? []) if (field in copied) args[field] = copied[field];
    const key = Object.keys(args).join(',');
    if (!key) continue;
    if (!byFields.has(key)) byFields.set(key, { args, ids: [] });
    byFields.get(key).ids.push(obj.id);
  }
  const ops = [...byFields.values()].map(({ args, ids }) => ({ tool: 'update', args: { ids, ...args } }));
  if (!ops.length) return null;
  const [tool, args] = ops.length === 1 ? ['update', ops[0].args] : ['batch', { operations: ops }];
  return sync.call(tool, args).catch(() => {});
}
