// views.js: the view (pan and zoom) of each page of each board, kept in the
// browser's storage so a reload, or the next visit, shows the page as it was left.
// A board is named by its file (board numbers are given anew at each start); the
// most recent 100 views are kept.

import { readStored, writeStored } from './stored.js';

const KEY = 'inkboard-views';
const LIMIT = 100;

function load() {
  const v = readStored(KEY, {});
  return v && typeof v === 'object' ? v : {};
}

/** The view left on page `page` of `board`, or null. */
export function storedView(board, page) {
  const v = load()[`${board}#${page}`];
  const ok = v && [v.x, v.y, v.zoom].every(Number.isFinite) && v.zoom > 0;
  return ok ? { x: v.x, y: v.y, zoom: v.zoom } : null;
}

/** Keeps the view of page `page` of `board`. */
export function storeView(board, page, view) {
  const all = load();
  const key = `${board}#${page}`;
  delete all[key];
  all[key] = { x: view.x, y: view.y, zoom: view.zoom };
  // Objects keep insertion order: the oldest go first.
  const keys = Object.keys(all);
  for (const k of keys.slice(0, Math.max(0, keys.length - LIMIT))) delete all[k];
  writeStored(KEY, all);
}
