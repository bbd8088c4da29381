// A turned frame carries its contents, by hand: the rotate handle of a frame turns
// the shapes in it about the frame's centre (each by the same angle more), in the
// preview while dragging and in what the server commits; the connector between
// them follows, a shape outside stays, and one Ctrl+Z undoes it all. With the
// frame and one of its shapes selected together, the shape turns once, not twice.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, clickBoard, clientOf, watch,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

describe('a turned frame carries its contents', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, waitFor, selected } = watch(() => page);
  const transformOf = (id) => page.evaluate((i) => document.getElementById(i)?.getAttribute('transform') ?? null, id);

  /** Presses the rotate handle, moves (Shift held) to board point `to`, runs `during`, releases. */
  async function turnTo(to, during = async () => {}) {
    const box = await page.getByTestId('handle-rotate').boundingBox();
    const q = await clientOf(page, to.x, to.y);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.keyboard.down('Shift');
    await page.mouse.move(q.x, q.y, { steps: 10 });
    await during();
    await page.mouse.up();
    await page.keyboard.up('Shift');
  }

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', geom: 'frame', x: 0, y: 0, w: 400, h: 300, text: 'Frame' },
        { id: 's2', type: 'shape', x: 50, y: 50, w: 100, h: 50, text: 'a' },
        { id: 's3', type: 'shape', x: 250, y: 200, w: 100, h: 50, text: 'b', rotation: 10 },
        { id: 'c4', type: 'connector', from: 's2', to: 's3' },
        { id: 's5', type: 'shape', x: 500, y: 0, w: 100, h: 50, text: 'outside' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -250, zoom: 1 }));
  });

  after(() => s?.close());

  it("the frame's rotate handle turns what it holds about its centre; one Ctrl+Z undoes it", async () => {
    // The frame is picked by its title strip.
    await clickBoard(page, { x: 200, y: 12 });
    await selected(['s1'], 'the frame selected');
    await page.getByTestId('handle-rotate').waitFor();
    // From above the centre (200, 150) to its right, Shift: a quarter turn.
    await turnTo({ x: 420, y: 150 }, async () => {
      assert.match(await transformOf('s2') ?? '', /^rotate\(90 200 150\)$/, 'a shape inside turns in the preview');
      assert.equal(await transformOf('s5'), null, 'the shape outside does not');
    });
    const o = await waitFor((o) => o.s1.rotation === 90 && o.s2.rotation === 90 && o, 'frame and contents turned');
    assert.deepEqual([o.s1.x, o.s1.y, o.s1.w, o.s1.h], [0, 0, 400, 300], 'the frame turns about its centre');
    // s2's centre (100, 75) a quarter turn about (200, 150): (275, 50).
    near(o.s2.x + 50, 275, 0.01, 's2 centre x');
    near(o.s2.y + 25, 50, 0.01, 's2 centre y');
    // s3's centre (300, 225) to (125, 250), and its own 10° turn 90° more.
    near(o.s3.x + 50, 125, 0.01, 's3 centre x');
    near(o.s3.y + 25, 250, 0.01, 's3 centre y');
    assert.equal(o.s3.rotation, 100);
    assert.deepEqual([o.s5.x, o.s5.y, o.s5.rotation ?? 0], [500, 0, 0], 'outside stays');
    // The connector follows: its drawn line now starts by s2's turned place.
    const start = await page.evaluate(() => {
      const d = document.getElementById('c4').querySelector('path').getAttribute('d');
      const [x, y] = d.slice(1).trim().split(/[ ,L]+/).map(Number);
      return { x, y };
    });
    assert.ok(Math.hypot(start.x - 275, start.y - 50) < 60, `c4 starts at ${JSON.stringify(start)}, far from s2 at (275, 50)`);
    // The page draws the server's fragments: s2 turned about its new centre.
    const t = await page.evaluate(() => document.getElementById('s2').querySelector('g[transform]')?.getAttribute('transform'));
    assert.equal(t, 'rotate(90 275 50)');

    await page.keyboard.press('Control+z');
    const back = await waitFor((o) => !o.s1.rotation && o, 'the turn undone');
    assert.deepEqual([back.s2.x, back.s2.y, back.s2.rotation ?? 0], [50, 50, 0], 's2 back in one step');
    assert.deepEqual([back.s3.x, back.s3.y, back.s3.rotation], [250, 200, 10], 's3 back in one step');
  });

  it('a frame and a shape in it, selected together, turn it once', async () => {
    // The shape first, so it would be sent before the frame that carries it.
    await clickBoard(page, { x: 100, y: 75 });
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 200, y: 12 });
    await page.keyboard.up('Shift');
    await selected(['s1', 's2'], 'shape and frame selected');
    await page.getByTestId('handle-rotate').waitFor();
    // The box around both is the frame's: the same quarter turn.
    await turnTo({ x: 420, y: 150 });
    const o = await waitFor((o) => o.s1.rotation === 90 && o, 'turned');
    assert.equal(o.s2.rotation, 90, 's2 turned once');
    near(o.s2.x + 50, 275, 0.01, 's2 centre x');
    near(o.s2.y + 25, 50, 0.01, 's2 centre y');
    assert.equal(o.s3.rotation, 100, 's3 carried along');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.s1.rotation && !o.s2.rotation && o.s3.rotation === 10, 'undone in one step');
  });
});
