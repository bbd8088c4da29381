// laser.js: the laser pointer (K), for pointing at the board while presenting or
// talking it through, as Excalidraw's and tldraw's. Dragging draws a red trail
// that fades out behind the pointer within a second; it is drawn on this screen
// only, in the overlay: no object is made, nothing is sent to the server.

import { layers, svgEl, toBoard } from '../canvas/canvas.js';

/** How long a point of the trail stays visible, in ms. */
export const FADE_MS = 900;

export function laserTool() {
  let group = null;
  let points = []; // {x, y, t}: board point and when it was reached
  let down = false;
  let frame = 0;

  const paint = () => {
    frame = 0;
    const now = performance.now();
    points = points.filter((p) => now - p.t < FADE_MS);
    group.replaceChildren();
    for (let i = 1; i < points.length; i++) {
      const [a, b] = [points[i - 1], points[i]];
      const life = 1 - (now - b.t) / FADE_MS;
      svgEl('line', {
        class: 'laser', x1: a.x, y1: a.y, x2: b.x, y2: b.y,
        'stroke-opacity': life.toFixed(3), 'stroke-width': (1.5 + 3.5 * life).toFixed(2),
      }, group);
    }
    // Painted again while it fades, or while the pointer is down and still.
    if (points.length || down) frame = requestAnimationFrame(paint);
    else group.remove();
  };

  const add = (e) => {
    const p = toBoard(e.clientX, e.clientY);
    points.push({ x: p.x, y: p.y, t: performance.now() });
    if (!group?.isConnected) group = svgEl('g', { class: 'laser-trail', 'data-testid': 'laser-trail' }, layers.draft);
    if (!frame) frame = requestAnimationFrame(paint);
  };

  return {
    name: 'laser',
    down(e) {
      down = true;
      add(e);
    },
    move(e, events) {
      if (!down) return;
      for (const ev of events) add(ev);
    },
    up() {
      down = false;
    },
    cancel() {
      down = false;
    },
    drop() {
      down = false;
      points = [];
      cancelAnimationFrame(frame);
      frame = 0;
      group?.remove();
    },
  };
}
