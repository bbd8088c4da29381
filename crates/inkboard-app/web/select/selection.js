// selection.js: the select tool and what the selection looks like. Click selects
// (the outermost group), Shift+click adds or removes, dragging on empty space draws
// a marquee, dragging a selected object moves the selection, handles resize it (a
// turned shape by its own turned box; several objects or a group as one box, ink
// strokes and connectors' free ends and bends carried with it), the
// round handle above turns it (Shift: in 15° steps), a selected connector's ends
// can be dragged to re-attach them, its legs and label moved (bends.js).

import { state, on, select } from '../sync/state.js';
import { spanRect, union, rotationOf, cornersOf, rotatePoint, center } from '../canvas/geom.js';
import { layers, svgEl, setAttrs, rectAttrs, toBoard, boundsOf, elementOf, getView } from '../canvas/canvas.js';
import { hitTest, idsIn, isLocked } from '../canvas/hittest.js';
import { hoverLinks, startLink, hideLinks } from './connect.js';
import {
  startMove, startResize, startRotate, startEndpoint, transformable, handleFrame, connectorEnds,
} from './drag.js';
import { drawBendHandles, isBendHandle, onLabel, startBend } from './bends.js';
import { openLink } from '../canvas/link.js';

const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'];
const MAX_OUTLINES = 400;
const DRAG_START = 3; // screen pixels before a press becomes a drag
const ROTATE_REACH = 24; // screen pixels from the box's top to the rotate handle

export function initSelection() {
  on('selection', render);
  on('scene', () => {
    // Drop ids that are gone, then redraw.
    const alive = [...state.selection].filter((id) => state.objects.has(id));
    if (alive.length !== state.selection.size) select(alive);
    else render();
  });
  on('viewcommit', render);
}

/** Draws outlines, the common box and the handles of the selection. */
export function render() {
  const g = layers.selection;
  g.replaceChildren();
  const ids = [...state.selection];
  if (!ids.length) return;
  const z = getView().zoom;
  let all = null;
  ids.forEach((id, i) => {
    const obj = state.objects.get(id);
    const b = boundsOf(id);
    all = union(all, b);
    if (i >= MAX_OUTLINES || !b) return;
    if (obj?.type === 'connector') {
      const path = elementOf(id)?.querySelector('path');
      if (path) svgEl('path', { class: 'sel-line', d: path.getAttribute('d') }, g);
      return;
    }
    const deg = rotationOf(obj);
    if (deg) {
      const points = cornersOf(obj, deg).map((p) => `${p.x},${p.y}`).join(' ');
      svgEl('polygon', { class: 'sel-box', points }, g);
    } else svgEl('rect', { class: 'sel-box', ...rectAttrs(b) }, g);
  });
  if (!all) return;
  if (ids.length > 1) {
    svgEl('rect', { class: 'sel-all', ...rectAttrs(all) }, g);
  }
  // A locked object is outlined, with no handle to move or turn it by.
  if (ids.some(isLocked)) return;
  const s = 8 / z;
  if (ids.length === 1 && state.objects.get(ids[0])?.type === 'connector') {
    const ends = connectorEnds(ids[0]);
    if (!ends) return;
    for (const which of ['from', 'to']) {
      const p = ends[which];
      svgEl('circle', {
        class: 'handle end', cx: p.x, cy: p.y, r: s * 0.7, 'data-handle': which,
        'data-testid': `handle-${which}`,
      }, g);
    }
    drawBendHandles(ids[0], g, s);
    return;
  }
  const leaves = transformable(ids);
  if (!leaves) return;
  // One turned object: its handles sit on its own turned box; else on the box
  // around everything (a group stands for its members).
  const { box, deg } = handleFrame(leaves);
  const c = center(box);
  const at = (x, y) => rotatePoint({ x, y }, deg, c);
  if (ids.length === 1 && leaves.length > 1) {
    const points = cornersOf(box, 0).map((p) => `${p.x},${p.y}`).join(' ');
    svgEl('polygon', { class: 'sel-all', points }, g);
  }
  const top = at(box.x + box.w / 2, box.y);
  const knob = at(box.x + box.w / 2, box.y - ROTATE_REACH / z);
  svgEl('line', { class: 'rotate-stem', x1: top.x, y1: top.y, x2: knob.x, y2: knob.y }, g);
  svgEl('circle', {
    class: 'handle rotate', cx: knob.x, cy: knob.y, r: s * 0.6,
    'data-handle': 'rotate', 'data-testid': 'handle-rotate',
  }, g);
  for (const h of HANDLES) {
    const p = at(
      box.x + (h.includes('w') ? 0 : h.includes('e') ? box.w : box.w / 2),
      box.y + (h.includes('n') ? 0 : h.includes('s') ? box.h : box.h / 2),
    );
    const el = svgEl('rect', {
      class: `handle ${h}`, x: p.x - s / 2, y: p.y - s / 2, width: s, height: s, rx: s / 4,
      'data-handle': h, 'data-testid': `handle-${h}`,
    }, g);
    if (deg) el.setAttribute('transform', `rotate(${deg} ${p.x} ${p.y})`);
  }
}

