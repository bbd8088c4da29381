// chat/bridge.js: the chat view's way to the server, in place of sync.js (the
// editor's WebSocket). It speaks the MCP Apps extension's JSON-RPC over postMessage
// with the host that shows the chat view (ui/initialize, tool input and result, model
// context, display mode, downloads), and offers the editor's modules sync.js's own
// functions (call, preview, draw, undo, redo, view), each a tools/call through the
// host to the app-only tools view_board, view_edit, view_preview and view_history. The server is
// the authority: every change the person makes is a tool call run as the user, and
// the chat view shows the drawing the answer brings. Nothing here reaches the network:
// the host relays every message.

import { state, emit } from '../sync/state.js';

/** What the chat view shows: the board's file (null: the board on screen in `inkboard open`) and page. */
const shown = { path: null, page: 1, started: false };
/** id -> the hash its drawing came with: sent back so only what differs comes again. */
const known = new Map();
let handlers = {};
let nextId = 1;
const waiting = new Map(); // JSON-RPC id -> {resolve, reject}
let host = { capabilities: {}, context: {} };
let busy = 0;
let pollTimer = null;
const POLL_MS = 2000;
const listeners = { ready: [], result: [], context: [] };

// ---- JSON-RPC over postMessage ------------------------------------------------

function post(message) {
  window.parent.postMessage({ jsonrpc: '2.0', ...message }, '*');
}

/** Sends a request to the host; resolves with its result, rejects with its error. */
export function request(method, params = {}) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    post({ id, method, params });
  });
}

function notify(method, params = {}) {
  post({ method, params });
}

window.addEventListener('message', (e) => {
  if (e.source !== window.parent) return;
  const m = e.data;
  if (!m || m.jsonrpc !== '2.0') return;
  if (m.method === undefined && m.id !== undefined) {
    const w = waiting.get(m.id);
    if (!w) return;
    waiting.delete(m.id);
    if (m.error) w.reject(new Error(m.error.message || 'The host refused the request.'));
    else w.resolve(m.result ?? {});
    return;
  }
  if (typeof m.method !== 'string') return;
  const answer = (result) => m.id !== undefined && post({ id: m.id, result });
  switch (m.method) {
    case 'ping':
    case 'ui/resource-teardown':
      answer({});
      break;
    case 'ui/notifications/tool-input':
      onToolInput(m.params?.arguments ?? {});
      break;
    case 'ui/notifications/tool-result':
      onToolResult(m.params ?? {});
      break;
    case 'ui/notifications/host-context-changed':
      host.context = { ...host.context, ...(m.params ?? {}) };
      for (const fn of listeners.context) fn(host.context);
      break;
    default:
      if (m.id !== undefined) post({ id: m.id, error: { code: -32601, message: `unknown method ${m.method}` } });
  }
});

/** Calls a tool of the server through the host; answers its structured result or throws its error text. */
export async function callTool(name, args) {
  const r = await request('tools/call', { name, arguments: args });
  if (r.isError) {
    const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join(' ');
    throw new Error(text || `${name} failed`);
  }
  return r.structuredContent ?? {};
}

// ---- the host's side of the chat view ------------------------------------------------

/** `fn(event, data)` hears: 'ready' (host facts), 'result' ({tool, args, result, asked}), 'context' (host context). */
export function onHost(event, fn) {
  listeners[event]?.push(fn);
}

export function hostCapabilities() {
  return host.capabilities ?? {};
}

export function hostContext() {
  return host.context ?? {};
}

let toolArgs = {};

function onToolInput(args) {
  toolArgs = args && typeof args === 'object' ? args : {};
  if (typeof toolArgs.path === 'string' && toolArgs.path) shown.path = toolArgs.path;
  const page = toolArgs.page;
  if (Number.isInteger(page) && page >= 1) shown.page = page;
  else if (typeof page === 'string' && page) shown.pageName = page;
}

async function onToolResult(result) {
  const meta = result._meta ?? {};
  const asked = Number.isInteger(meta['inkboard/revision']) ? meta['inkboard/revision'] : null;
  const where = meta['inkboard/board'];
  if (where && typeof where.path === 'string') shown.path = where.path;
  if (where && Number.isInteger(where.page)) shown.page = where.page;
  for (const fn of listeners.result) fn({ args: toolArgs, result, asked });
  known.clear();
  const drawn = meta['inkboard/view'];
  if (drawn?.board && drawn.scene) {
    // The result carries the drawing at the tool's revision: shown at once, then
    // brought up to date if the board has moved on since.
    apply(drawn);
    // Once the drawing is on screen: asked after the frame, so as not to delay it.
    requestAnimationFrame(() => setTimeout(() => load({ revision: asked }).catch(() => {})));
    return;
  }
  await load({ revision: asked, full: true });
}

/** Draws the board shown: afresh (`full`, or before anything is shown), else the changes since what the chat view holds. */
export async function load({ revision = null, full = false } = {}) {
  const args = { ...where() };
  if (revision != null) args.revision = revision;
  if (shown.started && !full) {
    args.known = Object.fromEntries(known);
    args.since = state.revision;
  }
  busy += 1;
  try {
    const out = await callTool('view_board', args);
    apply(out);
    return out;
  } catch (err) {
    emit('error', err.message);
    throw err;
  } finally {
    busy -= 1;
  }
}

function where() {
  const w = { page: shown.pageName && !shown.started ? shown.pageName : shown.page };
  if (shown.path) w.path = shown.path;
  return w;
}

