// presence.js: who else is on this board, on a team server (docs/live-protocol.md,
// "Presence"). Keeps the others' `presence` notes by window (and agent) id, forgets one
// `gone` at once and one not heard of for EXPIRY_MS (a killed server says no goodbye; the
// live ones say where their windows are every 1.5 s), and sends this window's own `here`,
// at most one per 50 ms, the latest winning. The application (`inkboard open`) has one
// person: nothing is sent there, and nothing comes.

import { emit, on } from './state.js';
import { here } from './sync.js';

/** How long someone not heard of stays shown (the server's heartbeat is 1.5 s). */
export const EXPIRY_MS = 5000;
/** The shortest time between two `here` messages. */
const GAP_MS = 50;

const peers = new Map(); // id -> {note fields…, seen}

/** Everyone else present now: windows and agents, each as their last note says. */
export function present() {
  return [...peers.values()];
}

/** Takes a `presence` message from the server. */
export function takeNote(msg) {
  if (typeof msg.id !== 'string') return;
  if (msg.gone) {
    if (peers.delete(msg.id)) emit('presence', msg.id);
    return;
  }
  peers.set(msg.id, { ...msg, seen: performance.now() });
  emit('presence', msg.id);
}

function sweep() {
  const now = performance.now();
  let gone = false;
  for (const [id, p] of peers) {
    if (now - p.seen > EXPIRY_MS) {
      peers.delete(id);
      gone = true;
    }
  }
  if (gone) emit('presence', null);
}

setInterval(sweep, 500);
// Another board (or a new connection): those were on the old one.
on('boardswitch', () => {
  peers.clear();
  emit('presence', null);
});
on('reconnected', () => {
  peers.clear();
  emit('presence', null);
});

let last = -Infinity;
let timer = null;
let latest = null;

/** Says where this window is: {page, cursor, sel, view}; at most one message per 50 ms. */
export function share(state) {
  latest = state;
  const wait = GAP_MS - (performance.now() - last);
  if (wait <= 0) flush();
  else if (!timer) timer = setTimeout(flush, wait);
}

function flush() {
  timer = null;
  if (!latest) return;
  last = performance.now();
  here(latest);
  latest = null;
}
