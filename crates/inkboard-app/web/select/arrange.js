// arrange.js: the arrange actions of the selection (align, distribute, order, group,
// ungroup, lock), shared by the keys (keyboard.js), the style panel and the context
// menu. Each is one call to the agents' own tool (`align`, `distribute`, `order`,
// `group`, `ungroup`, `update` with `locked`), so each is one undo step, and the
// server says what is allowed.

import { state, select, emit } from '../sync/state.js';
import * as sync from '../sync/sync.js';

/** The selected ids (top-level objects: groups stand for their members). */
function ids() {
  return [...state.selection];
}

/** Lines the selection up on an edge of its joint bounds (2 objects or more). */
export function align(edge) {
  if (state.selection.size < 2) return say('Select two objects or more to align them.');
  return sync.call('align', { ids: ids(), edge }).catch(() => {});
}

/** Spaces the selection evenly along an axis (3 objects or more). */
export function distribute(axis) {
  if (state.selection.size < 3) return say('Select three objects or more to distribute them.');
  return sync.call('distribute', { ids: ids(), axis }).catch(() => {});
}

/** Moves the selection in the stacking order: front, forward, backward, back. */
export function order(to) {
  if (!state.selection.size) return null;
  return sync.call('order', { ids: ids(), to }).catch(() => {});
}

export async function group() {
  if (state.selection.size < 2) return say('Select two objects or more to group them.');
  try {
    const r = await sync.call('group', { ids: ids() });
    if (r?.id) select([r.id]);
  } catch {
    // reported by the status line
  }
  return null;
}

export async function ungroup() {
  const groups = ids().filter((id) => state.objects.get(id)?.type === 'group');
  const out = [];
  for (const id of groups) {
    try {
      const r = await sync.call('ungroup', { id });
      out.push(...(r?.ids ?? []));
    } catch {
      // reported by the status line
    }
  }
  if (out.length) select(out);
}

/** Whether the selection holds a group (Ungroup applies). */
export function hasGroup() {
  return ids().some((id) => state.objects.get(id)?.type === 'group');
}

/** Whether every selected object is locked (the toggle then unlocks). */
export function allLocked() {
  return state.selection.size > 0 && ids().every((id) => state.objects.get(id)?.locked);
}

/**
 * Locks the selection, or unlocks it when all of it is locked (Excalidraw's
 * Ctrl+Shift+L): one `update` of every selected object, so one undo step. A
 * locked object stays selected, without handles, until the next click.
 */
export function toggleLock() {
  if (!state.selection.size) return null;
  return sync.call('update', { ids: ids(), locked: !allLocked() }).catch(() => {});
}

function say(message) {
  emit('error', message);
  return null;
}
