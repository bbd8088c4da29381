// navigate.js: moving around the board. Wheel pans, Ctrl+wheel (and trackpad pinch)
// zooms, space-drag or middle-drag pans, two fingers pinch and pan; the zoom
// buttons in the corner. Gestures only change the one view transform (canvas.js).

import { state, emit, on } from '../sync/state.js';
import { panBy, zoomAt, zoomCenter, fitToContent, getView, setView, viewport } from './canvas.js';
import { hint } from '../ui/shortcuts.js';

let container;
let spaceHeld = false;
let pan = null; // {id, x, y}
const touches = new Map(); // pointerId -> {x, y}
let pinch = null; // {dist, x, y}
let zoomLabel;

export function initNavigate(el, controls) {
  container = el;
  container.addEventListener('wheel', onWheel, { passive: false });
  container.addEventListener('pointerdown', onDown, true);
  container.addEventListener('pointermove', onMove, true);
  container.addEventListener('pointerup', onUp, true);
  container.addEventListener('pointercancel', onUp, true);
  window.addEventListener('keydown', (e) => {
    if (e.code === 'Space' && !typing(e.target) && !interactive(e.target)) {
      e.preventDefault();
      if (!spaceHeld) {
        spaceHeld = true;
        container.classList.add('can-pan');
      }
    }
  });
  window.addEventListener('keyup', (e) => {
    if (e.code === 'Space') {
      spaceHeld = false;
      container.classList.remove('can-pan');
    }
  });
  window.addEventListener('blur', () => {
    spaceHeld = false;
    container.classList.remove('can-pan');
  });
  buildControls(controls);
}

/** Is this element a text field (keys are typing, not shortcuts)? */
export function typing(t) {
  return t instanceof HTMLElement && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName));
}

/** Buttons, links and menus keep Space and Enter for themselves. */
export function interactive(t) {
  return t instanceof Element && !!t.closest('button, a, summary, select, input, textarea, [role="menuitem"]');
}

function onWheel(e) {
  e.preventDefault();
  let dx = e.deltaX;
  let dy = e.deltaY;
  if (e.deltaMode === 1) {
    dx *= 16;
    dy *= 16;
  } else if (e.deltaMode === 2) {
    dx *= viewport().w;
    dy *= viewport().h;
  }
  if (e.ctrlKey || e.metaKey) {
    const d = Math.max(-25, Math.min(25, dy));
    zoomAt(Math.exp(-d * 0.008), e.clientX, e.clientY);
  } else if (e.shiftKey && dx === 0) {
    panBy(-dy, 0);
  } else {
    panBy(-dx, -dy);
  }
}

function take(e) {
  e.stopImmediatePropagation();
  e.preventDefault();
}

function onDown(e) {
  if (e.pointerType === 'touch') {
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (touches.size === 2) {
      emit('gesture', 'pinch'); // the active tool drops what it was doing
      pinch = pinchState();
      take(e);
      return;
    }
    if (touches.size > 2) take(e);
  }
  if (e.button === 1 || (e.button === 0 && spaceHeld) || state.tool === 'hand') {
    pan = { id: e.pointerId, x: e.clientX, y: e.clientY };
    container.setPointerCapture(e.pointerId);
    container.classList.add('panning');
    take(e);
  }
}

function pinchState() {
  const [a, b] = [...touches.values()];
  return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
}

function onMove(e) {
  if (touches.has(e.pointerId)) {
    touches.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && touches.size === 2) {
      const next = pinchState();
      panBy(next.x - pinch.x, next.y - pinch.y);
      zoomAt(next.dist / pinch.dist, next.x, next.y);
      pinch = next;
      take(e);
      return;
    }
  }
  if (pan && e.pointerId === pan.id) {
    panBy(e.clientX - pan.x, e.clientY - pan.y);
    pan.x = e.clientX;
    pan.y = e.clientY;
    take(e);
  }
}

function onUp(e) {
  if (touches.delete(e.pointerId) && pinch) {
    if (touches.size < 2) pinch = null;
    take(e);
    return;
  }
  if (pan && e.pointerId === pan.id) {
    pan = null;
    container.classList.remove('panning');
    take(e);
  }
}

function button(parent, testid, label, title, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = label;
  b.title = title;
  b.setAttribute('aria-label', title);
  b.dataset.testid = testid;
  b.addEventListener('click', onClick);
  parent.append(b);
  return b;
}

function buildControls(parent) {
  button(parent, 'zoom-out', '−', hint('zoom-out'), () => zoomCenter(1 / 1.25));
  zoomLabel = button(parent, 'zoom-reset', '100%', hint('zoom-reset'), () => resetZoom());
  button(parent, 'zoom-in', '+', hint('zoom-in'), () => zoomCenter(1.25));
  button(parent, 'zoom-fit', 'Fit', hint('zoom-fit'), () => fitToContent());
  on('view', (v) => {
    // Written only when it changes: a new text lays the page out, on every frame of a pan.
    const text = `${Math.round(v.zoom * 100)}%`;
    if (zoomLabel.textContent !== text) zoomLabel.textContent = text;
  });
}

export function resetZoom() {
  const v = getView();
  const { w, h } = viewport();
  const cx = v.x + w / 2 / v.zoom;
  const cy = v.y + h / 2 / v.zoom;
  setView({ x: cx - w / 2, y: cy - h / 2, zoom: 1 });
}
