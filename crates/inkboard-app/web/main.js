// main.js: boots the editor. Wires the modules to the page, handles the server's
// `board` and `scene` messages, keeps the view of each page (views.js: kept across
// reloads), puts each board in the browser's history (Back and Forward move between
// boards), and exposes `window.inkboard` for tests and benchmarks.

import { state, emit, on, enterBoard } from './sync/state.js';
import * as sync from './sync/sync.js';
import {
  applyScene, fitToContent, openView, drawnCount, whenDrawn, getView, setView, panBy, zoomAt, viewport,
} from './canvas/canvas.js';
import { flash, mark } from './canvas/highlight.js';
import { initSurface } from './surface.js';
import { initBanner } from './sync/banner.js';
import { initExportDialog } from './ui/exportdialog.js';
import { startPresenting } from './ui/present.js';
import { icon } from './ui/icons.js';
import { hint } from './ui/shortcuts.js';
import { storedView, storeView } from './sync/views.js';
import { initTheme } from './ui/theme.js';
import { initTitle } from './ui/title.js';
import { initTeam } from './ui/team.js';
import { initPeople, followed } from './ui/people.js';
import { initCursors } from './ui/cursors.js';

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);

let resolveReady;
const ready = new Promise((resolve) => {
  resolveReady = resolve;
});
const views = new Map(); // "board:page" -> view
let shownKey = null;
/** The board (as views.js names it) and page whose view is on screen. */
let shownStore = null;

function boot() {
  const canvas = $('canvas');
  initTheme(document.querySelector('.topbar .actions'));
  initTitle($('board-title'));
  initSurface(canvas, $);
  initBanner($('banner'));
  initExportDialog($('export-slot'));
  initHistoryButtons();
  initPresentButton($('export-slot'));
  initTeam(document.querySelector('.topbar .actions'));
  initPeople(document.querySelector('.topbar .actions'), canvas);
  initCursors(canvas);

  on('view', (v) => {
    if (shownKey) views.set(shownKey, v);
  });
  // Kept when the gesture rests, not on every frame of it.
  on('viewcommit', (v) => {
    if (shownStore) storeView(shownStore.board, shownStore.page, v);
  });
  window.addEventListener('popstate', onHistory);

  sync.takeKey();
  const hash = new URLSearchParams(location.hash.slice(1));
  const board = hash.has('board') ? Number(hash.get('board')) : null;
  const page = hash.has('page') ? Number(hash.get('page')) : 1;
  sync.connect({ onBoard, onScene }, { board, page });
}

function onBoard(msg) {
  enterBoard(msg.board);
  state.board = msg;
  state.page = msg.page;
  if (msg.revision != null) state.revision = msg.revision;
  document.title = `${msg.title || fileName(msg.path) || 'Untitled'} · inkboard`;
  const title = $('board-title');
  title.textContent = msg.title || fileName(msg.path) || 'Untitled board';
  title.title = `${msg.path || 'Not saved to a file yet'} (click to rename)`;
  $('undo').disabled = !msg.undo;
  $('redo').disabled = !msg.redo;
  // Another board in this window is a step in its history; another page is not.
  const url = `#board=${msg.board}&page=${msg.page}`;
  const entry = { board: msg.board, page: msg.page, path: msg.path ?? null };
  if (shownBoard !== null && shownBoard !== msg.board && !goingBack) history.pushState(entry, '', url);
  else history.replaceState(entry, '', url);
  shownBoard = msg.board;
  goingBack = false;
  emit('board', msg);
}

let shownBoard = null;
/** Set while a Back or Forward asks for a board, so its answer is not a new step. */
let goingBack = false;

/** Back or Forward: shows the board (and page) of that history entry. */
function onHistory(e) {
  const hash = new URLSearchParams(location.hash.slice(1));
  const board = e.state?.board ?? (hash.has('board') ? Number(hash.get('board')) : null);
  const page = e.state?.page ?? (hash.has('page') ? Number(hash.get('page')) : 1);
  if (board == null) return;
  if (board === state.board?.board) {
    if (page !== state.page) sync.view(page);
    return;
  }
  goingBack = true;
  sync.showBoard(board, page, e.state?.path ?? null);
}

/** What names the board shown across restarts: its file, else its number. */
function boardKey() {
  return state.board?.path ?? `board ${state.board?.board}`;
}

