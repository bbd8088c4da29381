// eraser.js: the eraser tool. Pressing and dragging over objects marks each one the
// pointer passes (the outermost group, as a click selects); releasing deletes all of
// them with ONE `delete`, so the stroke is one undo step. Escape drops the stroke.

import { state } from '../sync/state.js';
import { elementOf } from '../canvas/canvas.js';
import { hitTest } from '../canvas/hittest.js';
import * as sync from '../sync/sync.js';

/** Screen pixels between the points tested along a fast stroke. */
const STEP = 4;

export function eraserTool() {
  let stroke = null; // {ids: Set, last: {x, y}}

  const mark = (id) => {
    if (!id || stroke.ids.has(id)) return;
    stroke.ids.add(id);
    elementOf(id)?.classList.add('erasing');
  };
  const test = (x, y) => mark(hitTest(x, y));
  const unmark = (ids) => {
    for (const id of ids) elementOf(id)?.classList.remove('erasing');
  };

  return {
    name: 'eraser',
    down(e) {
      stroke = { ids: new Set(), last: { x: e.clientX, y: e.clientY } };
      test(e.clientX, e.clientY);
    },
    move(e, events) {
      if (!stroke) return;
      for (const ev of events) {
        // Test along the segment, so a quick stroke does not jump over a thin line.
        const { x: x0, y: y0 } = stroke.last;
        const n = Math.max(1, Math.ceil(Math.hypot(ev.clientX - x0, ev.clientY - y0) / STEP));
        for (let i = 1; i <= n; i++) test(x0 + ((ev.clientX - x0) * i) / n, y0 + ((ev.clientY - y0) * i) / n);
        stroke.last = { x: ev.clientX, y: ev.clientY };
      }
    },
    up() {
      const s = stroke;
      stroke = null;
      if (!s?.ids.size) return;
      const ids = [...s.ids].filter((id) => state.objects.has(id));
      sync.call('delete', { ids }).catch(() => unmark(s.ids));
    },
    cancel() {
      if (stroke) unmark(stroke.ids);
      stroke = null;
    },
  };
}
