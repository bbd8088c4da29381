// exportmenu.js: the Export menu: links that download the page shown as PNG, SVG
// or PDF from the server's /export, drawn by the same renderer as the screen. The
// download is fetched with the page key (a plain link would send the cookie only,
// which the server does not take for a board's contents) and saved from a blob.

import { state, emit, on } from './state.js';
import { icon } from './icons.js';
import { keyHeaders } from './sync.js';

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
    a.addEventListener('click', (e) => {
      e.preventDefault();
      details.open = false;
      download(a.href, a.download);
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

async function download(href, name) {
  try {
    const res = await fetch(href, { headers: keyHeaders() });
    if (!res.ok) throw new Error((await res.text()) || `the export failed (${res.status})`);
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  } catch (err) {
    emit('error', `Export: ${err.message}`);
  }
}
