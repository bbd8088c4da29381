// theme.js: light and dark on screen. The page follows the system's colour scheme
// until the toggle in the top bar picks one, which the browser then remembers. In
// dark, the chrome takes dark colours (app.css) and the board is shown inverted with
// its hues kept (a CSS filter on the drawing, images turned back), as Excalidraw and
// tldraw show theirs: only on screen, the board and its exports stay as they are
// unless an export asks for `theme: "dark"`, painted by the same filter
// (inkboard-render's theme.rs).

import { readStored, writeStored } from './stored.js';

const KEY = 'inkboard-theme';
const media = window.matchMedia?.('(prefers-color-scheme: dark)');
let button = null;

function stored() {
  const v = readStored(KEY, null);
  return v === 'dark' || v === 'light' ? v : null;
}

/** The theme picked with the toggle (null: the system's). */
let chosen = stored();

function system() {
  return media?.matches ? 'dark' : 'light';
}

/** The theme shown: the one chosen, else the system's. */
export function theme() {
  return chosen ?? system();
}

function show() {
  const t = theme();
  document.documentElement.dataset.theme = t;
  if (button) {
    const label = t === 'dark' ? 'Light mode' : 'Dark mode';
    button.title = label;
    button.setAttribute('aria-label', label);
    button.setAttribute('aria-pressed', String(t === 'dark'));
    button.textContent = t === 'dark' ? '☀' : '☾';
  }
}

/** Shows the theme now, follows the system, and adds the toggle to `parent`. */
export function initTheme(parent) {
  media?.addEventListener?.('change', show);
  if (parent) {
    button = document.createElement('button');
    button.type = 'button';
    button.className = 'tool theme-toggle';
    button.dataset.testid = 'theme-toggle';
    button.addEventListener('click', toggleTheme);
    parent.prepend(button);
  }
  show();
}

export function toggleTheme() {
  const next = theme() === 'dark' ? 'light' : 'dark';
  // Back to following the system when the choice is what the system says.
  chosen = next === system() ? null : next;
  writeStored(KEY, chosen);
  show();
}
