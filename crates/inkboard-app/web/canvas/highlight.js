// highlight.js: marks objects someone else just added or changed with a soft glow that
// fades out, so the person notices them: an agent's changes in the agent colour, and on a
// team server each author's in their own colour (the scene's `marks`).

import { emit } from '../sync/state.js';
import { layers, svgEl, boundsOf } from './canvas.js';

/** Marks objects briefly with a soft glow so the person notices an agent's change. */
export function flash(ids) {
  mark(ids);
  emit('agent', ids);
}

/** Marks objects briefly with a soft glow, in `color` (an author's) or the agent colour. */
export function mark(ids, color = null) {
  // Measure everything first, then add the marks: measuring a connector lays the
  // page out, and doing it between insertions would lay it out once per object.
  const boxes = [];
  for (const id of ids) {
    if (boxes.length > 200) break;
    const b = boundsOf(id);
    if (b) boxes.push([id, b]);
  }
  for (const [id, b] of boxes) {
    const pad = 6;
    const r = svgEl('rect', {
      class: 'agent-flash', x: b.x - pad, y: b.y - pad, width: b.w + 2 * pad, height: b.h + 2 * pad,
      rx: 8, 'data-id': id,
    }, layers.flash);
    // A colour from the server's palette (presence.rs), set as a style, never as markup.
    if (color) {
      r.style.stroke = color;
      r.style.fill = color;
      r.style.fillOpacity = '0.08';
      r.dataset.color = color;
    }
    setTimeout(() => r.remove(), 2600);
  }
}
