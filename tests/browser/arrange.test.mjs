// Arranging from the page: align, distribute, order, group and duplicate from the
// style panel, the right-click menu and the keys (shortcuts.js), each one undo step.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, dragBoard, clientOf, selectionOf, watch,
} from './lib.mjs';

describe('arranging from the page', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor, selected } = watch(() => page);
  const selectAllThree = async () => {
    await page.keyboard.press('Escape');
    await dragBoard(page, { x: -40, y: -40 }, { x: 640, y: 200 });
    await selected(['s1', 's2', 's3'], 'the three shapes');
  };
  const rightClick = async (p) => {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('context-menu').waitFor();
  };
  const drawnOrder = () => page.evaluate(() => [...document.querySelectorAll('[data-testid="objects"] > g[id]')].map((g) => g.id));
  const undo = async (check, what) => {
    await page.keyboard.press('Control+z');
    await waitFor(check, what);
  };

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 100, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 200, y: 40, w: 100, h: 60, text: 'B' },
        { id: 's3', type: 'shape', x: 500, y: 100, w: 100, h: 60, text: 'C' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('the panel aligns the selection\'s tops, one undo step', async () => {
    await selectAllThree();
    await page.getByTestId('align-top').click();
    await waitFor((o) => o.s1.y === 0 && o.s2.y === 0 && o.s3.y === 0, 'tops aligned');
    await undo((o) => o.s2.y === 40 && o.s3.y === 100, 'one undo puts all back');
  });

  it('the panel distributes horizontally', async () => {
    await selectAllThree();
    await page.getByTestId('distribute-horizontal').click();
    await waitFor((o) => o.s2.x === 250, 's2 midway');
    await undo((o) => o.s2.x === 200, 'undone');
  });

  it('Alt+A aligns left; Alt+Shift+V distributes vertically', async () => {
    await selectAllThree();
    await page.keyboard.press('Alt+a');
    await waitFor((o) => o.s1.x === 0 && o.s2.x === 0 && o.s3.x === 0, 'left aligned');
    await undo((o) => o.s2.x === 200 && o.s3.x === 500, 'undone');
    await page.keyboard.press('Alt+Shift+V');
    await waitFor((o) => o.s2.y === 50, 'spaced vertically');
    await undo((o) => o.s2.y === 40, 'undone');
  });

  it('the right-click menu selects what it is on, and orders it to the back', async () => {
    await page.keyboard.press('Escape');
    await rightClick({ x: 550, y: 130 });
    assert.deepEqual(await selectionOf(page), ['s3']);
    const text = await page.getByTestId('menu-order-back').textContent();
    assert.ok(text.includes('Ctrl+Shift+['), `the menu shows the key: ${text}`);
    await page.getByTestId('menu-order-back').click();
    await until(async () => (await drawnOrder())[0] === 's3', { what: 's3 at the back' });
    await page.keyboard.press('Control+]');
    await until(async () => (await drawnOrder())[1] === 's3', { what: 'Ctrl+] brings s3 one step forward' });
  });

  it('the menu groups a selection and duplicates it; Escape closes it', async () => {
    await selectAllThree();
    await rightClick({ x: 50, y: 30 });
    assert.deepEqual(await selectionOf(page), ['s1', 's2', 's3'], 'a click on the selection keeps it');
    await page.getByTestId('menu-group').click();
    const group = await until(async () => {
      const g = Object.values(await objects()).find((o) => o.type === 'group');
      return g && g.id;
    }, { what: 'the group' });
    await selected([group], 'the group selected');

    const before = await ids();
    await rightClick({ x: 50, y: 30 });
    await page.getByTestId('menu-duplicate').click();
    await until(async () => (await ids()).size === before.size + 4, { what: 'a copy of the group and its members' });
    await until(async () => {
      const sel = await selectionOf(page);
      return sel.length === 1 && sel[0] !== group && !before.has(sel[0]);
    }, { what: 'the copy selected' });

    await rightClick({ x: 300, y: 350 });
    assert.deepEqual(await selectionOf(page), [], 'a right-click on empty board clears the selection');
    assert.equal(await page.getByTestId('menu-order-front').count(), 0);
    await page.keyboard.press('Escape');
    await page.getByTestId('context-menu').waitFor({ state: 'detached' });
  });

  it('the panel groups with Ctrl+G and ungroups from its button', async () => {
    await page.keyboard.press('Escape');
    const before = await ids();
    await page.keyboard.press('Control+z'); // the duplicate
    await page.keyboard.press('Control+z'); // the group
    await until(async () => !Object.values(await objects()).some((o) => o.type === 'group'), { what: 'no group left' });
    await selectAllThree();
    await page.keyboard.press('Control+g');
    const group = await until(async () => Object.values(await objects()).find((o) => o.type === 'group')?.id, { what: 'grouped' });
    await selected([group], 'the group selected');
    await page.getByTestId('ungroup').click();
    await selected(['s1', 's2', 's3'], 'the members selected');
    assert.ok(before.size > 3);
  });
});
