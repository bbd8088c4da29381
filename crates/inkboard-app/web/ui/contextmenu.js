// contextmenu.js: the right-click menu of the board. On an object it selects it
// (unless it is part of the selection) and offers clipboard, duplicate, delete,
// stacking order, align, distribute, group and lock, and on a frame its swimlanes
// (lanes.js: make lanes, add one, lay them out); on a locked object (which the
// mouse otherwise looks through), Unlock and Copy; on empty board, paste here,
// select all and fit. Each item runs the same action as its key and shows that key,
// from shortcuts.js. Escape, a click elsewhere or the wheel closes it.

import { state, select, on } from '../sync/state.js';
import { hitTest, isLocked } from '../canvas/hittest.js';
import { toBoard, fitToContent } from '../canvas/canvas.js';
import { copySelection, pasteAt, deleteSelection, duplicateSelection } from '../tools/clipboard.js';
import { align, distribute, order, group, ungroup, hasGroup, toggleLock, allLocked } from '../select/arrange.js';
import { shortcut } from './shortcuts.js';
import { toggleHelp } from './help.js';
import { hasOwnRoute, resetRoute } from '../select/bends.js';
import { lanesOf, makeLanes, addLane, layoutLanes } from '../select/lanes.js';

let menu = null;

export function initContextMenu(container) {
  on('boardswitch', close);
  container.addEventListener('contextmenu', (e) => {
    e.preventDefault();
    const hit = hitTest(e.clientX, e.clientY, { locked: true });
    if (hit && !state.selection.has(hit)) select([hit]);
    if (!hit) select([]);
    open(e.clientX, e.clientY, toBoard(e.clientX, e.clientY));
  });
}

/** The items that apply now: [action, label, run] rows, null for a separator. */
function items(at) {
  const n = state.selection.size;
  if (!n) {
    return [
      ['paste', 'Paste here', () => pasteAt(at)],
      ['select-all', 'Select all', () => select(state.order.filter((id) => !state.memberOf.has(id) && !isLocked(id)))],
      ['zoom-fit', 'Fit to content', () => fitToContent()],
      null,
      ['help', 'Keyboard shortcuts', () => toggleHelp()],
    ];
  }
  // A locked selection is kept as it is: it can be copied, and unlocked.
  if (allLocked()) {
    return [
      ['lock', 'Unlock', () => toggleLock()],
      ['copy', 'Copy', () => copySelection()],
    ];
  }
  const out = [
    ['cut', 'Cut', () => {
      copySelection();
      deleteSelection();
    }],
    ['copy', 'Copy', () => copySelection()],
    ['paste', 'Paste here', () => pasteAt(at)],
    ['duplicate', 'Duplicate', () => duplicateSelection()],
    ['delete', 'Delete', () => deleteSelection()],
    null,
    ['order:front', 'Bring to front', () => order('front')],
    ['order:forward', 'Bring forward', () => order('forward')],
    ['order:backward', 'Send backward', () => order('backward')],
    ['order:back', 'Send to back', () => order('back')],
  ];
  if (n >= 2) {
    out.push(null);
    for (const edge of ['left', 'center', 'right', 'top', 'middle', 'bottom']) {
      out.push([`align:${edge}`, shortcut(`align:${edge}`).label, () => align(edge)]);
    }
  }
  if (n >= 3) {
    out.push(['distribute:horizontal', 'Distribute horizontally', () => distribute('horizontal')]);
    out.push(['distribute:vertical', 'Distribute vertically', () => distribute('vertical')]);
  }
  out.push(null);
  if (n >= 2) out.push(['group', 'Group', () => group()]);
  if (hasGroup()) out.push(['ungroup', 'Ungroup', () => ungroup()]);
  out.push(['lock', 'Lock', () => toggleLock()]);
  const [only] = state.selection;
  if (n === 1 && hasOwnRoute(only)) out.push(null, ['reset-route', 'Reset route', () => resetRoute(only)]);
  // A frame can be made a pool of swimlanes, and a pool given one more lane or laid out again.
  const obj = n === 1 ? state.objects.get(only) : null;
  if (obj?.type === 'shape' && obj.geom === 'frame') {
    out.push(null);
    if (lanesOf(only).length) {
      out.push(['lanes:add', 'Add lane', () => addLane(only)]);
      out.push(['lanes:layout', 'Lay out lanes', () => layoutLanes(only)]);
    } else {
      out.push(['lanes:make', 'Make lanes', () => makeLanes(only)]);
    }
  }
  return out;
}

function open(x, y, at) {
  close();
  menu = document.createElement('div');
  menu.className = 'context-menu';
  menu.setAttribute('role', 'menu');
  menu.dataset.testid = 'context-menu';
  for (const item of items(at)) {
    if (!item) {
      const hr = document.createElement('div');
      hr.className = 'context-sep';
      hr.setAttribute('role', 'separator');
      menu.append(hr);
      continue;
    }
    const [action, label, run] = item;
    const b = document.createElement('button');
    b.type = 'button';
    b.setAttribute('role', 'menuitem');
    b.dataset.testid = `menu-${action.replace(':', '-')}`;
    const name = document.createElement('span');
    name.textContent = label;
    const keys = document.createElement('kbd');
    keys.textContent = shortcut(action)?.keys[0] ?? '';
    b.append(name, keys);
    b.addEventListener('click', () => {
      close();
      run();
    });
    menu.append(b);
  }
  document.body.append(menu);
  // Kept inside the window.
  const r = menu.getBoundingClientRect();
  menu.style.left = `${Math.max(4, Math.min(x, innerWidth - r.width - 4))}px`;
  menu.style.top = `${Math.max(4, Math.min(y, innerHeight - r.height - 4))}px`;
  menu.querySelector('button')?.focus({ preventScroll: true });
  window.addEventListener('pointerdown', onOutside, true);
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('wheel', close, { capture: true, passive: true });
  window.addEventListener('blur', close);
}

function onOutside(e) {
  if (!menu?.contains(e.target)) close();
}

function onKey(e) {
  if (!menu) return;
  const buttons = [...menu.querySelectorAll('button')];
  const i = buttons.indexOf(document.activeElement);
  if (e.key === 'Escape') close();
  else if (e.key === 'ArrowDown') buttons[(i + 1) % buttons.length]?.focus();
  else if (e.key === 'ArrowUp') buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
  else return;
  e.preventDefault();
  e.stopImmediatePropagation();
}

export function close() {
  if (!menu) return;
  menu.remove();
  menu = null;
  window.removeEventListener('pointerdown', onOutside, true);
  window.removeEventListener('keydown', onKey, true);
  window.removeEventListener('wheel', close, { capture: true });
  window.removeEventListener('blur', close);
  document.querySelector('[data-testid="canvas"]')?.focus({ preventScroll: true });
}
