// Navigation: the view of a board's page (pan and zoom) comes back on reload, the
// browser's Back and Forward move between the boards the window showed, and the
// board's title is renamed from the top bar.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, openPage } from './lib.mjs';

describe('navigation', { timeout: 120000 }, () => {
  let s;
  let page;

  const view = (p = page) => p.evaluate(() => window.inkboard.view());
  const title = () => page.getByTestId('board-title').textContent();

  before(async () => {
    s = await session({
      mcp: true,
      objects: [{ id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' }],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('a reload shows the view the page was left at', async () => {
    const b = await page.getByTestId('canvas').boundingBox();
    await page.mouse.move(b.x + 300, b.y + 200);
    const v0 = await view();
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -200);
    await page.keyboard.up('Control');
    await page.mouse.wheel(120, 80);
    const v1 = await until(async () => {
      const v = await view();
      return v.zoom !== v0.zoom && v.x !== v0.x && v;
    }, { what: 'zoomed and panned' });
    // The view is kept in the browser's storage when the gesture rests.
    const kept = await until(async () => {
      const v = await view();
      const stored = await page.evaluate(() => Object.values(JSON.parse(localStorage.getItem('inkboard-views') ?? '{}')));
      return stored.some((w) => Math.abs(w.zoom - v.zoom) < 1e-9 && Math.abs(w.x - v.x) < 1e-6) && v;
    }, { what: 'the view stored' });
    assert.ok(Math.abs(kept.zoom - v1.zoom) < 1e-9);

    await page.reload();
    await page.waitForFunction(() => window.inkboard?.ready);
    await page.evaluate(() => window.inkboard.ready);
    const v2 = await view();
    for (const k of ['x', 'y', 'zoom']) assert.ok(Math.abs(v2[k] - kept[k]) < 1e-6, `${k}: ${v2[k]} after the reload, ${kept[k]} before`);

    // Another window on the same board opens at that view too.
    const other = await openPage(s.context, s.app);
    const v3 = await view(other);
    assert.ok(Math.abs(v3.zoom - kept.zoom) < 1e-6);
    await other.close();
  });

  it('the title is renamed from the top bar, one undo step', async () => {
    const old = await title();
    await page.getByTestId('board-title').click();
    const input = page.getByTestId('board-title-input');
    await input.waitFor();
    await input.fill('Renamed plan');
    await input.press('Enter');
    await until(async () => (await s.mcp.call('read_board', {})).title === 'Renamed plan', { what: 'the title on the board' });
    assert.equal(await title(), 'Renamed plan');
    await page.keyboard.press('Control+z');
    await until(async () => (await title()) === old, { what: 'the old title back' });

    await page.getByTestId('board-title').click();
    await input.fill('Not kept');
    await input.press('Escape');
    assert.equal(await title(), old, 'Escape keeps the title');
  });

  it('Back and Forward move between boards', async () => {
    const first = await title();
    // The new board goes to the window that had the focus last: this one.
    await page.bringToFront();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    // Without a path, the new board opens in the application, in this window.
    await s.mcp.call('create_board', { title: 'Second board' });
    await until(async () => (await title()) === 'Second board', { what: 'the window on the new board' });
    await page.goBack();
    await until(async () => (await title()) === first, { what: 'Back shows the first board' });
    const objectIds = () => page.evaluate(() => Object.keys(window.inkboard.objects()).join());
    await until(async () => (await objectIds()) === 's1', { what: 'its objects drawn' });
    await page.goForward();
    await until(async () => (await title()) === 'Second board', { what: 'Forward shows the second board' });
    await until(async () => (await objectIds()) === '', { what: 'the empty second board' });
  });
});
