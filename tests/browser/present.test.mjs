// Present and point: the laser pointer (K) draws a fading trail on screen and
// makes no object; presenting (the Present button, or Alt+P, listed in the `?`
// overlay) shows the page's frames as slides in reading order, each filling the
// screen with the editor's chrome hidden, → and ← move between them, Escape ends
// it with the view and tool as they were. Real mouse and keyboard events.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, dragBoard, clientOf } from './lib.mjs';

describe('present and point', { timeout: 120000 }, () => {
  let s;
  let page;

  const tool = () => page.getByTestId('canvas').getAttribute('data-tool');
  const view = () => page.evaluate(() => window.inkboard.view());
  const slide = () => page.evaluate(() => document.body.dataset.slide);
  /** Whether frame `id` fills the screen: whole, and touching two opposite edges (less the margin). */
  const fills = (id) => page.evaluate((i) => {
    const o = window.inkboard.objects()[i];
    const v = window.inkboard.view();
    const r = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
    const x0 = (o.x - v.x) * v.zoom;
    const y0 = (o.y - v.y) * v.zoom;
    const [w, h] = [o.w * v.zoom, o.h * v.zoom];
    const whole = x0 >= 0 && y0 >= 0 && x0 + w <= r.width + 0.5 && y0 + h <= r.height + 0.5;
    return whole && (w >= r.width - 50 || h >= r.height - 50);
  }, id);

  before(async () => {
    s = await session({
      objects: [
        // Reading order: s3 (top row), then s1 and s2 (second row, left to right).
        { id: 's1', type: 'shape', geom: 'frame', x: 0, y: 600, w: 400, h: 300, text: 'Two' },
        { id: 's2', type: 'shape', geom: 'frame', x: 600, y: 620, w: 400, h: 300, text: 'Three' },
        { id: 's3', type: 'shape', geom: 'frame', x: 300, y: 0, w: 800, h: 300, text: 'One' },
        { id: 's4', type: 'shape', x: 50, y: 700, w: 120, h: 60, text: 'In two' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -100, zoom: 0.6 }));
  });

  after(() => s?.close());

  it('K: the laser draws a trail that fades, and makes nothing', async () => {
    const revision = await page.evaluate(() => window.inkboard.revision());
    await page.keyboard.press('k');
    await until(async () => (await tool()) === 'laser', { what: 'the laser' });
    const a = await clientOf(page, 100, 400);
    const b = await clientOf(page, 500, 450);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 12 });
    assert.ok((await page.locator('.laser-trail .laser').count()) > 3, 'a trail while pointing');
    await page.mouse.up();
    await until(async () => (await page.locator('.laser-trail').count()) === 0, { what: 'the trail faded away', ms: 3000 });
    assert.equal(await page.evaluate(() => window.inkboard.revision()), revision, 'nothing sent');
    await page.keyboard.press('v');
  });

  it('the Present button shows the frames in reading order, each filling the screen', async () => {
    const before = await view();
    await page.getByTestId('present').click();
    await until(async () => (await slide()) === 's3', { what: 'the first slide: the top row' });
    await until(() => fills('s3'), { what: 'it fills the screen' });
    assert.equal(await page.getByTestId('toolbar').isVisible(), false, 'the chrome is hidden');
    assert.equal(await page.getByTestId('present-count').textContent(), '1 / 3');
    await page.keyboard.press('ArrowRight');
    await until(async () => (await slide()) === 's1' && fills('s1'), { what: 'then the second row, left' });
    await page.keyboard.press('ArrowRight');
    await until(async () => (await slide()) === 's2' && fills('s2'), { what: 'then right' });
    await page.keyboard.press('ArrowRight');
    assert.equal(await slide(), 's2', 'the last stays');
    await page.keyboard.press('ArrowLeft');
    await until(async () => (await slide()) === 's1', { what: 'back' });
    // Keys that would edit do nothing while presenting.
    await page.keyboard.press('Delete');
    await page.keyboard.press('Escape');
    await until(async () => !(await page.evaluate(() => document.body.classList.contains('presenting'))), { what: 'ended' });
    assert.equal(await page.getByTestId('toolbar').isVisible(), true);
    const after = await until(async () => {
      const v = await view();
      return Math.abs(v.zoom - before.zoom) < 1e-9 && v;
    }, { what: 'the view back' });
    assert.ok(Math.abs(after.x - before.x) < 1e-6 && Math.abs(after.y - before.y) < 1e-6);
    assert.equal(await tool(), 'select', 'the tool back');
    assert.equal(Object.keys(await page.evaluate(() => window.inkboard.objects())).length, 4, 'nothing deleted');
  });

  it('Alt+P starts it too, and the `?` overlay lists it', async () => {
    await page.keyboard.press('Alt+p');
    await until(async () => (await slide()) === 's3', { what: 'presenting' });
    await page.getByTestId('present-end').click();
    await until(async () => !(await page.evaluate(() => document.body.classList.contains('presenting'))), { what: 'ended' });
    await page.keyboard.press('?');
    const row = page.getByTestId('help').locator('[data-action="present"]');
    await row.waitFor();
    assert.match(await row.textContent(), /Alt\+P/);
    await page.keyboard.press('Escape');
  });
});
