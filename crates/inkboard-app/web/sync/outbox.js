// outbox.js: changes made while the connection is down. A call the page cannot send waits
// here, in order, for at most AGE_MS and at most MAX of them (MAX_CHARS in all); when the connection is back
// and the board is drawn again, they are sent one by one as if made then, so the server's
// rules merge them with what others did meanwhile (the last change of a property wins, a
// deleted object stays deleted). What the server refuses is said once, together. A call
// already sent when the connection went is not sent again: it may have been made, and
// adding a shape twice is worse than asking the person to look.

import { state, emit } from './state.js';

/** How long a change may wait to be sent: older ones are dropped and said so. */
export const AGE_MS = 5 * 60 * 1000;
/** The most changes that wait; past that, a new one is refused at once. */
export const MAX = 500;
/**
 * The most they may weigh together, as JSON characters: a pasted image is megabytes, and
 * 500 of them would hold gigabytes in the tab.
 */
export const MAX_CHARS = 32 * 1024 * 1024;

const waiting = []; // {tool, args, at, chars, resolve}
let weight = 0;
let flushing = false;

/** How many changes wait to be sent. */
export function count() {
  return waiting.length;
}

/**
 * Keeps a call for later; answers its promise, settled when it is finally sent: with its
 * result, or with nothing when it was refused then (said once for all in the status line,
 * so the gesture that made it, long over, is not told again).
 */
export function hold(tool, args) {
  const chars = JSON.stringify(args).length;
  if (waiting.length >= MAX || weight + chars > MAX_CHARS) {
    emit('error', 'Offline: too many changes already wait to be sent; this one was not kept.');
    return Promise.resolve(undefined);
  }
  weight += chars;
  return new Promise((resolve) => {
    waiting.push({ tool, args, at: Date.now(), chars, resolve });
    emit('outbox', waiting.length);
  });
}

/**
 * Sends what waits, in order, through `send(tool, args)` (which answers the reply's
 * promise); stops if the connection goes again, keeping the rest.
 */
export async function flush(send) {
  if (flushing || !waiting.length) return;
  flushing = true;
  const refused = [];
  let sent = 0;
  try {
    while (waiting.length && state.connection === 'online') {
      const next = waiting[0];
      const done = () => {
        waiting.shift();
        weight -= next.chars;
      };
      if (Date.now() - next.at > AGE_MS) {
        done();
        refused.push(`${next.tool}: made offline more than 5 minutes ago`);
        next.resolve(undefined);
        continue;
      }
      let result;
      try {
        result = await send(next.tool, next.args);
      } catch (err) {
        if (state.connection !== 'online') break; // kept for the next connection
        done();
        refused.push(`${next.tool}: ${err.message}`);
        next.resolve(undefined);
        continue;
      }
      done();
      sent += 1;
      next.resolve(result);
    }
  } finally {
    flushing = false;
    emit('outbox', waiting.length);
  }
  if (refused.length) {
    const n = refused.length;
    emit('error', `${n} change${n === 1 ? '' : 's'} made offline could not be applied: ${refused.join('; ')}`);
  } else if (sent) {
    emit('info', `${sent} change${sent === 1 ? '' : 's'} made offline sent`);
  }
}