/** The select tool's pointer handlers (see tools.js for the routing). */
export const selectTool = {
  name: 'select',
  press: null,

  hover: hoverLinks,

  down(e) {
    const link = startLink(e);
    if (link) {
      this.press = { drag: link, started: true };
      return;
    }
    hideLinks();
    const handle = e.target.closest?.('[data-handle]')?.dataset.handle;
    const ids = [...state.selection];
    if (handle === 'from' || handle === 'to') {
      this.press = { drag: startEndpoint(e, ids[0], handle), started: true };
      return;
    }
    if (isBendHandle(handle)) {
      this.press = { drag: startBend(e, ids[0], handle), started: true };
      return;
    }
    if (handle === 'rotate') {
      this.press = { drag: startRotate(e, ids), started: true };
      return;
    }
    if (handle) {
      this.press = { drag: startResize(e, handle, ids), started: true };
      return;
    }
    if (ids.length === 1 && state.objects.get(ids[0])?.type === 'connector' && onLabel(e, ids[0])) {
      this.press = { drag: startBend(e, ids[0], 'label'), started: true };
      return;
    }
    const hit = hitTest(e.clientX, e.clientY);
    const start = { x: e.clientX, y: e.clientY };
    if (hit && (e.metaKey || e.ctrlKey) && !e.shiftKey && openLink(hit)) {
      // Ctrl+click follows a link (a plain click selects, as in Excalidraw).
      this.press = { start, noop: true };
      return;
    }
    if (hit) {
      if (e.shiftKey || e.metaKey || e.ctrlKey) {
        const next = new Set(state.selection);
        if (next.has(hit)) {
          next.delete(hit);
          select(next);
          this.press = { start, noop: true };
          return;
        }
        next.add(hit);
        select(next);
      } else if (!state.selection.has(hit)) {
        select([hit]);
      }
      this.press = { start, move: true, hit, copy: e.altKey };
      return;
    }
    const base = e.shiftKey ? new Set(state.selection) : new Set();
    if (!e.shiftKey) select([]);
    this.press = { start, marquee: true, base, from: toBoard(e.clientX, e.clientY) };
  },

  move(e) {
    const p = this.press;
    if (!p) return;
    if (!p.started) {
      if (p.noop || Math.hypot(e.clientX - p.start.x, e.clientY - p.start.y) < DRAG_START) return;
      p.started = true;
      if (p.move) p.drag = startMove({ clientX: p.start.x, clientY: p.start.y }, [...state.selection], { duplicate: p.copy });
      if (p.marquee) p.drag = marquee(p);
    }
    p.drag?.move(e);
  },

  up(e) {
    const p = this.press;
    this.press = null;
    if (!p) return;
    if (p.started) p.drag?.up(e);
    else if (p.move && !(e.shiftKey || e.metaKey || e.ctrlKey) && state.selection.size > 1) {
      // A click (no drag) on one of several selected objects selects just it.
      select([p.hit]);
    }
  },

  cancel() {
    this.press?.drag?.cancel();
    this.press = null;
  },
};

function marquee(press) {
  const rectEl = svgEl('rect', { class: 'marquee' }, layers.draft);
  let queued = false;
  let last = null;
  const update = () => {
    queued = false;
    const r = spanRect(press.from, last);
    setAttrs(rectEl, rectAttrs(r));
    select([...press.base, ...idsIn(r)]);
  };
  return {
    move(e) {
      last = toBoard(e.clientX, e.clientY);
      if (!queued) {
        queued = true;
        requestAnimationFrame(update);
      }
    },
    up(e) {
      last = toBoard(e.clientX, e.clientY);
      update();
      rectEl.remove();
    },
    cancel() {
      rectEl.remove();
    },
  };
}
