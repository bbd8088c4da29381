// Panning without redrawing: a pan moves the drawn layer by a CSS transform, and at
// rest the layer is drawn again (its group's transform set, which costs the browser
// a raster of all of it: the worst frame of a pan, 133 ms on a 2,000-object board)
// only when the screen would soon show board the layer does not cover. Redraws are
// counted, not timed (bench.mjs (e) times the frames). Real wheel events and a real
// hand-tool drag, in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until } from './lib.mjs';

/** A grid of `cols` × `rows` labelled shapes, 200 × 140 apart. */
function grid(cols, rows) {
  const out = [];
  for (let i = 0; i < cols * rows; i++) {
    out.push({ id: `s${i + 1}`, type: 'shape', x: (i % cols) * 200, y: Math.floor(i / cols) * 140, w: 140, h: 80, text: `Item ${i + 1}` });
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('panning', { timeout: 120000 }, () => {
  let s;
  let page;
  let canvas;

  before(async () => {
    s = await session({ objects: grid(20, 10) });
    ({ page } = s);
    canvas = await page.getByTestId('canvas').boundingBox();
    await page.evaluate(() => {
      window.redraws = 0;
      const g = document.querySelector('[data-testid="board-svg"] > g.viewport');
      new MutationObserver(() => window.redraws++).observe(g, { attributes: true, attributeFilter: ['transform'] });
    });
  });

  after(() => s?.close());

  /** The redraws of the layer from `gesture()` until 500 ms after it (the rest is 150 ms). */
  async function redrawsOf(gesture) {
    await sleep(300);
    await page.evaluate(() => { window.redraws = 0; });
    await gesture();
    await sleep(500);
    return page.evaluate(() => window.redraws);
  }

  /** The id of the shape drawn under client point `p`, if any. */
  const drawnAt = (p) => page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('g[id]')?.id ?? null, p);

  it('a wheel pan of the fitted board draws it again neither in the gesture nor at rest', async () => {
    await page.evaluate(() => window.inkboard.fit());
    const mid = { x: Math.round(canvas.x + canvas.width / 2), y: Math.round(canvas.y + canvas.height / 2) };
    await page.mouse.move(mid.x, mid.y);
    const before = await page.evaluate(() => window.inkboard.view());
    const n = await redrawsOf(async () => {
      for (let i = 0; i < 20; i++) {
        await page.mouse.wheel(12, 8);
        await sleep(16);
      }
    });
    const v = await page.evaluate(() => window.inkboard.view());
    assert.ok(v.x > before.x && v.y > before.y, `panned: ${JSON.stringify(before)} → ${JSON.stringify(v)}`);
    assert.equal(n, 0, 'the layer is moved, never drawn again');
    // A shape is drawn where the view says: a click on its middle there takes it.
    const o = (await page.evaluate(() => window.inkboard.objects())).s75;
    const at = {
      x: Math.round(canvas.x + (o.x + o.w / 2 - v.x) * v.zoom), y: Math.round(canvas.y + (o.y + o.h / 2 - v.y) * v.zoom),
    };
    assert.equal(await drawnAt(at), 's75', 's75 drawn where the view puts it');
    await page.mouse.click(at.x, at.y);
    assert.deepEqual(await page.evaluate(() => window.inkboard.selection()), ['s75']);
    await page.keyboard.press('Escape');
  });

  it('a short hand-tool drag at 100% is not drawn again at rest; a long one is, once', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: 0, y: 0, zoom: 1 }));
    await page.keyboard.press('h');
    const from = { x: Math.round(canvas.x + canvas.width / 2), y: Math.round(canvas.y + canvas.height / 2) };
    const drag = (dx, dy) => async () => {
      await page.mouse.move(from.x, from.y);
      await page.mouse.down();
      for (let i = 1; i <= 10; i++) {
        await page.mouse.move(from.x + (dx * i) / 10, from.y + (dy * i) / 10);
        await sleep(16);
      }
      await page.mouse.up();
    };
    assert.equal(await redrawsOf(drag(-200, -120)), 0, 'a short pan keeps the layer');
    // Panned on far past what the layer covers with room to spare: centred again.
    const n = await redrawsOf(async () => {
      await drag(-500, 0)();
      await drag(-500, 0)();
    });
    assert.ok(n >= 1, `drawn again for a long pan (${n})`);
    // The far side, drawn: a shape now in view is on screen.
    const v = await page.evaluate(() => window.inkboard.view());
    assert.ok(v.x >= 1190 && v.y >= 110, `panned 1,200 × 120: ${JSON.stringify(v)}`);
    await until(() => drawnAt(from), { what: 'a shape drawn under the pointer' });
    await page.keyboard.press('v');
  });
});