/** Takes in a view tool's answer: the board's facts, then the scene. */
function apply(out) {
  const b = out.board;
  if (!b) return;
  shown.started = true;
  shown.page = b.page;
  if (b.path) shown.path = b.path;
  const scene = out.scene;
  if (scene) {
    if (scene.full) known.clear();
    for (const id of scene.removed ?? []) known.delete(id);
    for (const [id, item] of Object.entries(scene.items ?? {})) if (item.h) known.set(id, item.h);
  }
  handlers.onBoard?.({
    board: 0, title: b.title, path: b.path ?? null, pages: b.pages, page: b.page, revision: b.revision,
    undo: b.undo, redo: b.redo, save: b.path ? 'saved' : 'unsaved', save_error: null, offer: null, imported: null,
    changed_since: out.changed_since ?? null,
  });
  if (scene) handlers.onScene?.(scene);
}

// ---- sync.js's functions, for the editor's modules -------------------------------

/** Starts: handshake with the host. `h` has onBoard and onScene, as sync.connect takes. */
export function connect(h) {
  handlers = h;
  setConnection('connecting');
  request('ui/initialize', {
    appInfo: { name: 'inkboard', version: '1' },
    appCapabilities: { availableDisplayModes: ['inline', 'fullscreen'] },
    protocolVersion: '2026-01-26',
  }).then((r) => {
    host = { capabilities: r.hostCapabilities ?? {}, context: r.hostContext ?? {}, info: r.hostInfo ?? {} };
    notify('ui/notifications/initialized', {});
    setConnection('online');
    for (const fn of listeners.ready) fn(host);
    poll();
  }, (err) => {
    setConnection('offline');
    emit('error', `The host did not start the chat view: ${err.message}`);
  });
}

/** Tells the host how large the chat view would like to be. */
export function sizeChanged(width, height) {
  notify('ui/notifications/size-changed', { width, height });
}

/** Asks the host for the model's context to hold this (each update replaces the last). */
export function updateModelContext(text, structured) {
  return request('ui/update-model-context', {
    content: [{ type: 'text', text }],
    structuredContent: structured,
  });
}

/**
 * Looks for changes made elsewhere (the editor of `inkboard open`, another agent)
 * while the chat view is visible and idle: an answer with nothing new is small.
 */
function poll() {
  clearTimeout(pollTimer);
  pollTimer = setTimeout(async () => {
    if (shown.started && busy === 0 && document.visibilityState === 'visible') {
      try {
        await load();
      } catch {
        // Said in the status line; tried again next time.
      }
    }
    poll();
  }, POLL_MS);
}

function setConnection(c) {
  if (state.connection === c) return;
  state.connection = c;
  emit('connection', c);
}

/** The edits made in the chat view, for the model's context: `fn(tool, args, result)`. */
const editListeners = [];
export function onEdit(fn) {
  editListeners.push(fn);
}

/** Runs an edit tool on the board shown, as the person. Resolves with the tool's result. */
export async function call(tool, args = {}) {
  busy += 1;
  try {
    const out = await callTool('view_edit', {
      ...where(),
      tool,
      args: { page: state.page, ...args },
      since: state.revision,
      known: Object.fromEntries(known),
    });
    apply(out.view);
    for (const fn of editListeners) fn(tool, args, out.result);
    return out.result ?? {};
  } catch (err) {
    emit('error', err.message);
    load().catch(() => {});
    throw err;
  } finally {
    busy -= 1;
  }
}

/**
 * What an edit would redraw (a drag's connectors), from a dry run on the server:
 * the editor sends one at a time and draws the answer until the next scene.
 */
export async function preview(tool, args = {}) {
  try {
    const out = await callTool('view_preview', {
      ...where(), tool, args: { page: state.page, ...args }, known: Object.fromEntries(known),
    });
    return { items: out.items ?? {}, error: null };
  } catch (err) {
    return { items: {}, error: err.message };
  }
}

/** The fragments of these objects of the page shown (for a page too large to come whole). */
export async function draw(ids) {
  const out = await callTool('view_board', { ...where(), ids });
  return { items: out.fragments ?? {}, revision: out.board?.revision };
}

async function history(redo) {
  busy += 1;
  try {
    const out = await callTool('view_history', {
      ...where(), redo, since: state.revision, known: Object.fromEntries(known),
    });
    apply(out.view);
    if (out.done) for (const fn of editListeners) fn(redo ? 'redo' : 'undo', {}, {});
  } catch (err) {
    emit('error', err.message);
  } finally {
    busy -= 1;
  }
}

export function undo() {
  history(false);
}

export function redo() {
  history(true);
}

/** Every change is written by the call that makes it: nothing to save. */
export function save() {}

/** Shows another page of the board. */
export function view(page) {
  shown.page = page;
  shown.pageName = null;
  known.clear();
  load({ full: true }).catch(() => {});
}

/** The chat view loads nothing (its policy allows no fetch): no icon picker. */
export function icons() {
  return Promise.resolve(null);
}

export function takeKey() {}

export function keyHeaders() {
  return {};
}

/** Where board routes live (sync.js): the view has none of its own. */
export function base() {
  return '/';
}

export function resolve() {
  return Promise.reject(new Error('Choose between versions in the inkboard editor.'));
}

export function keepImport() {
  return Promise.reject(new Error('Save an imported board from the inkboard editor.'));
}

export function lastParseMs() {
  return 0;
}

/** The file and page shown (for exports and the model's context). */
export function shownBoard() {
  return { path: shown.path, page: shown.page };
}
