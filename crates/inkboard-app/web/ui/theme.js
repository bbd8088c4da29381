// theme.js: light and dark on screen. The page follows the system's colour scheme
// until the toggle in the top bar picks one, which the browser then remembers. In
// dark, the chrome takes dark colours (app.css) and the board is shown inverted with
// its hues kept (a CSS filter on the drawing, images turned back), as Excalidraw and
// tldraw show theirs: only on screen, the board and its exports stay as they are
// unless an export asks for `theme: "dark"`, painted by the same filter
// (inkboard-render's theme.rs). `shownColor` paints a colour the same way, for
// what the chrome shows of the board's colours (the style panel's swatches), so a
// white shape shown dark has a dark swatch.

import { readStored, writeStored } from '../sync/stored.js';
import { emit } from '../sync/state.js';

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
  const changed = document.documentElement.dataset.theme !== t;
  document.documentElement.dataset.theme = t;
  if (changed) emit('theme', t);
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

/**
 * The dark theme's rule, as inkboard-render's theme.rs computes the CSS filter
 * `invert(0.93) hue-rotate(180deg)` that app.css draws the board with (the Filter
 * Effects specification's functions, in sRGB, each result clamped).
 */
function darkTone([r, g, b]) {
  const inv = [r, g, b].map((c) => 0.93 + c * (1 - 2 * 0.93));
  const [sin, cos] = [Math.sin(Math.PI), Math.cos(Math.PI)];
  const m = [
    [0.213 + cos * 0.787 - sin * 0.213, 0.715 - cos * 0.715 - sin * 0.715, 0.072 - cos * 0.072 + sin * 0.928],
    [0.213 - cos * 0.213 + sin * 0.143, 0.715 + cos * 0.285 + sin * 0.140, 0.072 - cos * 0.072 - sin * 0.283],
    [0.213 - cos * 0.213 - sin * 0.787, 0.715 - cos * 0.715 + sin * 0.715, 0.072 + cos * 0.928 + sin * 0.072],
  ];
  return m.map((row) => Math.min(1, Math.max(0, row[0] * inv[0] + row[1] * inv[1] + row[2] * inv[2])));
}

/** Whether the page shows the dark theme now (the chat view never sets one). */
export function shownDark() {
  return document.documentElement.dataset.theme === 'dark';
}

/**
 * A board colour (`#rrggbb` or `#rrggbbaa`) as the screen shows it: in dark, by
 * the board's filter (its alpha kept); as it is in light. Anything else (a CSS
 * name, a gradient) is answered as it is.
 */
export function shownColor(hex) {
  const m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i.exec(hex ?? '');
  if (!m || !shownDark()) return hex;
  const rgb = [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16) / 255);
  const out = darkTone(rgb).map((c) => Math.round(c * 255).toString(16).padStart(2, '0')).join('');
  return `#${out}${m[2] ?? ''}`;
}
