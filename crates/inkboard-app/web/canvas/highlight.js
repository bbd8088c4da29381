// highlight.js: marks objects an agent just added or changed with a soft glow that
// fades out, so the person notices them.

import { emit } from '../sync/state.js';
import { layers, svgEl, boundsOf } from './canvas.js';

/** Marks objects briefly with a soft glow so the person notices an agent's change. */
export function flash(ids) {
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
    setTimeout(() => r.remove(), 2600);
  }
  emit('agent', ids);
}
