// chat/chat.js: boots the chat view, the board inside a chat. The editor's own
// modules draw and edit (canvas, navigation, selection, drag, tools, text editing,
// keyboard, style panel, page tabs, status); bridge.js stands in for sync.js, so each
// edit is a tool call through the host, run as the person. This file adds what a
// view in a chat needs: the board's facts in the bar, a notice when the board moved
// on since the tool's revision, full screen, export, and the model's context (what
// the person did and selected, in one sentence).

import { state, emit, on, enterBoard } from '../sync/state.js';
import * as bridge from './bridge.js';
import {
  applyScene, openView, whenDrawn, drawnCount, refreshBox, getView, setView,
} from '../canvas/canvas.js';
import { flash } from '../canvas/highlight.js';
import { initSurface } from '../surface.js';
import { icon } from '../ui/icons.js';
import { hint } from '../ui/shortcuts.js';
import { describe, summary } from './context.js';

const $ = (testid) => document.querySelector(`[data-testid="${testid}"]`);
/** How tall the chat view asks to be inline (the host may give less). */
const INLINE_HEIGHT = 560;

let shownPage = null;
const timings = {};
let resolveDrawn;
let drawn = new Promise((r) => { resolveDrawn = r; });

function boot() {
  loadFaces();
  const canvas = $('canvas');
  initSurface(canvas, $);
  initButtons();
  bridge.onHost('ready', onReady);
  bridge.onHost('context', fitHost);
  bridge.onHost('result', ({ result }) => {
    timings.result = performance.now();
    $('notice').hidden = true;
    if (result.isError) {
      const text = (result.content ?? []).map((c) => c.text ?? '').join(' ');
      emit('error', `The tool failed: ${text}`);
    }
  });
  bridge.onEdit(remember);
  on('selection', () => queueContext());
  bridge.connect({ onBoard, onScene });
}

/**
 * inkboard's own faces, cut to Latin by the server (`latin_faces`) and put in the page
 * as JSON: handed to the FontFace API as bytes, which fetches nothing, so the host's
 * `font-src` (which allows no font to be fetched) does not stop them. The board's
 * text then draws in the faces it was measured with; a character the faces lack
 * falls back to the system's face, as before.
 */
function loadFaces() {
  let faces = [];
  try {
    faces = JSON.parse(document.getElementById('inkboard-fonts')?.textContent || '[]');
  } catch {
    return;
  }
  for (const { family, weight, data } of faces) {
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const face = new FontFace(family, bytes, { weight: String(weight) });
    // A face the browser refuses leaves the system's face: nothing to report.
    face.loaded.catch(() => {});
    document.fonts.add(face);
  }
}

function onReady(host) {
  fitHost(host.context);
  const modes = host.context?.availableDisplayModes ?? [];
  $('fullscreen').hidden = !modes.includes('fullscreen');
  $('export').hidden = false;
}

/** Takes the host's theme variables (`--color-…`, `--font-…`): values of CSS custom properties only. */
function themeFrom(context) {
  const vars = context?.styles?.variables ?? {};
  for (const [name, value] of Object.entries(vars)) {
    if (/^--[a-z0-9-]+$/.test(name) && typeof value === 'string') document.documentElement.style.setProperty(name, value);
  }
}

/** Fills the host's container: a fixed height is taken as given, else the chat view asks for its own. */
function fitHost(context) {
  themeFrom(context);
  const dims = context?.containerDimensions ?? {};
  const full = context?.displayMode === 'fullscreen';
  let height = INLINE_HEIGHT;
  if (full) height = window.innerHeight || height;
  else if (typeof dims.height === 'number') height = dims.height;
  else if (typeof dims.maxHeight === 'number') height = Math.min(INLINE_HEIGHT, dims.maxHeight);
  document.documentElement.style.height = `${height}px`;
  document.body.classList.toggle('fullscreen', full);
  $('fullscreen').setAttribute('aria-pressed', String(full));
  bridge.sizeChanged(Math.round(document.documentElement.getBoundingClientRect().width), height);
  refreshBox();
}

function onBoard(msg) {
  enterBoard(msg.path ?? msg.board);
  state.board = msg;
  state.page = msg.page;
  if (msg.revision != null) state.revision = msg.revision;
  const name = msg.title || fileName(msg.path) || 'Untitled board';
  const title = $('board-title');
  title.textContent = name;
  title.title = msg.path || 'The board on screen in inkboard (no file yet)';
  document.title = `${name} · inkboard`;
  $('undo').disabled = !msg.undo;
  $('redo').disabled = !msg.redo;
  // Said until the next tool result: the board the tool made is not the one shown.
  if (msg.changed_since != null) {
    note(`This board changed after the tool's revision ${msg.changed_since}: showing revision ${msg.revision}.`);
  }
  emit('board', msg);
}

function fileName(path) {
  return path ? path.split(/[\\/]/).pop() : '';
}

