// The page shows a board: an existing file (the format's golden example, every
// object type) is drawn object by object, and its page tabs switch and add pages.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  GOLDEN, session, drawnIds, until, savedObjects,
} from './lib.mjs';

describe('an existing board', { timeout: 120000 }, () => {
  let s;
  let page;
  let file;
  const golden = JSON.parse(readFileSync(GOLDEN, 'utf8'));
  const idsOf = (n) => golden.pages[n - 1].objects.map((o) => o.id);

  before(async () => {
    s = await session({ golden: true });
    ({ page, file } = s);
  });

  after(() => s?.close());

  it('draws every object of the first page as a <g id>', async () => {
    assert.deepEqual((await drawnIds(page)).sort(), idsOf(1).sort());
    assert.equal(await page.evaluate(() => window.inkboard.page()), 1);
    assert.equal(await page.getByTestId('board-title').textContent(), golden.title);
    // Drawn, not just present: the objects layer has a real size on screen.
    const box = await page.locator('[data-testid="board-svg"] g.objects').boundingBox();
    assert.ok(box.width > 400 && box.height > 200, `objects layer box ${JSON.stringify(box)}`);
    // The text comes from the server's fragments.
    assert.match(await page.locator('g#s2').textContent(), /Gateway/);
  });

  it('switches to another page with its tab', async () => {
    await page.getByTestId('page-tab-2').click();
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 2, { what: 'page 2' });
    await until(async () => (await drawnIds(page)).sort().join() === idsOf(2).sort().join(), { what: 'page 2 objects' });
    assert.equal(await page.getByTestId('page-tab-2').getAttribute('aria-selected'), 'true');
    await page.getByTestId('page-tab-1').click();
    await until(async () => (await drawnIds(page)).sort().join() === idsOf(1).sort().join(), { what: 'page 1 objects' });
  });

  it('adds a page with +, shows it empty, and saves it', async () => {
    await page.getByTestId('add-page').click();
    await until(async () => (await page.evaluate(() => window.inkboard.page())) === 3, { what: 'page 3 shown' });
    await page.getByTestId('page-tab-3').waitFor();
    assert.equal(await page.getByTestId('page-tab-3').getAttribute('aria-selected'), 'true');
    // The tab changes with the `board` message; the empty scene follows it.
    await until(async () => (await drawnIds(page)).length === 0, { what: 'page 3 drawn empty' });
    await until(() => JSON.parse(readFileSync(file, 'utf8')).pages.length === 3, { what: 'the file to hold 3 pages' });
    assert.deepEqual(savedObjects(file, 3), []);
    // And back: the first page is drawn again.
    await page.getByTestId('page-tab-1').click();
    await until(async () => (await drawnIds(page)).length === idsOf(1).length, { what: 'page 1 again' });
  });
});
