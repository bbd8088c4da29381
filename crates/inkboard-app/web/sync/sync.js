// sync.js: the one WebSocket to the server (docs/live-protocol.md). Sends intents
// (hello, view, focus, call, preview, draw, undo, redo, save, resolve, here), hands server messages to
// the page, keeps one promise per `seq`, and reconnects with backoff. It keeps the page key
// (given once in the sign-in redirect's fragment) in the origin's storage, which other ports
// cannot read, and offers it with every connection: so a tab signs in again by itself when
// inkboard restarts, and says whether it waits for inkboard or needs a new link.

import { state, emit } from './state.js';
import { takeNote } from './presence.js';
import * as outbox from './outbox.js';

let socket = null;
let seq = 0;
const pending = new Map(); // seq -> {resolve, reject}
let retry = 0;
let retryTimer = null;
let handlers = {};
let parseMs = 0;
/** Board and page to ask for on (re)connection; null board = "the board on screen". */
const wanted = { board: null, page: 1, path: null };
/** Whether the connection was up once: a later 'online' is a reconnection. */
let wasOnline = false;
const KEY = 'inkboard-key';

/** Keeps the page key from the sign-in redirect (`#key=…`) and takes it out of the address. */
export function takeKey() {
  const hash = new URLSearchParams(location.hash.slice(1));
  const key = hash.get('key');
  if (!key) return;
  try {
    localStorage.setItem(KEY, key);
  } catch {
    sessionKey = key;
  }
  hash.delete('key');
  const rest = hash.toString();
  history.replaceState(null, '', rest ? `#${rest}` : location.pathname);
}

/**
 * Where this page's board routes live: `/` for `inkboard open`, `/b/BOARD/` on a team server
 * (its page names it in `<meta name="inkboard-base">`). The WebSocket is `${base()}ws`.
 */
export function base() {
  return document.querySelector('meta[name="inkboard-base"]')?.content || '/';
}

/** Where storage is refused (a private mode), the key lives as long as the page. */
let sessionKey = null;

function pageKey() {
  try {
    return localStorage.getItem(KEY) ?? sessionKey;
  } catch {
    return sessionKey;
  }
}

/** The headers that carry the page key on a fetch of a board's contents. */
export function keyHeaders() {
  const key = pageKey();
  return key ? { 'X-Inkboard-Key': key } : {};
}

/** Starts the connection. `h` has onBoard, onScene, onPreview (each gets the message). */
export function connect(h, { board = null, page = 1 } = {}) {
  handlers = h;
  wanted.board = board;
  wanted.page = page;
  open();
  window.addEventListener('focus', () => send({ t: 'focus' }));
}

function setConnection(c) {
  if (state.connection === c) return;
  state.connection = c;
  emit('connection', c);
}

