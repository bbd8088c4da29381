// exportmenu.js: the Export menu: links that download the page shown as PNG, SVG
// or PDF from the server's /export, drawn by the same renderer as the screen.

import { state, on } from './state.js';
import { icon } from './icons.js';

const FORMATS = [['png', 'PNG image'], ['svg', 'SVG drawing'], ['pdf', 'PDF document']];
const links = [];

export function initExportMenu(el) {
  const details = document.createElement('details');
  details.className = 'menu';
  details.dataset.testid = 'export-menu';
  const summary = document.createElement('summary');
  summary.dataset.testid = 'export';
  summary.title = 'Export this page';
  summary.setAttribute('aria-label', 'Export this page');
  summary.append(icon('export'));
  const word = document.createElement('span');
  word.textContent = 'Export';
  summary.append(word);
  const list = document.createElement('div');
  list.className = 'menu-list';
  list.setAttribute('role', 'menu');
  for (const [format, label] of FORMATS) {
    const a = document.createElement('a');
    a.dataset.testid = `export-${format}`;
    a.dataset.format = format;
    a.setAttribute('role', 'menuitem');
    a.textContent = label;
    a.addEventListener('click', () => {
      details.open = false;
    });
    links.push(a);
    list.append(a);
  }
  details.append(summary, list);
  el.append(details);
  document.addEventListener('pointerdown', (e) => {
    if (details.open && !details.contains(e.target)) details.open = false;
  });
  on('board', update);
  update();
}

function fileName() {
  const base = (state.board?.title || state.board?.path?.split(/[\\/]/).pop()?.replace(/\.(inkboard|json).*$/i, '') || 'board')
    .replace(/[^\p{L}\p{N}_ -]+/gu, '').trim() || 'board';
  return `${base}-page${state.page}`;
}

function update() {
  for (const a of links) {
    const q = new URLSearchParams({ board: String(state.board?.board ?? ''), page: String(state.page), format: a.dataset.format });
    a.href = `/export?${q}`;
    a.download = `${fileName()}.${a.dataset.format}`;
  }
}
