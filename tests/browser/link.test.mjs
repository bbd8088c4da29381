// A shape's link in the editor: Ctrl+K asks for the address of the selection
// and sets it in one `update` (an empty answer removes it; an unsafe one is
// refused by the server and nothing changes), a small badge shows on a linked
// shape, a plain click still selects it, and Ctrl+click opens the link in a new
// tab without a way back to the board's page (`noopener`).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, clickBoard, clientOf, watch } from './lib.mjs';

describe('links', { timeout: 120000 }, () => {
  let s;
  let page;

  const { waitFor, selected } = watch(() => page);
  /** Presses Ctrl+K and answers its question with `answer` (null: Cancel). */
  const ctrlK = async (answer) => {
    const asked = new Promise((resolve) => {
      page.once('dialog', async (d) => {
        const shown = d.defaultValue();
        if (answer === null) await d.dismiss();
        else await d.accept(answer);
        resolve(shown);
      });
    });
    await page.keyboard.press('Control+k');
    return asked;
  };

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 160, h: 80, text: 'Docs' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 160, h: 80, text: 'Other' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('Ctrl+K sets the selection\'s link, and a badge shows it', async () => {
    await clickBoard(page, { x: 80, y: 40 });
    await selected(['s1'], 's1 selected');
    assert.equal(await page.getByTestId('link-badge').count(), 0);
    assert.equal(await ctrlK('example.com/docs'), '', 'no link yet');
    await waitFor((o) => o.s1.link === 'https://example.com/docs', 'the link set, as https');
    await page.locator('g#s1 [data-testid="link-badge"]').waitFor();
    assert.equal(await page.locator('g#s2 [data-testid="link-badge"]').count(), 0, 'no badge on s2');
    // Asked again, the current link is offered; Cancel changes nothing.
    assert.equal(await ctrlK(null), 'https://example.com/docs');
    // An unsafe address is refused by the server: the link stays.
    const revision = await page.evaluate(() => window.inkboard.revision());
    await ctrlK('javascript:alert(1)');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(await page.evaluate(() => window.inkboard.revision()), revision, 'nothing committed');
    const read = await s.mcp.call('read_board', {});
    assert.equal(read.page.objects.find((o) => o.id === 's1').link, 'https://example.com/docs');
  });

  it('a click selects a linked shape; Ctrl+click opens its link in a new tab', async () => {
    await page.keyboard.press('Escape');
    await clickBoard(page, { x: 80, y: 40 });
    await selected(['s1'], 'a plain click selects');
    assert.equal(page.context().pages().length, 1, 'no tab opened by a click');
    await page.keyboard.press('Escape');
    await s.context.route('https://example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<p>docs</p>' }));
    const p = await clientOf(page, 80, 40);
    const [tab] = await Promise.all([
      s.context.waitForEvent('page'),
      page.mouse.move(p.x, p.y).then(() => page.keyboard.down('Control'))
        .then(() => page.mouse.click(p.x, p.y))
        .then(() => page.keyboard.up('Control')),
    ]);
    await tab.waitForLoadState();
    assert.equal(tab.url(), 'https://example.com/docs');
    assert.equal(await tab.evaluate(() => window.opener), null, 'noopener: no way back');
    await tab.close();
    // Following the link did not change the selection.
    assert.deepEqual(await page.evaluate(() => window.inkboard.selection()), []);
  });

  it('an empty answer removes the link and its badge', async () => {
    await clickBoard(page, { x: 80, y: 40 });
    await selected(['s1'], 's1 selected');
    await ctrlK('');
    await waitFor((o) => o.s1.link === undefined, 'the link removed');
    await until(async () => (await page.getByTestId('link-badge').count()) === 0, { what: 'the badge gone' });
  });
});
