// Locking from the page: Lock in the right-click menu, the panel and Ctrl+Shift+L
// (shortcuts.js), each one `update` and so one undo step; a locked shape is looked
// through by the mouse (a drag on it does not move it, a marquee and Ctrl+A leave it
// out, it shows no handles) but a connector may still end on it, the right-click
// menu still offers Unlock, and the server refuses to delete it.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, dragBoard, clientOf, selectionOf, newObject, watch,
} from './lib.mjs';

describe('locking from the page', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, waitFor, selected } = watch(() => page);
  const rightClick = async (p) => {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('context-menu').waitFor();
  };
  const handles = () => page.locator('[data-handle]').count();

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 100, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 200, y: 0, w: 100, h: 60, text: 'B' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('the right-click menu locks a shape, which then does not move when dragged', async () => {
    await rightClick({ x: 50, y: 30 });
    assert.deepEqual(await selectionOf(page), ['s1']);
    const item = page.getByTestId('menu-lock');
    const text = await item.textContent();
    assert.ok(text.startsWith('Lock') && text.includes('Ctrl+Shift+L'), `the menu shows Lock and its key: ${text}`);
    await item.click();
    await waitFor((o) => o.s1.locked === true, 's1 locked');
    await until(async () => (await handles()) === 0, { what: 'no handles on the locked shape' });

    // A drag that starts on it draws a marquee instead, which leaves it out.
    await dragBoard(page, { x: 50, y: 30 }, { x: 250, y: 130 });
    await selected(['s2'], 'the marquee took s2 only');
    const o = await objects();
    assert.deepEqual([o.s1.x, o.s1.y], [0, 0], 'the locked shape stayed');
    assert.deepEqual([o.s2.x, o.s2.y], [200, 0], 'nothing was moved');

    // A click on it does not select it; Ctrl+A leaves it out.
    await clickBoard(page, { x: 50, y: 30 });
    await selected([], 'a click on a locked shape selects nothing');
    await page.keyboard.press('Control+a');
    await selected(['s2'], 'select all leaves the locked shape out');
  });

  it('a connector can still end on a locked shape: connecting moves nothing', async () => {
    const before = new Set(Object.keys(await objects()));
    await page.keyboard.press('a');
    await dragBoard(page, { x: 250, y: 30 }, { x: 50, y: 30 });
    const [id, c] = await newObject(page, before, 'the connector');
    assert.deepEqual([c.from, c.to], ['s2', 's1'], 'it ends on the locked shape');
    assert.deepEqual([(await objects()).s1.x, (await objects()).s1.y], [0, 0]);
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o[id], 'the connector undone');
    await page.keyboard.press('v');
  });

  it('Delete on a locked shape (selected by the menu) is refused; Unlock and Ctrl+Z', async () => {
    await page.keyboard.press('Escape');
    await rightClick({ x: 50, y: 30 });
    assert.deepEqual(await selectionOf(page), ['s1']);
    assert.equal(await page.getByTestId('menu-delete').count(), 0, 'a locked shape offers no Delete');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Delete');
    await page.getByText(/"s1" is locked/).first().waitFor();
    assert.ok((await objects()).s1, 'still there');

    await rightClick({ x: 50, y: 30 });
    assert.equal((await page.getByTestId('menu-lock').textContent()).startsWith('Unlock'), true);
    await page.getByTestId('menu-lock').click();
    await waitFor((o) => !o.s1.locked, 's1 unlocked');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s1.locked === true, 'one undo locks it again');
    await page.keyboard.press('Control+Shift+z');
    await waitFor((o) => !o.s1.locked, 'redo unlocks it');
  });

  it('Ctrl+Shift+L locks and unlocks the selection, one undo step each', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+a');
    await selected(['s1', 's2'], 'both selected');
    await page.keyboard.press('Control+Shift+L');
    await waitFor((o) => o.s1.locked && o.s2.locked, 'both locked');
    // The panel's Arrange section now offers Unlock.
    assert.equal(await page.getByTestId('style-panel').getByTestId('lock').textContent(), 'Unlock');
    await page.keyboard.press('Control+Shift+L');
    await waitFor((o) => !o.s1.locked && !o.s2.locked, 'both unlocked');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s1.locked && o.s2.locked, 'undo locks both again');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.s1.locked && !o.s2.locked, 'and once more unlocks both');
  });

  it('the panel locks; an unlocked shape moves again', async () => {
    await page.keyboard.press('Escape');
    await clickBoard(page, { x: 250, y: 30 });
    await selected(['s2'], 's2 selected');
    const lock = page.getByTestId('style-panel').getByTestId('lock');
    assert.equal(await lock.textContent(), 'Lock');
    assert.ok((await lock.getAttribute('title')).includes('Ctrl+Shift+L'));
    await lock.click();
    await waitFor((o) => o.s2.locked === true, 's2 locked from the panel');
    await dragBoard(page, { x: 250, y: 30 }, { x: 250, y: 230 });
    // A move would have kept it selected; the drag drew a marquee instead.
    await selected([], 'the marquee leaves the locked shape out');
    assert.equal((await objects()).s2.y, 0, 'the locked shape did not move');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.s2.locked, 'undone');
    await dragBoard(page, { x: 250, y: 30 }, { x: 250, y: 230 });
    await waitFor((o) => o.s2.y === 200, 'unlocked, it moves');
  });

  it('the ? overlay lists Lock or unlock with its key', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('?');
    const help = page.getByTestId('help');
    await help.waitFor();
    const text = await help.textContent();
    assert.ok(text.includes('Lock or unlock') && text.includes('Ctrl+Shift+L'), 'listed');
    await page.keyboard.press('Escape');
  });
});
