// Find (Ctrl+F): the words typed are found in the text of the page's objects
// (shapes, a frame's title, a connector's label; Markdown marks ignored, case too),
// Enter selects each match in reading order and brings it into view, Shift+Enter
// goes back, and past the last match of a page the search goes on to the next
// page and round; Escape closes the bar and keeps the selection. Real keyboard
// events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {
  startApp, launch, newContext, openPage, tempDir, writeBoard, until, selectionOf,
} from './lib.mjs';

describe('find', { timeout: 120000 }, () => {
  let app;
  let browser;
  let page;

  const selected = () => selectionOf(page);
  const count = () => page.getByTestId('find-count').textContent();
  /** Whether object `id`'s box is wholly on screen. */
  const inView = (id) => page.evaluate((i) => {
    const o = window.inkboard.objects()[i];
    const v = window.inkboard.view();
    const r = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
    const [x0, y0] = [(o.x - v.x) * v.zoom, (o.y - v.y) * v.zoom];
    return x0 >= 0 && y0 >= 0 && x0 + o.w * v.zoom <= r.width && y0 + o.h * v.zoom <= r.height;
  }, id);

  before(async () => {
    const dir = tempDir();
    const file = path.join(dir, 'board.inkboard');
    writeBoard(file, [
      {
        objects: [
          // Reading order: s2 (top row), then s1 and s4 (second row, left to right).
          { id: 's1', type: 'shape', x: 0, y: 400, w: 160, h: 60, text: 'The **nee**dle here' },
          { id: 's2', type: 'shape', x: 3000, y: 0, w: 160, h: 60, text: 'NEEDLE far away' },
          { id: 's3', type: 'shape', x: 300, y: 0, w: 160, h: 60, text: 'hay' },
          { id: 's4', type: 'shape', geom: 'frame', x: 600, y: 380, w: 300, h: 200, text: 'Needle frame' },
        ],
      },
      { name: 'Second', objects: [{ id: 's5', type: 'shape', x: 0, y: 0, w: 160, h: 60, text: 'a needle on page 2' }] },
    ]);
    app = await startApp(file, { dir });
    browser = await launch();
    page = await openPage(await newContext(browser), app);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -100, zoom: 1 }));
  });

  after(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('Ctrl+F opens the bar; the matches of the page are counted', async () => {
    await page.keyboard.press('Control+f');
    const input = page.getByTestId('find-input');
    await input.waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'find-input');
    await page.keyboard.type('needle');
    await until(async () => (await count()).includes('of 3'), { what: 'three matches on page 1' });
    assert.equal(await page.locator('.find-match').count(), 3, 'each match outlined');
  });

  it('Enter selects each in reading order and brings it into view; Shift+Enter goes back', async () => {
    for (const id of ['s2', 's1', 's4']) {
      await page.keyboard.press('Enter');
      await until(async () => (await selected()).join() === id, { what: `${id} selected` });
      assert.ok(await inView(id), `${id} in view`);
    }
    assert.match(await count(), /^3 of 3/);
    await page.keyboard.press('Shift+Enter');
    await until(async () => (await selected()).join() === 's1', { what: 'back to s1' });
  });

  it('past the last match, the next page; and round to the first', async () => {
    await page.keyboard.press('Enter');
    await until(async () => (await selected()).join() === 's4', { what: 's4' });
    await page.keyboard.press('Enter');
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 2, { what: 'page 2 shown' });
    await until(async () => (await selected()).join() === 's5', { what: 's5 on page 2 selected' });
    assert.match(await count(), /1 of 1 · Second/);
    await page.keyboard.press('Enter');
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 1, { what: 'page 1 again' });
    await until(async () => (await selected()).join() === 's2', { what: 'its first match' });
  });

  it('Escape closes the bar and keeps the selection', async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('find-bar').waitFor({ state: 'hidden' });
    assert.deepEqual(await selected(), ['s2']);
    assert.equal(await page.locator('.find-match').count(), 0);
  });
});
