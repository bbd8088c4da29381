// people.js: who is on the board, on a team server. The top bar lists everyone else present
// (sync/presence.js), one entry per person in their colour however many windows they have
// open, and "NAME's agent" while their agent works; this window says where it is (pointer,
// selection, view) as it changes. Clicking a person follows their view: this window shows
// what their latest window shows, page included, until the person pans or zooms themselves
// (or clicks them again). Names are data: textContent only.

import { state, on } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import { present, share } from '../sync/presence.js';
import { toBoard, visibleRect, setView, viewport } from '../canvas/canvas.js';

let list = null;
let canvas = null;
/** The pointer on the board ([x, y]), null when it is off the canvas. */
let cursor = null;
/** The person followed (their name), or null. */
let following = null;
/** Set while this module moves the view, so that only the person's own moves stop following. */
let applying = false;
/** Set from asking for the followed person's page until its scene is shown. */
let switching = false;

export function initPeople(actions, canvasEl) {
  canvas = canvasEl;
  list = document.createElement('div');
  list.className = 'people';
  list.dataset.testid = 'people';
  list.setAttribute('role', 'list');
  list.setAttribute('aria-label', 'People on this board');
  list.hidden = true;
  actions.prepend(list);
  // On the window, before the canvas's own handlers (a pan takes its events).
  window.addEventListener('pointermove', onPointer, { capture: true, passive: true });
  canvas.addEventListener('pointerleave', () => {
    cursor = null;
    tell();
  });
  on('selection', tell);
  on('view', () => {
    tell();
    if (following && !applying && !switching) follow(null);
  });
  on('board', (msg) => {
    if (!msg.who) return;
    list.hidden = false;
    tell();
    render();
  });
  on('presence', () => {
    render();
    if (following) showFollowed();
  });
  on('scene', (msg) => {
    if (switching && msg.full && msg.page === state.page) {
      switching = false;
      showFollowed();
    }
  });
}

function onPointer(e) {
  if (!state.board?.who) return;
  const r = canvas.getBoundingClientRect();
  if (e.clientX < r.left || e.clientY < r.top || e.clientX > r.right || e.clientY > r.bottom) return;
  const p = toBoard(e.clientX, e.clientY);
  cursor = [Math.round(p.x * 10) / 10, Math.round(p.y * 10) / 10];
  tell();
}

/** Says where this window is (on a team server only). */
function tell() {
  if (!state.board?.who) return;
  const v = visibleRect();
  share({
    page: state.page,
    cursor,
    sel: [...state.selection].slice(0, 100),
    view: [v.x, v.y, v.w, v.h],
  });
}

/** Everyone present, one entry per person and one per person's agent, newest first. */
function people() {
  const byKey = new Map();
  for (const p of present()) {
    const key = `${p.agent ? 'agent' : 'person'}:${p.person}`;
    const had = byKey.get(key);
    if (!had || p.seen > had.seen) byKey.set(key, p);
  }
  return [...byKey.values()].sort((a, b) => (a.person + a.agent).localeCompare(b.person + b.agent));
}

function render() {
  if (!list || list.hidden) return;
  const entries = people();
  if (following && !entries.some((p) => !p.agent && p.person === following)) follow(null, false);
  list.replaceChildren();
  for (const p of entries) {
    const name = p.agent ? `${p.person}'s agent` : p.person;
    const b = document.createElement('button');
    b.type = 'button';
    b.className = `person${p.agent ? ' agent' : ''}`;
    b.dataset.testid = 'person';
    b.dataset.name = name;
    b.setAttribute('role', 'listitem');
    b.style.setProperty('--person', p.color);
    const dot = document.createElement('span');
    dot.className = 'dot';
    const label = document.createElement('span');
    label.className = 'name';
    label.textContent = name;
    b.append(dot, label);
    if (p.agent) {
      b.disabled = true;
      b.title = `${name} is working on this board`;
    } else {
      const on = following === p.person;
      b.setAttribute('aria-pressed', String(on));
      b.title = on ? `Following ${name}: click to stop` : `Follow ${name}'s view`;
      b.addEventListener('click', () => follow(on ? null : p.person));
    }
    list.append(b);
  }
  if (following) {
    const note = document.createElement('span');
    note.className = 'following';
    note.dataset.testid = 'following';
    note.textContent = `Following ${following}`;
    list.append(note);
  }
}

/** Follows `person` (null: stops), and shows their view now. */
function follow(person, draw = true) {
  following = person;
  switching = false;
  list.classList.toggle('is-following', !!person);
  if (person) showFollowed();
  if (draw) render();
}

/** The followed person's latest window with a view: this window shows the same. */
function showFollowed() {
  const theirs = present()
    .filter((p) => !p.agent && p.person === following && p.view)
    .sort((a, b) => b.seen - a.seen)[0];
  if (!theirs || switching) return;
  if (theirs.page !== state.page && state.board?.pages?.some((pg) => pg.number === theirs.page)) {
    switching = true;
    sync.view(theirs.page);
    return;
  }
  const [x, y, w, h] = theirs.view;
  const { w: W, h: H } = viewport();
  const zoom = Math.min(W / w, H / h);
  applying = true;
  try {
    setView({ x: x + w / 2 - W / 2 / zoom, y: y + h / 2 - H / 2 / zoom, zoom });
  } finally {
    applying = false;
  }
}

/** Whom this window follows (a name), or null. */
export function followed() {
  return following;
}
