// present.js: presenting the page's frames as slides, as tldraw and Excalidraw do.
// The "Present" button (main.js) or Alt+P hides the editor's chrome and shows the
// first frame filling the screen; the frames follow in reading order (rows from
// the top, each left to right). →, ↓, Space, Page Down and Enter go on; ←, ↑,
// Page Up and Backspace go back; Home and End go to the ends; Escape, or the
// small bar's ×, ends it and puts the view and tool back. While presenting,
// nothing on the board can be changed: the pointer is the laser (laser.js), keys
// other than these and K do nothing, the wheel does not move the slide.

import { state, on, emit, select } from '../sync/state.js';
import { boundsOf, fitRect, getView, setView } from '../canvas/canvas.js';
import { readingOrder } from '../canvas/geom.js';
import { setTool } from '../tools/tools.js';

const NEXT = ['ArrowRight', 'ArrowDown', ' ', 'PageDown', 'Enter'];
const BACK = ['ArrowLeft', 'ArrowUp', 'PageUp', 'Backspace'];

/** What presenting holds: the slides, the one shown, what to put back at the end. */
let show = null;

/** The frames of the page shown, in reading order. */
export function slides() {
  const frames = [];
  for (const id of state.order) {
    const obj = state.objects.get(id);
    if (obj?.type === 'shape' && obj.geom === 'frame') frames.push({ id, b: boundsOf(id) });
  }
  return readingOrder(frames.filter((f) => f.b)).map((f) => f.id);
}

export function isPresenting() {
  return show !== null;
}

/** Starts presenting the page's frames (says so when it has none). */
export function startPresenting() {
  if (show) return;
  const ids = slides();
  if (!ids.length) {
    emit('error', 'Nothing to present: add frames, each frame is a slide.');
    return;
  }
  show = { ids, at: 0, view: getView(), tool: state.tool, bar: buildBar() };
  select([]);
  setTool('laser');
  document.body.classList.add('presenting');
  window.addEventListener('keydown', onKey, true);
  window.addEventListener('wheel', onWheel, { capture: true, passive: false });
  window.addEventListener('resize', fit);
  goTo(0);
}

/** Ends presenting: the view and tool as they were. */
export function stopPresenting() {
  if (!show) return;
  const { view, tool, bar } = show;
  show = null;
  window.removeEventListener('keydown', onKey, true);
  window.removeEventListener('wheel', onWheel, { capture: true });
  window.removeEventListener('resize', fit);
  document.body.classList.remove('presenting');
  bar.remove();
  setTool(tool);
  // The canvas is as large again as before: its box is measured anew first.
  requestAnimationFrame(() => setView(view));
}

function goTo(i) {
  show.at = Math.max(0, Math.min(show.ids.length - 1, i));
  show.bar.querySelector('.present-count').textContent = `${show.at + 1} / ${show.ids.length}`;
  // After the chrome is hidden: the canvas fills the window then.
  requestAnimationFrame(fit);
}

/** The slide shown fills the screen. */
function fit() {
  if (!show) return;
  const b = boundsOf(show.ids[show.at]);
  if (b) fitRect(b, { maxZoom: 8, pad: 24 });
  document.body.dataset.slide = show.ids[show.at];
}

function onKey(e) {
  if (!show) return;
  if (e.key === 'Escape') stopPresenting();
  else if (NEXT.includes(e.key)) goTo(show.at + 1);
  else if (BACK.includes(e.key)) goTo(show.at - 1);
  else if (e.key === 'Home') goTo(0);
  else if (e.key === 'End') goTo(show.ids.length - 1);
  else if (e.key.toLowerCase() === 'k') return; // the laser, already on
  e.preventDefault();
  e.stopImmediatePropagation();
}

function onWheel(e) {
  e.preventDefault();
  e.stopImmediatePropagation();
}

function button(parent, testid, title, text, fn) {
  const b = document.createElement('button');
  b.type = 'button';
  b.dataset.testid = testid;
  b.title = title;
  b.setAttribute('aria-label', title);
  b.textContent = text;
  b.addEventListener('click', fn);
  parent.append(b);
}

function buildBar() {
  const bar = document.createElement('div');
  bar.className = 'present-bar';
  bar.dataset.testid = 'present-bar';
  bar.setAttribute('role', 'toolbar');
  bar.setAttribute('aria-label', 'Presentation');
  button(bar, 'present-back', 'Previous slide (←)', '‹', () => goTo(show.at - 1));
  const n = document.createElement('span');
  n.className = 'present-count';
  n.dataset.testid = 'present-count';
  bar.append(n);
  button(bar, 'present-next', 'Next slide (→)', '›', () => goTo(show.at + 1));
  button(bar, 'present-end', 'End the presentation (Escape)', '×', stopPresenting);
  document.querySelector('.workspace')?.append(bar);
  return bar;
}

/** A board switch, or the page's frames gone, ends it. */
export function initPresent() {
  on('boardswitch', stopPresenting);
  on('scene', () => {
    if (!show) return;
    show.ids = show.ids.filter((id) => state.objects.has(id));
    if (!show.ids.length) stopPresenting();
    else goTo(show.at);
  });
}
