// find.js: finding text on the board (Ctrl+F), as Excalidraw's and tldraw's find.
// A small bar over the board takes the words; the objects of the page whose text
// holds them (shapes, notes, frames' titles, connectors' labels, read without
// their Markdown marks, case ignored) are outlined, in reading order (rows from
// the top, each left to right). Enter selects the next one and brings it into
// view, Shift+Enter the one before; past the last match of a page the search goes
// on to the next page (shown, as a person would turn to it) and round to the
// first. Escape closes the bar and keeps the selection.
//
// Limitation: a window holds the objects of the page it shows only (and may not
// run `find`, a read tool), so other pages are searched by showing them in turn.

import { state, on, select, topOf } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import {
  layers, svgEl, rectAttrs, boundsOf, visibleRect, getView, setView, fitRect,
} from '../canvas/canvas.js';
import { contains, readingOrder } from '../canvas/geom.js';
import { icon } from './icons.js';
import { hint } from './shortcuts.js';

let bar = null;
let input = null;
let count = null;
/** The matches on the page shown, in reading order, and the one selected (-1: none yet). */
let matches = [];
let current = -1;
/** A search gone on to another page: {step, left} (pages still to try), or null. */
let walking = null;

/** The plain words of an object's text: Markdown marks, escapes and link targets left out. */
export function plainText(text) {
  return (text ?? '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\(.)/g, '$1')
    .replace(/\*\*|__|~~|[*_`]/g, '')
    .replace(/^ *(?:[-+•]|\d{1,9}[.)]) /gm, '');
}

/** The ids of the page's objects whose text holds `query`, in reading order. */
export function findOnPage(query) {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const found = [];
  for (const id of state.order) {
    const obj = state.objects.get(id);
    if (!obj?.text || !plainText(obj.text).toLowerCase().includes(q)) continue;
    const b = boundsOf(id);
    if (b) found.push({ id, b });
  }
  return readingOrder(found).map((f) => f.id);
}

/** Opens the find bar (or focuses it), its words selected. */
export function openFind() {
  if (!bar) build();
  bar.hidden = false;
  input.focus({ preventScroll: true });
  input.select();
  refresh();
}

export function isFindOpen() {
  return !!bar && !bar.hidden;
}

export function closeFind() {
  if (!bar || bar.hidden) return;
  bar.hidden = true;
  walking = null;
  layers.find?.replaceChildren();
  document.querySelector('[data-testid="canvas"]')?.focus({ preventScroll: true });
}

function button(parent, testid, title, text, fn) {
  const b = document.createElement('button');
  b.type = 'button';
  b.className = 'find-button';
  b.dataset.testid = testid;
  b.title = title;
  b.setAttribute('aria-label', title);
  b.textContent = text;
  b.addEventListener('click', fn);
  parent.append(b);
  return b;
}

function build() {
  bar = document.createElement('div');
  bar.className = 'find-bar';
  bar.dataset.testid = 'find-bar';
  bar.setAttribute('role', 'search');
  bar.append(icon('find'));
  input = document.createElement('input');
  input.type = 'search';
  input.placeholder = 'Find on the board';
  input.dataset.testid = 'find-input';
  input.setAttribute('aria-label', hint('find', 'Find text on the board'));
  input.addEventListener('input', () => {
    current = -1;
    walking = null;
    refresh();
  });
  input.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Enter') {
      e.preventDefault();
      step(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closeFind();
    }
  });
  count = document.createElement('span');
  count.className = 'find-count';
  count.dataset.testid = 'find-count';
  count.setAttribute('aria-live', 'polite');
  bar.append(input, count);
  button(bar, 'find-previous', 'Previous match (Shift+Enter)', '↑', () => step(-1));
  button(bar, 'find-next', 'Next match (Enter)', '↓', () => step(1));
  button(bar, 'find-close', 'Close (Escape)', '×', closeFind);
  document.querySelector('.workspace')?.append(bar);
  // The page shown changed (by the search, or by hand): its own matches.
  on('scene', (msg) => {
    if (!isFindOpen()) return;
    if (msg.full && walking) arrive();
    else refresh();
  });
  on('boardswitch', closeFind);
  on('viewcommit', () => isFindOpen() && outline());
}

/** The matches of the words on the page shown, outlined, and the count said. */
function refresh() {
  const was = matches[current];
  matches = findOnPage(input.value);
  current = was ? matches.indexOf(was) : -1;
  outline();
  say();
}

function say() {
  const pages = state.board?.pages ?? [];
  const name = pages.length > 1 ? ` · ${pages.find((p) => p.number === state.page)?.name ?? ''}` : '';
  if (!input.value.trim()) count.textContent = '';
  else if (!matches.length) count.textContent = pages.length > 1 ? `None on this page${name}` : 'No match';
  else count.textContent = `${current < 0 ? '–' : current + 1} of ${matches.length}${name}`;
}

/** Outlines every match on the page, the current one stronger. */
function outline() {
  const g = layers.find;
  if (!g) return;
  g.replaceChildren();
  const pad = 4 / getView().zoom;
  matches.forEach((id, i) => {
    const b = boundsOf(id);
    if (!b) return;
    svgEl('rect', {
      class: i === current ? 'find-match current' : 'find-match',
      ...rectAttrs({ x: b.x - pad, y: b.y - pad, w: b.w + 2 * pad, h: b.h + 2 * pad }),
      rx: 4 / getView().zoom,
    }, g);
  });
}

/** Goes to the next match (`dir` 1) or the one before (-1), on to other pages past the ends. */
function step(dir) {
  const pages = state.board?.pages ?? [];
  const next = current + dir;
  if (matches.length && next >= 0 && next < matches.length) {
    show(next);
    return;
  }
  if (pages.length > 1 && input.value.trim()) {
    // Every other page once, then this one again from its other end.
    walking = { dir, left: pages.length };
    turnPage();
    return;
  }
  if (matches.length) show(dir > 0 ? 0 : matches.length - 1);
}

/** Shows the next page of the walk (in the walk's direction, round the ends). */
function turnPage() {
  const pages = (state.board?.pages ?? []).map((p) => p.number);
  const at = pages.indexOf(state.page);
  const n = pages[(at + walking.dir + pages.length) % pages.length];
  walking.left -= 1;
  select([]);
  sync.view(n);
}

/** A page of the walk is shown: its first (or last) match, or on to the next page. */
function arrive() {
  matches = findOnPage(input.value);
  current = -1;
  if (matches.length) {
    const { dir } = walking;
    walking = null;
    show(dir > 0 ? 0 : matches.length - 1);
    return;
  }
  outline();
  say();
  if (walking.left > 0) turnPage();
  else walking = null;
}

/** Selects match `i` and brings it into view. */
function show(i) {
  current = i;
  const id = matches[i];
  select([topOf(id)]);
  const b = boundsOf(id);
  if (b && !contains(visibleRect(), b)) {
    const v = visibleRect();
    const z = getView().zoom;
    // Centred at this zoom when it fits with room around it, else fitted.
    if (b.w < v.w * 0.8 && b.h < v.h * 0.8) {
      setView({ x: b.x + b.w / 2 - v.w / 2, y: b.y + b.h / 2 - v.h / 2, zoom: z });
    } else {
      fitRect(b, { maxZoom: z });
    }
  }
  outline();
  say();
}
