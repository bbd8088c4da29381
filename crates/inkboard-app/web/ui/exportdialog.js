// exportdialog.js: the Export dialog, as Excalidraw's export image dialog: the
// page shown as PNG, SVG or PDF, at 1×, 2× or 3× (PNG), on a transparent
// background or not, all of it or only the selection, light or dark, downloaded
// from the server's /export, drawn by the same renderer as the screen. The
// download is fetched with the page key (a plain link would send the cookie
// only, which the server does not take for a board's contents) and saved from a
// blob. The Export button or Ctrl+Shift+E (an 'export' event from keyboard.js)
// opens it; Escape or a press outside closes it; the choices are kept for the
// next export in the browser's storage.
//
// Every choice goes in the /export address as the `export` tool names it
// (`format`, `scale`, `theme`; `background=transparent` and `ids`, which the
// route does not take yet, are passed as they will be named), so the dialog needs
// no change when the route takes them.

import { state, emit, on } from '../sync/state.js';
import { icon } from './icons.js';
import { keyHeaders, base } from '../sync/sync.js';
import { hint } from './shortcuts.js';
import { readStored, writeStored } from '../sync/stored.js';
import { el, dismissable } from './popover.js';

const FORMATS = [['png', 'PNG'], ['svg', 'SVG'], ['pdf', 'PDF']];
const SCALES = [1, 2, 3];
const KEY = 'inkboard-export';

let dialog = null;
let opener = null;
let download = null;
/** Takes the dialog's Escape and outside-press closing off again. */
let undismiss = null;
/** The choices: {format, scale, transparent, selection, dark}. */
const choices = { format: 'png', scale: 2, transparent: false, selection: false, dark: false, ...stored() };

function stored() {
  const v = readStored(KEY, {});
  if (!v || typeof v !== 'object') return {};
  const out = {};
  if (FORMATS.some(([f]) => f === v.format)) out.format = v.format;
  if (SCALES.includes(v.scale)) out.scale = v.scale;
  for (const k of ['transparent', 'dark']) if (typeof v[k] === 'boolean') out[k] = v[k];
  return out;
}

export function initExportDialog(el) {
  opener = document.createElement('button');
  opener.type = 'button';
  opener.className = 'export-button';
  opener.dataset.testid = 'export';
  const title = hint('export', 'Export this page');
  opener.title = title;
  opener.setAttribute('aria-label', title);
  opener.setAttribute('aria-haspopup', 'dialog');
  opener.setAttribute('aria-expanded', 'false');
  opener.append(icon('export'));
  const word = document.createElement('span');
  word.textContent = 'Export';
  opener.append(word);
  opener.addEventListener('click', () => (dialog ? closeExport() : openExport()));
  el.append(opener);
  on('export', () => (dialog ? closeExport() : openExport()));
  on('board', update);
  on('selection', update);
  on('boardswitch', closeExport);
}

function fileName() {
  const base = (state.board?.title || state.board?.path?.split(/[\\/]/).pop()?.replace(/\.(inkboard|json).*$/i, '') || 'board')
    .replace(/[^\p{L}\p{N}_ -]+/gu, '').trim() || 'board';
  return `${base}-page${state.page}${choices.selection && state.selection.size ? '-selection' : ''}`;
}

/** The /export address of the choices made. */
export function exportHref() {
  const q = new URLSearchParams({ board: String(state.board?.board ?? ''), page: String(state.page), format: choices.format });
  if (choices.format === 'png') q.set('scale', String(choices.scale));
  if (choices.dark) q.set('theme', 'dark');
  if (choices.transparent && choices.format !== 'pdf') q.set('background', 'transparent');
  if (choices.selection && state.selection.size) q.set('ids', [...state.selection].join(','));
  return `${base()}export?${q}`;
}


/** A row of buttons, one pressed: the format, the scale. */
function choiceRow(parent, label, options, get, set, testid) {
  const row = el('div', { className: 'export-row', role: 'group', 'aria-label': label }, parent);
  el('span', { className: 'export-label', text: label }, row);
  const buttons = [];
  for (const [value, text] of options) {
    const b = el('button', { type: 'button', className: 'choice', text, testid: `${testid}-${value}` }, row);
    b.addEventListener('click', () => {
      set(value);
      update();
    });
    buttons.push([value, b]);
  }
  return () => {
    for (const [value, b] of buttons) b.setAttribute('aria-pressed', String(get() === value));
  };
}

/** A checkbox bound to a choice. */
function checkRow(parent, label, key, testid) {
  const row = el('label', { className: 'export-check' }, parent);
  const box = el('input', { type: 'checkbox', testid }, row);
  el('span', { text: label }, row);
  box.addEventListener('change', () => {
    choices[key] = box.checked;
    update();
  });
  return box;
}

let refreshers = [];
let boxes = {};

function openExport() {
  closeExport();
  dialog = el('div', {
    className: 'export-dialog', role: 'dialog', 'aria-label': 'Export', testid: 'export-dialog',
  }, opener.parentElement);
  el('h2', { text: 'Export this page' }, dialog);
  refreshers = [
    choiceRow(dialog, 'Format', FORMATS, () => choices.format, (v) => { choices.format = v; }, 'export-format'),
    choiceRow(dialog, 'Scale', SCALES.map((s) => [s, `${s}×`]), () => choices.scale, (v) => { choices.scale = v; }, 'export-scale'),
  ];
  boxes = {
    transparent: checkRow(dialog, 'Transparent background', 'transparent', 'export-transparent'),
    selection: checkRow(dialog, 'Only the selection', 'selection', 'export-selection'),
    dark: checkRow(dialog, 'Dark', 'dark', 'export-dark'),
  };
  download = el('a', { className: 'export-download', text: 'Download', testid: 'export-download', role: 'button' }, dialog);
  download.addEventListener('click', (e) => {
    e.preventDefault();
    writeStored(KEY, { format: choices.format, scale: choices.scale, transparent: choices.transparent, dark: choices.dark });
    fetchFile(download.href, download.download);
    closeExport();
  });
  undismiss = dismissable(dialog, opener, closeExport);
  update();
  dialog.querySelector(`[data-testid="export-format-${choices.format}"]`)?.focus({ preventScroll: true });
}

export function closeExport() {
  if (!dialog) return;
  dialog.remove();
  dialog = null;
  download = null;
  undismiss?.();
  undismiss = null;
}



/** The dialog's controls as the choices and the selection say, and the address. */
function update() {
  if (!dialog) return;
  for (const r of refreshers) r();
  const png = choices.format === 'png';
  for (const b of dialog.querySelectorAll('[data-testid^="export-scale-"]')) b.disabled = !png;
  boxes.transparent.checked = choices.transparent && choices.format !== 'pdf';
  boxes.transparent.disabled = choices.format === 'pdf';
  boxes.selection.disabled = !state.selection.size;
  boxes.selection.checked = choices.selection && !!state.selection.size;
  boxes.dark.checked = choices.dark;
  download.href = exportHref();
  download.download = `${fileName()}.${choices.format}`;
}

async function fetchFile(href, name) {
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
