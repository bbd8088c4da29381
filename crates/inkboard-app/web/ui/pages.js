// pages.js: the page tabs at the bottom. Click switches page, double-click renames
// in place, × deletes (after a confirmation), + adds a page and shows it.

import { state, on, select } from '../sync/state.js';
import * as sync from '../sync/sync.js';
import { renameField } from './rename.js';

let bar;
let editing = false;

export function initPages(el) {
  bar = el;
  bar.setAttribute('role', 'tablist');
  bar.setAttribute('aria-label', 'Pages');
  on('board', () => {
    if (!editing) render();
  });
}

/** Shows page `n` of this board. */
function showPage(n) {
  if (n === state.page) return;
  select([]);
  sync.view(n);
}

function render() {
  bar.replaceChildren();
  const pages = state.board?.pages ?? [];
  for (const p of pages) {
    const current = p.number === state.page;
    const tab = document.createElement('div');
    tab.className = 'page-tab';
    tab.classList.toggle('current', current);
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'page-name';
    b.textContent = p.name;
    b.title = current ? `${p.name} (double-click to rename)` : p.name;
    b.dataset.testid = `page-tab-${p.number}`;
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(current));
    b.addEventListener('click', () => showPage(p.number));
    b.addEventListener('dblclick', () => rename(tab, b, p));
    tab.append(b);
    if (current && pages.length > 1) {
      const x = document.createElement('button');
      x.type = 'button';
      x.className = 'page-delete';
      x.textContent = '×';
      x.title = `Delete ${p.name}`;
      x.setAttribute('aria-label', `Delete page ${p.name}`);
      x.dataset.testid = `page-delete-${p.number}`;
      x.addEventListener('click', () => remove(p));
      tab.append(x);
    }
    bar.append(tab);
  }
  const add = document.createElement('button');
  add.type = 'button';
  add.className = 'page-add';
  add.textContent = '+';
  add.title = 'Add a page';
  add.setAttribute('aria-label', 'Add a page');
  add.dataset.testid = 'add-page';
  add.addEventListener('click', addPage);
  bar.append(add);
}

function freeName() {
  const names = new Set((state.board?.pages ?? []).map((p) => p.name));
  for (let n = (state.board?.pages.length ?? 0) + 1; ; n++) {
    if (!names.has(`Page ${n}`)) return `Page ${n}`;
  }
}

async function addPage() {
  try {
    const r = await sync.call('add_page', { name: freeName() });
    if (r?.page) showPage(r.page);
  } catch {
    // shown by the status line
  }
}

function rename(tab, button, p) {
  if (p.number !== state.page) return;
  editing = true;
  renameField({
    value: p.name,
    className: 'page-rename',
    testid: 'page-rename-input',
    label: 'Page name',
    place: (input) => button.replaceWith(input),
    done: (name) => {
      editing = false;
      if (name) sync.call('rename_page', { page: p.number, name }).catch(() => {}).finally(render);
      else render();
    },
  });
}

async function remove(p) {
  if (!window.confirm(`Delete page "${p.name}" and everything on it?`)) return;
  try {
    await sync.call('delete_page', { page: p.number });
    select([]);
    sync.view(Math.max(1, p.number - 1));
  } catch {
    // shown by the status line
  }
}
