// Text in a turned shape looks the same while typing as after: a double-click on a
// turned shape opens its text editor turned as the shape is, about the shape's
// centre (at any zoom), and Escape commits the text, which the server then draws
// where the typed text stood. Compared in pixels: the box of the dark (ink) pixels
// around the shape while typing and once drawn. An unturned editor would show a
// flat line of text where the drawing has a slanted one.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { session, until, clientOf, objectsOf } from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

/** The box of the dark (ink-coloured) pixels of a PNG, or null. */
function inkBox(png) {
  const img = PNG.sync.read(png);
  let box = null;
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4;
      if (!(img.data[i] < 110 && img.data[i + 1] < 110 && img.data[i + 2] < 110)) continue;
      box = box
        ? { left: Math.min(box.left, x), right: Math.max(box.right, x), top: Math.min(box.top, y), bottom: Math.max(box.bottom, y) }
        : { left: x, right: x, top: y, bottom: y };
    }
  }
  return box;
}

describe('text in a turned shape', { timeout: 120000 }, () => {
  let s;
  let page;

  before(async () => {
    s = await session({
      objects: [
        // Light outlines, so that only the text is ink in the pictures.
        { id: 's1', type: 'shape', x: 0, y: 0, w: 220, h: 80, text: 'Old words', rotation: 30, stroke: '#dddddd' },
        { id: 's2', type: 'shape', geom: 'ellipse', x: 400, y: 0, w: 200, h: 120, text: 'Other', rotation: 300, stroke: '#dddddd' },
        // Upside down: its text sits in its wide half, now the top one.
        { id: 's3', type: 'shape', geom: 'triangle', x: 0, y: 400, w: 220, h: 180, text: 'Low', flip_y: true, stroke: '#dddddd' },
      ],
    });
    ({ page } = s);
    // The caret, the editor's outline and the selection's marks are not text.
    await page.addStyleTag({
      content: '.text-editor { outline: none !important; caret-color: transparent !important; } .overlay { display: none; }',
    });
  });

  after(() => s?.close());

  /**
   * Double-clicks the centre of shape `id` (board `c`), types `lines`, and answers
   * the editor's turn (degrees, from its computed transform), its box and the ink
   * box of a picture around the shape while typing, then after Escape once drawn.
   */
  async function typeInto(id, c, lines) {
    const p = await clientOf(page, c.x, c.y);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    await page.keyboard.press('Control+a');
    for (const [i, line] of lines.entries()) {
      if (i) await page.keyboard.press('Enter');
      await page.keyboard.type(line);
    }
    const turn = await editor.evaluate((el) => {
      const m = new DOMMatrix(getComputedStyle(el).transform);
      return (Math.atan2(m.b, m.a) * 180) / Math.PI;
    });
    const box = await editor.boundingBox();
    const clip = { x: p.x - 160, y: p.y - 160, width: 320, height: 320 };
    const typing = inkBox(await page.screenshot({ clip }));
    await page.keyboard.press('Escape');
    const text = lines.join('\n');
    await until(async () => (await objectsOf(page))[id].text === text, { what: `${id}'s text committed` });
    assert.equal(await editor.count(), 0, 'the editor is gone');
    await until(async () => (await page.locator(`g#${id}`).textContent()).includes(lines[0]), { what: `${id}'s new text drawn` });
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    const drawn = inkBox(await page.screenshot({ clip }));
    return { turn, box, p, typing, drawn };
  }

  function sameInk(typing, drawn, tol) {
    assert.ok(typing && drawn, 'text is seen in both pictures');
    for (const side of ['left', 'right', 'top', 'bottom']) near(typing[side], drawn[side], tol, `the ink's ${side} edge, typing vs drawn`);
  }

  it('a shape turned 30°: the editor is turned 30° about its centre; Escape commits', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -250, zoom: 1 }));
    const r = await typeInto('s1', { x: 110, y: 40 }, ['Hello turned']);
    near(r.turn, 30, 0.5, 'the editor turn');
    // The editor's text box is centred in the shape, so its turned box is centred
    // on the shape's centre too.
    near(r.box.x + r.box.width / 2, r.p.x, 2, 'editor centre x');
    near(r.box.y + r.box.height / 2, r.p.y, 2, 'editor centre y');
    // Turned: its upright bounding box is much taller than one line of text.
    assert.ok(r.typing.bottom - r.typing.top > 40, `the typed line slants: ${JSON.stringify(r.typing)}`);
    sameInk(r.typing, r.drawn, 4);
  });

  it('turned -60° at 150%, two lines: the same while typing as drawn', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: 200, y: -220, zoom: 1.5 }));
    const r = await typeInto('s2', { x: 500, y: 60 }, ['First line', 'second']);
    near(r.turn, -60, 0.5, 'the editor turn');
    near(r.box.x + r.box.width / 2, r.p.x, 3, 'editor centre x');
    near(r.box.y + r.box.height / 2, r.p.y, 3, 'editor centre y');
    sameInk(r.typing, r.drawn, 5);
  });

  it('a triangle flipped upside down: the editor sits in its wide half, where the text is drawn', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: 250, zoom: 1 }));
    const r = await typeInto('s3', { x: 110, y: 490 }, ['Top']);
    // The wide half is the top one now: the text is above the shape's centre.
    assert.ok(r.box.y + r.box.height / 2 < r.p.y - 10, `the editor is in the top half: ${JSON.stringify(r.box)} vs ${r.p.y}`);
    sameInk(r.typing, r.drawn, 4);
  });
});
