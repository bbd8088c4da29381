// keyboard.js: the shortcuts, as shortcuts.js lists them (that table is the one
// place a key is written): this file maps each action to what it does. Ctrl+C/X/V
// are the browser's copy/cut/paste events (clipboard.js); the arrows nudge the
// selection (Shift: 10 px) or pan; a key typed into a field is never a shortcut.
// Enter and Escape first end an arrow or line being drawn click by click. The
// export dialog is the editor's, not the chat view's: its key is said as an
// 'export' event, which main.js's dialog answers.

import { state, select, emit } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import { setTool, cancelTool, finishTool, toggleToolLock } from '../tools/tools.js';
import { deleteSelection, duplicateSelection } from '../tools/clipboard.js';
import { startEdit } from '../tools/textedit.js';
import { zoomCenter, fitToContent, fitRect, panBy, boundsOf } from '../canvas/canvas.js';
import { resetZoom, interactive, typing } from '../canvas/navigate.js';
import { union } from '../canvas/geom.js';
import { actionOf } from './shortcuts.js';
import { align, distribute, order, group, ungroup, toggleLock } from '../select/arrange.js';
import { isLocked } from '../canvas/hittest.js';
import { toggleHelp } from './help.js';
import { openFind } from './find.js';
import { copyStyle, pasteStyle } from './stylecopy.js';
import { flip } from '../select/flip.js';
import { editLink } from '../canvas/link.js';
import { startPresenting } from './present.js';

const ARROWS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** What each action of shortcuts.js does (`e` is the key event, for the few that look). */
const ACTIONS = {
  undo: () => sync.undo(),
  redo: () => sync.redo(),
  'select-all': () => selectAll(),
  duplicate: () => duplicateSelection(),
  save: () => sync.save(),
  group: () => group(),
  ungroup: () => ungroup(),
  lock: () => toggleLock(),
  'zoom-in': () => zoomCenter(1.25),
  'zoom-out': () => zoomCenter(1 / 1.25),
  'zoom-reset': () => resetZoom(),
  'zoom-fit': () => fitToContent(),
  'zoom-selection': () => zoomToSelection(),
  help: () => toggleHelp(),
  'tool-lock': () => toggleToolLock(),
  find: () => openFind(),
  'copy-style': () => copyStyle(),
  link: () => editLink(),
  'paste-style': () => pasteStyle(),
  export: () => emit('export'),
  present: () => startPresenting(),
  delete: () => state.selection.size && deleteSelection(),
  deselect: () => {
    if (finishTool() || cancelTool()) return;
    if (state.tool !== 'select') setTool('select');
    else select([]);
  },
};

export function initKeyboard() {
  window.addEventListener('keydown', onKey);
}

function run(action, e) {
  if (ACTIONS[action]) return ACTIONS[action](e);
  const [kind, arg] = action.split(':');
  if (kind === 'tool') return setTool(arg);
  if (kind === 'order') return order(arg);
  if (kind === 'align') return align(arg);
  if (kind === 'distribute') return distribute(arg);
  if (kind === 'flip') return flip(arg);
  return null;
}

function onKey(e) {
  if (typing(e.target) || e.isComposing) return;
  if (ARROWS[e.key] && !(e.ctrlKey || e.metaKey || e.altKey)) {
    e.preventDefault();
    const step = e.shiftKey ? 10 : 1;
    const [dx, dy] = ARROWS[e.key].map((v) => v * step);
    if (state.selection.size) sync.call('move', { ids: [...state.selection], dx, dy }).catch(() => {});
    else panBy(-dx * 40, -dy * 40);
    return;
  }
  const action = actionOf(e);
  if (!action) return;
  if (action === 'edit-text') {
    if (finishTool()) {
      e.preventDefault();
      return;
    }
    // Buttons and links keep Enter for themselves.
    if (state.selection.size !== 1 || interactive(e.target)) return;
    e.preventDefault();
    startEdit([...state.selection][0]);
    return;
  }
  // Delete with nothing selected leaves the key to the page.
  if (action === 'delete' && !state.selection.size) return;
  e.preventDefault();
  run(action, e);
}

/** Every top-level object but the locked ones, as Excalidraw's Select all. */
function selectAll() {
  select(state.order.filter((id) => !state.memberOf.has(id) && !isLocked(id)));
}

function zoomToSelection() {
  let b = null;
  for (const id of state.selection) b = union(b, boundsOf(id));
  if (b) fitRect(b, { maxZoom: 2 });
}
