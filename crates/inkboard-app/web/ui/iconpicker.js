// iconpicker.js: the style panel's Icon section for selected shapes: a button
// showing the icon they have (or "None"), which opens a picker: a search field
// that filters the set by name and tag as one types (the set is the server's,
// `/assets/icons.json`, the one the renderer draws and `update` takes), a grid of
// the icons found, drawn as the renderer draws them (stroked, round caps and
// joins, no fill), and "No icon". A click sends one `update` with `icon`, as an
// agent would; the drawing then comes from the server like any other change.
// The panel is rebuilt on every change of the scene, so whether the picker is
// open and what was typed live here, not in its elements.

import * as sync from '../sync/sync.js';
import { el } from './popover.js';

const NS = 'http://www.w3.org/2000/svg';
/** The most icons shown at once: a short word matches many; typing narrows. */
const MAX_SHOWN = 60;

/** Whether the picker is open, and its search text, across the panel's rebuilds. */
const picker = { open: false, query: '' };
/** The set once loaded: [{name, tags, path}], or null before (or in the chat view). */
let set = null;
let loading = false;

/** A 24-unit line icon drawn from path data `d`, as the renderer strokes it. */
export function iconSvg(d, size = 20) {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('aria-hidden', 'true');
  const p = document.createElementNS(NS, 'path');
  p.setAttribute('d', d);
  for (const [k, v] of [['fill', 'none'], ['stroke', 'currentColor'], ['stroke-width', '2'],
    ['stroke-linecap', 'round'], ['stroke-linejoin', 'round']]) p.setAttribute(k, v);
  svg.append(p);
  return svg;
}

/** The icons of the set matching `query`: names starting with it first, then
 * names holding it, then tags holding it. */
export function search(query) {
  const q = query.trim().toLowerCase().replace(/[\s_]+/g, '-');
  if (!set) return [];
  if (!q) return set.slice(0, MAX_SHOWN);
  const starts = [];
  const holds = [];
  const tagged = [];
  for (const icon of set) {
    if (icon.name.startsWith(q)) starts.push(icon);
    else if (icon.name.includes(q)) holds.push(icon);
    else if (icon.tags.some((t) => t.includes(q))) tagged.push(icon);
  }
  return [...starts, ...holds, ...tagged].slice(0, MAX_SHOWN);
}

/**
 * Adds the Icon section for `shapes` (selected shapes) to `parent`, calling
 * `rebuild` when it changes what it shows.
 */
export function iconSection(parent, shapes, rebuild) {
  if (!shapes.length) return;
  if (!set && !loading) {
    loading = true;
    Promise.resolve(sync.icons?.()).then((data) => {
      if (!data) return;
      set = data.icons.map(([name, tags, path]) => ({ name, tags: tags ? tags.split(',') : [], path }));
      loading = false;
      rebuild();
      focusSearch();
    }).catch(() => {}).finally(() => { loading = false; });
  }
  const names = new Set(shapes.map((s) => s.icon ?? ''));
  const current = names.size === 1 ? [...names][0] : null;
  const row = el('div', { className: 'choices icon-row' }, parent);
  const shown = current && set?.find((i) => i.name === current);
  const b = el('button', {
    type: 'button', className: 'choice icon-current', testid: 'icon-button',
    title: 'Choose an icon', 'aria-expanded': String(picker.open),
  }, row);
  b.setAttribute('aria-label', 'Choose an icon');
  if (shown) b.append(iconSvg(shown.path, 18));
  b.append(document.createTextNode(current === null ? 'Mixed' : current || 'None'));
  b.addEventListener('click', (e) => {
    // Not handed back to the board (surface.js does that for other buttons):
    // the keyboard goes to the search that opens.
    e.stopPropagation();
    picker.open = !picker.open;
    rebuild();
    // After the rebuild, which puts the focus back on this button: typing goes
    // straight to the search.
    focusSearch();
  });
  if (!picker.open) return;
  const box = el('div', { className: 'icon-picker', testid: 'icon-picker' }, parent);
  if (!set) {
    el('p', { className: 'icon-note', text: loading ? 'Loading icons…' : 'No icons here.' }, box);
    return;
  }
  const input = el('input', {
    type: 'search', className: 'icon-search', placeholder: 'Search icons', testid: 'icon-search',
    'aria-label': 'Search icons', value: picker.query, maxLength: 60,
  }, box);
  const grid = el('div', { className: 'icon-grid', role: 'listbox', 'aria-label': 'Icons' }, box);
  const choose = (name) => {
    picker.open = false;
    picker.query = '';
    sync.call('update', { ids: shapes.map((s) => s.id), icon: name }).catch(() => {});
    rebuild();
  };
  const fillGrid = () => {
    grid.replaceChildren();
    const found = search(picker.query);
    for (const icon of found) {
      const cell = el('button', {
        type: 'button', className: 'icon-cell', testid: `icon-${icon.name}`, title: icon.name,
        role: 'option', 'aria-selected': String(icon.name === current),
      }, grid);
      cell.setAttribute('aria-label', icon.name);
      cell.append(iconSvg(icon.path, 22));
      cell.addEventListener('click', () => choose(icon.name));
    }
    if (!found.length) el('p', { className: 'icon-note', text: 'No icon matches.' }, grid);
  };
  fillGrid();
  // Typing filters in place: the panel is not rebuilt, so the field keeps focus.
  input.addEventListener('input', () => {
    picker.query = input.value;
    fillGrid();
  });
  input.addEventListener('keydown', (e) => {
    // The editor's shortcuts (Delete, letters for tools) are not for this field.
    e.stopPropagation();
    if (e.key === 'Escape') {
      picker.open = false;
      rebuild();
    }
    if (e.key === 'Enter') {
      const first = search(picker.query)[0];
      if (first) choose(first.name);
    }
  });
  if (current) {
    const none = el('button', { type: 'button', className: 'choice', text: 'No icon', testid: 'icon-none' }, box);
    none.addEventListener('click', () => choose(''));
  }
}

function focusSearch() {
  if (picker.open) document.querySelector('[data-testid="icon-search"]')?.focus({ preventScroll: true });
}
