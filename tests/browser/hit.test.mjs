// Thin lines are hit by their distance to the pointer, 6 screen pixels from their
// drawn edge at any zoom (web/canvas/lines.js, hittest.js): a click 1 to 6 px beside a
// 2 px arrow selects it at 50%, 100% and 300%, a click 12 px away does not, the
// right-click menu opened beside it is the arrow's, and an ink stroke and a
// dashed line are hit the same way. Real mouse events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, clientOf, selectionOf, until } from './lib.mjs';

describe('hitting thin lines', { timeout: 120000 }, () => {
  let s;
  let page;

  const selected = () => selectionOf(page);
  const clear = async () => {
    await page.keyboard.press('Escape');
    await until(async () => (await selected()).length === 0, { what: 'nothing selected' });
  };
  /** Clicks `dy` screen pixels below board point (x, y). */
  const clickBeside = async (x, y, dy, options) => {
    const c = await clientOf(page, x, y);
    await page.mouse.click(c.x, c.y + dy, options);
  };

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 600, y: 0, w: 120, h: 60, text: 'B' },
        // A level arrow between them, 2 px wide, along y = 30.
        { id: 'c3', type: 'connector', from: 's1', to: 's2' },
        { id: 'k4', type: 'ink', points: [[0, 300], [200, 300], [400, 300]], width: 2 },
        { id: 'c5', type: 'connector', from: { x: 0, y: 450 }, to: { x: 400, y: 450 }, route: 'straight', dash: 'dotted' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  for (const zoom of [0.5, 1, 3]) {
    it(`at ${zoom * 100}% a click up to 6 px beside the arrow's edge takes it, 12 px does not`, async () => {
      // The arrow's middle at the screen's middle.
      await page.evaluate((z) => window.inkboard.setView({ x: 360 - 640 / z, y: 30 - 380 / z, zoom: z }), zoom);
      for (const dy of [1, 2, 3, 4, 5, 5.7, -3, -5.7]) {
        await clear();
        // 1 px of the 2 px line lies beside its middle (more when zoomed in).
        await clickBeside(360, 30, dy + Math.sign(dy) * zoom);
        await until(async () => (await selected()).join() === 'c3', { what: `a click ${dy} px beside selects the arrow` });
      }
      await clear();
      await clickBeside(360, 30, 12 + zoom);
      await new Promise((r) => setTimeout(r, 150));
      assert.deepEqual(await selected(), [], '12 px away is the empty board');
    });
  }

  it('a right-click 2 px beside the arrow\'s edge opens the arrow\'s menu', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -280, y: -350, zoom: 1 }));
    await clear();
    await clickBeside(360, 30, 3, { button: 'right' });
    const menu = page.getByTestId('context-menu');
    await menu.waitFor();
    assert.deepEqual(await selected(), ['c3']);
    assert.equal(await menu.getByTestId('menu-delete').count(), 1, 'an object\'s menu (Delete), not the board\'s');
    assert.equal(await menu.getByTestId('menu-select-all').count(), 0);
    await page.keyboard.press('Escape');
  });

  it('an ink stroke and a dotted line are hit beside them, between the dots too', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: 100, zoom: 1 }));
    await clear();
    await clickBeside(100, 300, 5);
    await until(async () => (await selected()).join() === 'k4', { what: 'the stroke' });
    await clear();
    // Between two dots of the dotted line (its dots are 5 px apart) and beside it.
    await clickBeside(101.5, 450, 4);
    await until(async () => (await selected()).join() === 'c5', { what: 'the dotted line' });
  });
});
