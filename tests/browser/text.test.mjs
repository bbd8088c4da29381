// Text and frames where the hand expects them: new text is drawn where it was typed,
// each line where it was (no re-wrap, no re-centring); a double-click inside a
// frame names the frame (no stray text object); pastes land at the pointer.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import {
  session, until, clickBoard, clientOf, selectionOf, newObject, watch,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

/** The box of the dark (ink-coloured) pixels of a PNG in each of two row bands. */
function inkLines(png, split) {
  const img = PNG.sync.read(png);
  const bands = [null, null];
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      const [r, g, b] = [img.data[i], img.data[i + 1], img.data[i + 2]];
      if (!(r < 110 && g < 110 && b < 110)) continue;
      const k = y < split ? 0 : 1;
      const o = bands[k] ?? { left: x, right: x, top: y, bottom: y };
      bands[k] = { left: Math.min(o.left, x), right: Math.max(o.right, x), top: Math.min(o.top, y), bottom: Math.max(o.bottom, y) };
    }
  }
  return bands;
}

describe('text, frames and pasting', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor } = watch(() => page);

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', geom: 'frame', x: 0, y: 300, w: 360, h: 220, text: '' },
      ],
    });
    ({ page } = s);
    // The caret and the editor's outline are not text.
    await page.addStyleTag({ content: '.text-editor { outline: none !important; caret-color: transparent !important; }' });
  });

  after(() => s?.close());

  it('new text is drawn where it was typed, line by line', async () => {
    await page.keyboard.press('t');
    const before = await ids();
    await clickBoard(page, { x: 500, y: 100 });
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    await page.keyboard.type('Hi');
    await page.keyboard.press('Enter');
    await page.keyboard.type('a longer second line');
    const box = await editor.boundingBox();
    const clip = { x: box.x - 40, y: box.y - 40, width: box.width + 80, height: box.height + 80 };
    const split = 40 + box.height / 2;
    const typed = inkLines(await page.screenshot({ clip }), split);
    await page.keyboard.press('Escape');
    const [id, o] = await newObject(page, before, 'the text shape');
    assert.equal(o.text, 'Hi\na longer second line');
    await page.locator(`g#${id} text`).first().waitFor();
    await page.keyboard.press('Escape'); // no selection outline
    await until(async () => (await selectionOf(page)).length === 0, { what: 'deselected' });
    const drawn = inkLines(await page.screenshot({ clip }), split);
    for (const k of [0, 1]) {
      assert.ok(typed[k] && drawn[k], `line ${k + 1} seen in both`);
      for (const side of ['left', 'top', 'right', 'bottom']) near(drawn[k][side], typed[k][side], 2, `line ${k + 1} ${side}`);
    }
  });

  it('a double-click inside a frame names the frame, and makes no text object', async () => {
    await page.keyboard.press('Escape');
    const before = await ids();
    await clickBoard(page, { x: 180, y: 430 }, { clickCount: 2 });
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.type('Team');
    await page.keyboard.press('Escape');
    await waitFor((o) => o.s2.text === 'Team', 'the frame named');
    assert.equal((await ids()).size, before.size, 'no new object');
  });

  it('a paste lands at the pointer once it has moved; again without moving, 20 px on', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await until(async () => (await selectionOf(page)).join() === 's1', { what: 's1 selected' });
    await page.keyboard.press('Control+c');
    const at = await clientOf(page, 250, 150);
    await page.mouse.move(at.x, at.y, { steps: 4 });
    let before = await ids();
    await page.keyboard.press('Control+v');
    const [, a] = await newObject(page, before, 'the pasted copy');
    near(a.x + a.w / 2, 250, 1, 'centred on the pointer: x');
    near(a.y + a.h / 2, 150, 1, 'centred on the pointer: y');
    before = await ids();
    await page.keyboard.press('Control+v');
    const [, b] = await newObject(page, before, 'the second copy');
    assert.deepEqual([b.x - a.x, b.y - a.y], [20, 20]);
  });

  it('a pasted image lands at the pointer', async () => {
    const png = new PNG({ width: 40, height: 20 });
    png.data.fill(90);
    const data = PNG.sync.write(png).toString('base64');
    const at = await clientOf(page, -200, 100);
    await page.mouse.move(at.x, at.y, { steps: 4 });
    const before = await ids();
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'dot.png', { type: 'image/png' }));
      document.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, data);
    const [, img] = await newObject(page, before, 'the pasted image');
    near(img.x + img.w / 2, -200, 1, 'x');
    near(img.y + img.h / 2, 100, 1, 'y');
  });
});