function onScene(msg) {
  if (msg.page !== state.page) return;
  const arrived = performance.now();
  const fresh = msg.full && shownPage !== msg.page;
  applyScene(msg, { show: !fresh });
  if (fresh) {
    shownPage = msg.page;
    openView();
  }
  const marked = performance.now();
  if (msg.agent?.length) flash(msg.agent);
  timings.flash = performance.now() - marked;
  if (msg.full) {
    const t0 = timings.result ?? arrived;
    timings.fetch = arrived - t0;
    timings.place = performance.now() - arrived - timings.flash;
    whenDrawn().then(() => requestAnimationFrame(() => {
      // The frame that shows the page has begun; the task after it runs once it is painted.
      timings.frame = performance.now() - t0;
      setTimeout(() => {
        timings.drawn = performance.now() - t0;
        timings.objects = msg.order.length;
        timings.onScreen = drawnCount();
        resolveDrawn({ ...timings });
      });
    }));
  }
  emit('scene', msg);
}

// ---- the bar's own buttons -------------------------------------------------------

function initButtons() {
  for (const [testid, label, fn] of [
    ['undo', hint('undo', 'Undo'), bridge.undo],
    ['redo', hint('redo', 'Redo'), bridge.redo],
  ]) {
    const b = $(testid);
    b.append(icon(testid));
    b.title = label;
    b.setAttribute('aria-label', label);
    b.addEventListener('click', fn);
  }
  const full = $('fullscreen');
  full.textContent = '⛶';
  full.title = 'Full screen';
  full.setAttribute('aria-label', 'Full screen');
  full.addEventListener('click', toggleFullscreen);
  const exp = $('export');
  exp.append(icon('export'));
  const word = document.createElement('span');
  word.textContent = 'PNG';
  exp.append(word);
  exp.title = 'Export this page as a PNG picture';
  exp.addEventListener('click', exportPage);
}

async function toggleFullscreen() {
  const ctx = bridge.hostContext();
  const mode = ctx.displayMode === 'fullscreen' ? 'inline' : 'fullscreen';
  if (!(ctx.availableDisplayModes ?? []).includes(mode)) return;
  try {
    const r = await bridge.request('ui/request-display-mode', { mode });
    fitHost({ ...bridge.hostContext(), displayMode: r.mode ?? ctx.displayMode });
  } catch (err) {
    emit('error', `Full screen was refused: ${err.message}`);
  }
}

/**
 * Exports the page shown. Where the host offers downloads, the picture `render`
 * draws is handed to it; otherwise `export` writes it beside the board and the
 * view says where.
 */
async function exportPage() {
  const { path, page } = bridge.shownBoard();
  const stem = (fileName(path) || 'board').replace(/\.(inkboard|json).*$/i, '') || 'board';
  const name = `${stem}-page${page}.png`;
  try {
    if (bridge.hostCapabilities().downloadFile) {
      const r = await bridge.request('tools/call', { name: 'render', arguments: { ...(path ? { path } : {}), page } });
      const png = (r.content ?? []).find((c) => c.type === 'image');
      if (!png) throw new Error('render drew no picture');
      await bridge.request('ui/download-file', {
        contents: [{ type: 'resource', resource: { uri: `file:///${name}`, mimeType: 'image/png', blob: png.data } }],
      });
      note(`Exported ${name}`);
      return;
    }
    if (!path) throw new Error('this board has no file yet: save it in inkboard first');
    const folder = path.slice(0, Math.max(0, path.search(/[\\/][^\\/]*$/)));
    for (let i = 1; i <= 9; i++) {
      const output = `${folder}/${i === 1 ? name : name.replace(/\.png$/, `-${i}.png`)}`;
      try {
        await bridge.callTool('export', { path, page, output });
        note(`Exported to ${output}`);
        return;
      } catch (err) {
        if (!/exists/i.test(err.message) || i === 9) throw err;
      }
    }
  } catch (err) {
    emit('error', `Export failed: ${err.message}`);
  }
}

function note(text) {
  const n = $('notice');
  n.textContent = text;
  n.hidden = false;
}

// ---- the model's context -----------------------------------------------------------

const edits = [];
let contextTimer = null;
let lastContext = '';

function remember(tool, args, result) {
  edits.push({ tool, args, result });
  if (edits.length > 50) edits.shift();
  queueContext();
}

function queueContext() {
  clearTimeout(contextTimer);
  contextTimer = setTimeout(sendContext, 400);
}

/** Tells the model, in one sentence, what the person did in the chat view and what is selected. */
function sendContext() {
  const selection = [...state.selection];
  if (!edits.length && !selection.length && !lastContext) return;
  const text = summary(edits, selection, state.objects, state.board);
  if (text === lastContext) return;
  lastContext = text;
  const { path, page } = bridge.shownBoard();
  bridge.updateModelContext(text, {
    board: path ?? null,
    page,
    revision: state.revision,
    selected: selection.map((id) => describe(id, state.objects)),
    edits: edits.map((e) => e.tool),
  }).catch(() => {});
}

window.inkboard = {
  drawn: () => drawn,
  /** Waits for the next full drawing (after a tool result); answers its timings. */
  nextDrawn: () => {
    drawn = new Promise((r) => { resolveDrawn = r; });
    return drawn;
  },
  revision: () => state.revision,
  objects: () => Object.fromEntries(state.objects),
  selection: () => [...state.selection],
  view: getView,
  setView,
};

boot();
