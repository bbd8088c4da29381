// state.js: the page's shared state (board info, objects, z-order, selection, tool)
// and a tiny event bus the modules use to tell each other what changed. When the
// window is switched to another board (`inkboard open OTHER`, an agent's new
// board, Back), everything keyed to the old board's ids is dropped at once: the
// selection here, and, on 'boardswitch', each module's own (hover, a tool's
// gesture, the text being edited, previews, find, presenting).

export const state = {
  /** The last `board` message: {board, title, path, pages, page, revision, undo, redo, save, save_error}. */
  board: null,
  /** Number of the page shown. */
  page: 1,
  revision: 0,
  /** id -> obj (the compact JSON form of read_board). */
  objects: new Map(),
  /** The page's z-order, bottom first. */
  order: [],
  /** member id -> group id (derived from the groups' `ids` on every scene). */
  memberOf: new Map(),
  /** ids selected. */
  selection: new Set(),
  /** Name of the active tool. */
  tool: 'select',
  /** The tool lock (Q): a drawing tool stays chosen after each object it makes. */
  toolLocked: false,
  /** 'online' | 'connecting' | 'offline' (inkboard does not answer) | 'signed-out' (it does, but not to this tab) */
  connection: 'connecting',
};

const listeners = new Map();

/** Calls `fn(data)` whenever `event` is emitted. Returns a function that unsubscribes. */
export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
  return () => listeners.get(event).delete(fn);
}

export function emit(event, data) {
  for (const fn of listeners.get(event) ?? []) {
    try {
      fn(data);
    } catch (err) {
      console.error(`inkboard: a '${event}' listener failed`, err);
    }
  }
}

/** The board whose `board` message came last (its number, or its path in the chat view). */
let boardShown = null;

/**
 * Takes the board a `board` message shows. On a switch to another board the
 * selection is dropped before its scene comes (ids name other objects there: the
 * old board's `s22` is an unrelated shape on the new one), and 'boardswitch' tells
 * the modules to drop theirs. Answers whether it was a switch.
 */
export function enterBoard(key) {
  const switched = boardShown !== null && key !== boardShown;
  boardShown = key;
  if (!switched) return false;
  if (state.selection.size) {
    state.selection = new Set();
    emit('selection', state.selection);
  }
  emit('boardswitch', key);
  return true;
}

/** Replaces the selection and tells everyone. Ids that no longer exist are dropped. */
export function select(ids) {
  const next = new Set();
  for (const id of ids) if (state.objects.has(id)) next.add(id);
  const same = next.size === state.selection.size && [...next].every((id) => state.selection.has(id));
  if (same) return;
  state.selection = next;
  emit('selection', next);
}

/** The member ids of a group (`ids` in the object's data; none for other objects). */
export function membersOf(obj) {
  return (obj?.type === 'group' && obj.ids) || [];
}

/** The top-level object a click on `id` means: its outermost group, else itself. */
export function topOf(id) {
  let cur = id;
  for (let i = 0; i < 32 && state.memberOf.has(cur); i++) cur = state.memberOf.get(cur);
  return cur;
}