function fileName(path) {
  return path ? path.split(/[\\/]/).pop() : '';
}

/** The last scene with others' changes marked, and when it was shown (for tests). */
let lastMarked = null;

/** How long the last full scene took: parse (sync.js), place, fit, first frame (ms). */
const timings = {};

function onScene(msg) {
  if (msg.page !== state.page) return;
  const t0 = performance.now();
  const key = `${state.board?.board}:${msg.page}`;
  // A page new to this window: take the scene in, then set the view, which draws
  // what it shows (drawing for the old view first would be wasted).
  const fresh = msg.full && key !== shownKey;
  applyScene(msg, { show: !fresh });
  // Who made the agent's changes, where the server says (a team server: "Ann's agent").
  state.agentBy = msg.agent_by ?? null;
  // Others' changes in their authors' colours (a team server), an agent's the rest.
  const marked = new Set();
  for (const m of Array.isArray(msg.marks) ? msg.marks : []) {
    mark(m.ids, m.color);
    for (const id of m.ids) marked.add(id);
  }
  if (msg.agent?.length && marked.size) {
    mark(msg.agent.filter((id) => !marked.has(id)));
    emit('agent', msg.agent);
  } else if (msg.agent?.length) flash(msg.agent);
  if (msg.marks?.length) lastMarked = { at: performance.now(), marks: msg.marks };
  if (msg.full) {
    timings.objects = msg.order.length;
    timings.place = performance.now() - t0;
    if (fresh) {
      shownKey = key;
      shownStore = { board: boardKey(), page: msg.page };
      const stored = storedView(boardKey(), msg.page);
      if (views.has(key)) setView(views.get(key));
      else if (stored) setView(stored);
      else openView();
    }
    timings.fit = performance.now() - t0 - timings.place;
    const parse = sync.lastParseMs();
    whenDrawn().then(() => {
      timings.drawn = drawnCount();
      // The task after the next frame's callbacks runs once that frame is painted.
      requestAnimationFrame(() => setTimeout(() => {
        timings.frame = performance.now() - t0;
        timings.parse = parse;
        resolveReady();
      }));
    });
  }
  emit('scene', msg);
}

function initHistoryButtons() {
  for (const [testid, label, fn] of [['undo', hint('undo'), sync.undo], ['redo', hint('redo'), sync.redo]]) {
    const b = $(testid);
    b.append(icon(testid));
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', fn);
  }
}

/** The "Present" button before Export: the page's frames as slides (present.js). */
function initPresentButton(slot) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'tool present-button';
  b.dataset.testid = 'present';
  const label = hint('present');
  b.title = label;
  b.setAttribute('aria-label', label);
  b.append(icon('present'));
  b.addEventListener('click', startPresenting);
  slot.before(b);
}

/** Runs `step(i)` on n animation frames and answers the frame durations (ms). */
function frames(n, step) {
  return new Promise((resolve) => {
    const times = [];
    let last = null;
    let i = 0;
    const tick = () => {
      const now = performance.now();
      if (last !== null) times.push(now - last);
      last = now;
      if (i >= n) {
        resolve(times);
        return;
      }
      step(i++);
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

window.inkboard = {
  ready,
  revision: () => state.revision,
  objects: () => Object.fromEntries(state.objects),
  view: getView,
  selection: () => [...state.selection],
  page: () => state.page,
  setView,
  /** Whom this window follows, on a team server (a name), or null. */
  following: followed,
  /** The last scene that marked others' changes: {at (performance.now()), marks}. */
  marked: () => lastMarked,
  fit: () => fitToContent(),
  perf: {
    /** Times of the last full scene: {objects, parse, place, fit, frame} in ms. */
    timings: () => ({ ...timings }),
    /** Pans by (dx, dy) screen pixels on each of n frames; answers frame durations. */
    panFrames: (n = 120, dx = 7, dy = 3) => frames(n, () => panBy(dx, dy)),
    /** Zooms in then out about the screen centre over n frames. */
    zoomFrames: (n = 120) => {
      const { w, h } = viewport();
      const r = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
      return frames(n, (i) => zoomAt(i < n / 2 ? 1.02 : 1 / 1.02, r.left + w / 2, r.top + h / 2));
    },
  },
};

boot();
