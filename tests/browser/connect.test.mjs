// Connecting from Select mode: hovering a shape shows a handle on each side;
// dragging one to another shape adds a connector between them; dragging one to
// empty board opens a shape picker there, whose choice adds the shape and the
// connector in one call (one Ctrl+Z removes both). Real mouse events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clientOf, watch,
} from './lib.mjs';

describe('connection handles in Select mode', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, waitFor } = watch(() => page);
  const connectors = (o) => Object.values(o).filter((x) => x.type === 'connector');

  async function hover(p) {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.move(c.x, c.y, { steps: 4 });
  }

  /** Drags from the handle with test id `handle` to board point `to`. */
  async function dragFrom(handle, to) {
    const box = await page.getByTestId(handle).boundingBox();
    const q = await clientOf(page, to.x, to.y);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 2 });
    await page.mouse.down();
    await page.mouse.move(q.x, q.y, { steps: 10 });
    await page.mouse.up();
  }

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'From' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'To' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('hovering a shape shows a handle on each side; they go when the pointer leaves', async () => {
    await hover({ x: 60, y: 30 });
    for (const side of ['top', 'right', 'bottom', 'left']) await page.getByTestId(`link-${side}`).waitFor();
    await hover({ x: 60, y: 400 });
    await until(async () => (await page.getByTestId('link-top').count()) === 0, { what: 'the handles gone' });
  });

  it('dragging a side handle to another shape connects the two', async () => {
    await hover({ x: 60, y: 30 });
    await dragFrom('link-right', { x: 360, y: 30 });
    const c = await waitFor((o) => connectors(o)[0], 'a connector');
    assert.deepEqual([c.from, c.to], ['s1', 's2']);
  });

  it('dropped on empty board, a picker adds a connected shape there, undone in one step', async () => {
    await hover({ x: 60, y: 30 });
    await dragFrom('link-bottom', { x: 60, y: 250 });
    await page.getByTestId('link-picker').waitFor();
    await page.getByTestId('link-pick-ellipse').click();
    const o = await waitFor((o) => Object.keys(o).length === 5 && o, 'a shape and a connector');
    const shape = Object.values(o).find((x) => x.geom === 'ellipse');
    assert.ok(shape, 'the ellipse');
    // Centred where it was dropped (120 × 100, the default size).
    assert.deepEqual([shape.x + shape.w / 2, shape.y + shape.h / 2], [60, 250]);
    const c = connectors(o).find((x) => x.to === shape.id);
    assert.equal(c?.from, 's1');
    await page.keyboard.press('Control+z');
    await waitFor((o) => Object.keys(o).length === 3, 'both undone in one step');
  });
});
