// keyboard.js: the shortcuts. Ctrl+Z undo, Ctrl+Shift+Z / Ctrl+Y redo, Ctrl+A
// select all, Delete/Backspace delete, Ctrl+D duplicate (Ctrl+C/X/V are the
// browser's copy/cut/paste events, see clipboard.js), arrows nudge (Shift: 10 px),
// Escape deselects, Enter edits text, letters pick tools, Ctrl+=/-/0 and Shift+1 zoom.

import { state, select } from './state.js';
import * as sync from './sync.js';
import { setTool, cancelTool, SHORTCUTS } from './tools.js';
import { deleteSelection, duplicateSelection } from './clipboard.js';
import { startEdit } from './textedit.js';
import { zoomCenter, fitToContent, fitRect, panBy, boundsOf } from './canvas.js';
import { resetZoom, interactive, typing } from './navigate.js';
import { union } from './geom.js';

const TOOL_KEYS = Object.fromEntries(Object.entries(SHORTCUTS).map(([tool, key]) => [key.toLowerCase(), tool]));

export function initKeyboard() {
  window.addEventListener('keydown', onKey);
}

function onKey(e) {
  if (typing(e.target) || e.isComposing) return;
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  const done = () => e.preventDefault();

  if (mod) {
    if (key === 'z' && !e.shiftKey) return done(), sync.undo();
    if ((key === 'z' && e.shiftKey) || key === 'y') return done(), sync.redo();
    if (key === 'a') return done(), selectAll();
    if (key === 'd') return done(), duplicateSelection();
    if (key === 's') return done(), sync.save();
    if (key === 'g' && !e.shiftKey) return done(), group();
    if (key === 'g' && e.shiftKey) return done(), ungroup();
    if (key === '=' || key === '+') return done(), zoomCenter(1.25);
    if (key === '-') return done(), zoomCenter(1 / 1.25);
    if (key === '0') return done(), resetZoom();
    return; // c, x, v: the browser's copy/cut/paste events
  }
  if (e.altKey) return;

  switch (key) {
    case 'Delete':
    case 'Backspace':
      if (state.selection.size) {
        done();
        deleteSelection();
      }
      return;
    case 'Escape':
      done();
      if (cancelTool()) return;
      if (state.tool !== 'select') setTool('select');
      else select([]);
      return;
    case 'Enter':
      if (state.selection.size === 1 && !interactive(e.target)) {
        done();
        startEdit([...state.selection][0]);
      }
      return;
    case 'ArrowLeft':
    case 'ArrowRight':
    case 'ArrowUp':
    case 'ArrowDown': {
      done();
      const step = e.shiftKey ? 10 : 1;
      const dx = key === 'ArrowLeft' ? -step : key === 'ArrowRight' ? step : 0;
      const dy = key === 'ArrowUp' ? -step : key === 'ArrowDown' ? step : 0;
      if (state.selection.size) sync.call('move', { ids: [...state.selection], dx, dy }).catch(() => {});
      else panBy(-dx * 40, -dy * 40);
      return;
    }
    case '!':
    case '1':
      if (e.shiftKey) {
        done();
        fitToContent();
      }
      return;
    case '@':
    case '2':
      if (e.shiftKey) {
        done();
        zoomToSelection();
      }
      return;
    default:
      if (!e.shiftKey && TOOL_KEYS[key]) {
        done();
        setTool(TOOL_KEYS[key]);
      }
  }
}

function selectAll() {
  select(state.order.filter((id) => !state.memberOf.has(id)));
}

function zoomToSelection() {
  let b = null;
  for (const id of state.selection) b = union(b, boundsOf(id));
  if (b) fitRect(b, { maxZoom: 2 });
}

async function group() {
  if (state.selection.size < 2) return;
  try {
    const r = await sync.call('group', { ids: [...state.selection] });
    if (r?.id) select([r.id]);
  } catch {
    // reported by the status line
  }
}

async function ungroup() {
  const groups = [...state.selection].filter((id) => state.objects.get(id)?.type === 'group');
  const ids = [];
  for (const id of groups) {
    try {
      const r = await sync.call('ungroup', { id });
      ids.push(...(r?.ids ?? []));
    } catch {
      // reported by the status line
    }
  }
  if (ids.length) select(ids);
}