function open() {
  clearTimeout(retryTimer);
  setConnection('connecting');
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${base()}ws`;
  const key = pageKey();
  let ws;
  try {
    ws = new WebSocket(url, key ? ['inkboard', `inkboard.key.${key}`] : ['inkboard']);
  } catch (err) {
    console.error('inkboard: cannot open the WebSocket', err);
    scheduleRetry();
    return;
  }
  socket = ws;
  ws.addEventListener('open', () => {
    retry = 0;
    if (wasOnline) emit('reconnected');
    wasOnline = true;
    setConnection('online');
    hello();
    if (document.hasFocus()) send({ t: 'focus' });
  });
  ws.addEventListener('message', (ev) => {
    let msg;
    try {
      const t0 = performance.now();
      msg = JSON.parse(ev.data);
      parseMs = performance.now() - t0;
    } catch {
      console.error('inkboard: a message that is not JSON', ev.data);
      return;
    }
    receive(msg);
  });
  ws.addEventListener('close', () => {
    if (socket !== ws) return;
    socket = null;
    failPending('The connection to inkboard was lost.');
    setConnection('offline');
    scheduleRetry();
    diagnose();
  });
  ws.addEventListener('error', () => {
    // 'close' follows and does the work.
  });
}

/**
 * Tells why the connection failed: no answer is "inkboard is not running" (offline), a 401
 * is "signed out" (inkboard runs but does not know this tab: its session ended).
 */
async function diagnose() {
  let signedOut = false;
  try {
    const res = await fetch('/api/session', { headers: keyHeaders(), cache: 'no-store' });
    signedOut = res.status === 401 || res.status === 403;
  } catch {
    // No answer: inkboard is not running (yet).
  }
  if (state.connection !== 'online') setConnection(signedOut ? 'signed-out' : 'offline');
}

function scheduleRetry() {
  const delay = Math.min(10000, 400 * 2 ** retry) * (0.8 + Math.random() * 0.4);
  retry = Math.min(retry + 1, 8);
  retryTimer = setTimeout(open, delay);
}

function failPending(message) {
  for (const p of pending.values()) p.reject(new Error(message));
  pending.clear();
}

/** Resolves the request waiting for this answer's `seq`, if one is. */
function settle(msg) {
  const p = pending.get(msg.seq);
  if (!p) return;
  pending.delete(msg.seq);
  p.resolve(msg);
}

function receive(msg) {
  switch (msg.t) {
    case 'board':
      wanted.board = msg.board;
      wanted.page = msg.page;
      wanted.path = msg.path ?? null;
      handlers.onBoard?.(msg);
      // Back on line, the board drawn again: what was changed offline goes now.
      if (outbox.count()) outbox.flush(sendCall);
      break;
    case 'scene':
      handlers.onScene?.(msg);
      break;
    case 'reply': {
      const p = pending.get(msg.seq);
      if (!p) break;
      pending.delete(msg.seq);
      if (msg.ok) p.resolve(msg.result ?? {});
      else p.reject(new Error(msg.error || 'The server refused the change.'));
      break;
    }
    case 'preview':
      handlers.onPreview?.(msg);
      settle(msg);
      break;
    case 'fragments':
      settle(msg);
      break;
    case 'presence':
      takeNote(msg);
      break;
    case 'error':
      // An undo refused, or one that could not take back all of one's step
      // (what others changed since stays): said on the status line.
      emit('error', msg.error);
      break;
    case 'switch':
      wanted.board = msg.board;
      wanted.page = 1;
      wanted.path = null;
      helloFocused();
      break;
    default:
      console.warn('inkboard: unknown message', msg.t);
  }
}

/** Sends a message if connected; returns whether it went out. */
function send(msg) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return false;
  socket.send(JSON.stringify(msg));
  return true;
}

function hello() {
  const msg = { t: 'hello' };
  if (wanted.board != null) msg.board = wanted.board;
  if (wanted.page != null) msg.page = wanted.page;
  // After a restart, board numbers are given anew: the file names the board.
  if (wanted.path != null) msg.path = wanted.path;
  send(msg);
}

/**
 * Asks for another board and, when this window has the focus, makes it the board
 * on screen: path-less MCP calls then edit the board the person sees, not the one
 * the window showed before.
 */
function helloFocused() {
  hello();
  if (document.hasFocus()) send({ t: 'focus' });
}

/** Sends `msg` with a new `seq`; resolves with the answer bearing that `seq`. */
function ask(msg, offline) {
  return new Promise((resolve, reject) => {
    const s = ++seq;
    if (!send({ ...msg, seq: s })) {
      reject(new Error(offline));
      return;
    }
    pending.set(s, { resolve, reject });
  });
}

function request(t, tool, args) {
  return ask({ t, tool, args: { page: state.page, ...args } }, 'Not connected to inkboard: the change was not sent.');
}

/**
 * Runs a tool on this window's board as the user. Resolves with its result. Offline (or
 * while changes made offline still wait), it waits in the outbox and is sent, in order,
 * once the connection is back; what is refused then is said together.
 */
export function call(tool, args = {}) {
  const full = { page: state.page, ...args };
  if (state.connection !== 'online' || outbox.count()) return outbox.hold(tool, full);
  return sendCall(tool, full).catch((err) => {
    emit('error', err.message);
    throw err;
  });
}

function sendCall(tool, args) {
  return ask({ t: 'call', tool, args }, 'Not connected to inkboard: the change was not sent.');
}

/** Runs an edit tool on a draft; resolves with the `preview` message. */
export function preview(tool, args = {}) {
  return request('preview', tool, args);
}

/**
 * Turns rich text between the Markdown a shape holds and the HTML the text editor
 * shows it in (`/api/rich`, the server's one grammar): `{markdown}` answers `{html}`,
 * `{html, before}` answers `{markdown}`. The chat view has no such call (its
 * bridge.js), so its text editor stays on the Markdown source.
 */
export async function rich(body) {
  const res = await fetch('/api/rich', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...keyHeaders() },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`rich text: ${res.status}`);
  return res.json();
}

/**
 * The icon set shapes can show, for the icon picker: `{source, version, icons:
 * [[name, tags, path], ...]}`, served beside the editor's files from the set the
 * renderer draws. Asked once; the chat view's bridge.js has none.
 */
let iconSet = null;
export function icons() {
  iconSet ??= fetch('/assets/icons.json').then((res) => {
    if (!res.ok) throw new Error(`icons: ${res.status}`);
    return res.json();
  });
  iconSet.catch(() => { iconSet = null; });
  return iconSet;
}

/** Asks for the fragments of objects `ids`; resolves with the `fragments` message. */
export function draw(ids) {
  return ask({ t: 'draw', ids }, 'Not connected to inkboard.');
}

export function undo() {
  send({ t: 'undo' });
}

export function redo() {
  send({ t: 'redo' });
}

export function save() {
  send({ t: 'save' });
}

/** Settles the version offered in the banner: 'mine', 'theirs' or 'both'. Resolves with {opened}. */
export function resolve(choice) {
  return ask({ t: 'resolve', choice }, 'Not connected to inkboard: the choice was not sent.');
}

/** Saves a board imported from another program's file as the board file the banner offers. Resolves with {path}. */
export function keepImport() {
  return ask({ t: 'keepimport' }, 'Not connected to inkboard: the board was not saved.');
}

/** Says where this window's person is (a team server's presence): {page, cursor, sel, view}. */
export function here(msg) {
  send({ t: 'here', ...msg });
}

/** Shows board `board` (page `page`) in this window; `path` names it if inkboard restarted. */
export function showBoard(board, page = 1, path = null) {
  wanted.board = board;
  wanted.page = page;
  wanted.path = path;
  helloFocused();
}

/** Shows another page of this board. */
export function view(page) {
  wanted.page = page;
  send({ t: 'view', page });
}

/** How long the last message took to parse (ms). */
export function lastParseMs() {
  return parseMs;
}
