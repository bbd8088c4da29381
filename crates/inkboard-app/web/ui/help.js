// help.js: the `?` overlay, listing every shortcut of shortcuts.js by section (the
// same table the keys and tooltips read). `?` or the help button opens it; `?`,
// Escape, a click outside or the close button closes it.

import { SECTIONS, hint } from './shortcuts.js';

let overlay = null;

/** Adds the help button to `parent` (the zoom controls). */
export function initHelp(parent) {
  if (!parent) return;
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = '?';
  b.title = hint('help');
  b.setAttribute('aria-label', hint('help'));
  b.dataset.testid = 'help-button';
  b.addEventListener('click', () => toggleHelp());
  parent.append(b);
}

export function isHelpOpen() {
  return overlay !== null;
}

export function toggleHelp() {
  if (overlay) closeHelp();
  else openHelp();
}

function el(tag, cls, text, parent) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text) e.textContent = text;
  parent?.append(e);
  return e;
}

function openHelp() {
  overlay = el('div', 'help-backdrop', null, document.body);
  overlay.addEventListener('pointerdown', (e) => {
    if (e.target === overlay) closeHelp();
  });
  const box = el('div', 'help', null, overlay);
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-modal', 'true');
  box.setAttribute('aria-label', 'Keyboard shortcuts');
  box.dataset.testid = 'help';
  const head = el('div', 'help-head', null, box);
  el('h2', null, 'Keyboard shortcuts', head);
  const close = el('button', 'help-close', '×', head);
  close.type = 'button';
  close.title = 'Close (Escape)';
  close.setAttribute('aria-label', 'Close');
  close.addEventListener('click', closeHelp);
  const cols = el('div', 'help-sections', null, box);
  for (const [title, entries] of SECTIONS) {
    const sec = el('section', null, null, cols);
    el('h3', null, title, sec);
    const dl = el('dl', null, null, sec);
    for (const s of entries) {
      const row = el('div', 'help-row', null, dl);
      row.dataset.testid = 'help-row';
      row.dataset.action = s.action;
      el('dt', null, s.label, row);
      const dd = el('dd', null, null, row);
      s.keys.forEach((k, i) => {
        if (i) dd.append(' ');
        el('kbd', null, k, dd);
      });
    }
  }
  window.addEventListener('keydown', onKey, true);
  close.focus({ preventScroll: true });
}

function onKey(e) {
  if (e.key === 'Escape' || e.key === '?') {
    e.preventDefault();
    e.stopImmediatePropagation();
    closeHelp();
  }
}

export function closeHelp() {
  window.removeEventListener('keydown', onKey, true);
  overlay?.remove();
  overlay = null;
  document.querySelector('[data-testid="canvas"]')?.focus({ preventScroll: true });
}
