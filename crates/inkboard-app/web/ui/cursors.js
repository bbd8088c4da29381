// cursors.js: the others' pointers and selections over the canvas, on a team server: a
// pointer in the person's colour with their name beside it, and an outline in that colour
// around each object they have selected, for those on the page shown (sync/presence.js).
// An HTML layer over the board that takes no events; drawn again at most once a frame, when
// someone moves or the view does. Names are data: textContent only.

import { state, on } from '../sync/state.js';
import { present } from '../sync/presence.js';
import { toContainer, getView, boundsOf } from '../canvas/canvas.js';

const NS = 'http://www.w3.org/2000/svg';
let layer = null;
let queued = false;

export function initCursors(canvas) {
  layer = document.createElement('div');
  layer.className = 'cursors';
  layer.dataset.testid = 'cursors';
  layer.setAttribute('aria-hidden', 'true');
  canvas.append(layer);
  for (const event of ['presence', 'view', 'scene', 'boardswitch']) on(event, queue);
}

function queue() {
  if (queued) return;
  queued = true;
  requestAnimationFrame(draw);
}

function draw() {
  queued = false;
  const zoom = getView().zoom;
  const parts = [];
  for (const p of present()) {
    if (p.agent || p.page !== state.page) continue;
    for (const id of p.sel ?? []) {
      const b = state.objects.has(id) && boundsOf(id);
      if (!b) continue;
      const at = toContainer(b.x, b.y);
      const box = document.createElement('div');
      box.className = 'peer-selection';
      box.dataset.testid = 'peer-selection';
      box.dataset.id = id;
      box.dataset.name = p.person;
      box.style.cssText = `--person:${p.color};left:${at.x - 3}px;top:${at.y - 3}px;`
        + `width:${b.w * zoom + 6}px;height:${b.h * zoom + 6}px`;
      parts.push(box);
    }
    if (!p.cursor) continue;
    const at = toContainer(p.cursor[0], p.cursor[1]);
    const c = document.createElement('div');
    c.className = 'peer-cursor';
    c.dataset.testid = 'peer-cursor';
    c.dataset.name = p.person;
    c.style.cssText = `--person:${p.color};transform:translate(${at.x}px, ${at.y}px)`;
    const arrow = document.createElementNS(NS, 'svg');
    arrow.setAttribute('width', '16');
    arrow.setAttribute('height', '20');
    arrow.setAttribute('viewBox', '0 0 16 20');
    const path = document.createElementNS(NS, 'path');
    path.setAttribute('d', 'M1 1 L1 16 L5 12 L8 19 L11 18 L8 11 L14 11 Z');
    arrow.append(path);
    const label = document.createElement('span');
    label.className = 'label';
    label.textContent = p.person;
    c.append(arrow, label);
    parts.push(c);
  }
  layer.replaceChildren(...parts);
}
