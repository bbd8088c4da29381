// A connector's end labels (start_label, end_label: a role or a cardinality) in the
// editor: drawn by the renderer beside their ends (the SVG marks them data-end); a
// double-click near an end of a connector edits that end's label, on one line
// (Enter sends it, one `update`); a double-click on an end label edits it; the
// style panel shows a lone connector's end labels as text fields that set them
// and, emptied, take them away; Ctrl+Z undoes each. Real mouse and keyboard in
// Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, clientOf, clickBoard, watch } from './lib.mjs';

describe('end labels', { timeout: 120000 }, () => {
  let s;
  let page;

  const { waitFor, selected } = watch(() => page);
  /** The text drawn as c3's label at `end`, or null. */
  const drawnEnd = (end) => page.evaluate(
    (e) => document.querySelector(`g[id="c3"] text[data-end="${e}"]`)?.textContent ?? null,
    end,
  );
  const editor = () => page.getByTestId('text-editor');
  const field = (end) => page.getByTestId('style-panel').getByTestId(`${end}-label`);

  /** Double-clicks board point `p` with the mouse. */
  async function doubleClick(p) {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.dblclick(c.x, c.y);
  }

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'Customer' },
        { id: 's2', type: 'shape', x: 400, y: 0, w: 120, h: 60, text: 'Order' },
        { id: 'c3', type: 'connector', from: 's1', to: 's2', end_arrow: 'none', start_label: '1' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('draws an end label beside its end, apart from the label', async () => {
    await until(async () => (await drawnEnd('start')) === '1', { what: 'the start label drawn' });
    assert.equal(await drawnEnd('end'), null);
    // Beside the start of the line, off it: near s1's right side, above or below y = 30.
    const box = await page.evaluate(() => {
      const b = document.querySelector('g[id="c3"] text[data-end="start"]').getBBox();
      return { x: b.x, y: b.y, w: b.width, h: b.height };
    });
    assert.ok(box.x >= 120 && box.x <= 160, JSON.stringify(box));
    assert.ok(box.y + box.h <= 30 || box.y >= 30, JSON.stringify(box));
  });

  it('a double-click near the end of the line types that end\'s label', async () => {
    // On the line, 14 px before it meets s2 (clear of the end's handle).
    await doubleClick({ x: 386, y: 30 });
    await editor().waitFor();
    assert.equal(await editor().inputValue(), '');
    await page.keyboard.type('0..*');
    await page.keyboard.press('Enter');
    await waitFor((o) => o.c3.end_label === '0..*', 'the end label set');
    await until(async () => (await drawnEnd('end')) === '0..*', { what: 'the end label drawn' });
    const o = await page.evaluate(() => window.inkboard.objects());
    assert.equal(o.c3.start_label, '1', 'the start label kept');
    assert.equal(o.c3.text, undefined, 'the label untouched');
  });

  it('a double-click on an end label edits it; Ctrl+Z undoes the edit', async () => {
    const at = await page.evaluate(() => {
      const b = document.querySelector('g[id="c3"] text[data-end="start"]').getBBox();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    });
    await doubleClick(at);
    await editor().waitFor();
    assert.equal(await editor().inputValue(), '1');
    await page.keyboard.press('Control+a');
    await page.keyboard.type('1..N');
    await page.keyboard.press('Enter');
    await waitFor((o) => o.c3.start_label === '1..N', 'the start label changed');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c3.start_label === '1', 'undone');
  });

  it('the panel shows a lone connector\'s end labels, sets and clears them', async () => {
    await page.keyboard.press('Escape');
    // The middle of the line selects the connector.
    await clickBoard(page, { x: 260, y: 30 });
    await selected(['c3'], 'c3 selected');
    assert.equal(await field('start').inputValue(), '1');
    assert.equal(await field('end').inputValue(), '0..*');
    await field('start').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('buyer');
    await page.keyboard.press('Enter');
    await waitFor((o) => o.c3.start_label === 'buyer', 'the start label from the panel');
    await until(async () => (await drawnEnd('start')) === 'buyer', { what: 'drawn' });
    await field('end').click();
    await page.keyboard.press('Control+a');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Enter');
    await waitFor((o) => o.c3.end_label === undefined, 'the end label taken away');
    await until(async () => (await drawnEnd('end')) === null, { what: 'no longer drawn' });
    // Focus back on the board: Ctrl+Z undoes the clearing alone.
    await clickBoard(page, { x: 260, y: 30 });
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c3.end_label === '0..*' && o.c3.start_label === 'buyer', 'the clearing undone');
  });
});
