// Rotation and selections acting as one, by hand: the round handle above a
// selected shape turns it (Shift: to 15° steps), a turned shape's side handle
// resizes it along its own axis, a multi-selection's corner handle
// scales positions and sizes together (Shift keeps the aspect ratio), a group turns
// about its centre, and each gesture is one call, so one Ctrl+Z undoes it whole.
// Checked in the page's data (what the server committed) and in the drawing (the
// server's turned SVG).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, clickBoard, clientOf, watch,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

describe('rotation and multi-selection handles', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, waitFor, selected } = watch(() => page);

  /** Drags from the centre of the element with test id `handle` to board point `to`. */
  async function dragHandle(handle, to, { shift = false, steps = 10 } = {}) {
    const box = await page.getByTestId(handle).boundingBox();
    const q = await clientOf(page, to.x, to.y);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    if (shift) await page.keyboard.down('Shift');
    await page.mouse.move(q.x, q.y, { steps });
    await page.mouse.up();
    if (shift) await page.keyboard.up('Shift');
  }

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'Turn me' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'B' },
        { id: 's3', type: 'shape', x: 0, y: 200, w: 120, h: 60, text: 'C' },
        { id: 's4', type: 'shape', x: 600, y: 300, w: 100, h: 40, text: 'Already', rotation: 30 },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('a turned shape from the file is drawn turned, as the server drew it', async () => {
    const t = await page.evaluate(() => document.getElementById('s4').querySelector('g[transform]')?.getAttribute('transform'));
    assert.equal(t, 'rotate(30 650 320)');
  });

  it('the rotate handle turns a shape about its centre; Shift snaps to 15°; Ctrl+Z undoes each', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    await page.getByTestId('handle-rotate').waitFor();
    // From straight above the centre (60, 30) to 100 px right and 30 px down
    // of it: atan(30/100) past a quarter turn.
    const free = 90 + (Math.atan2(30, 100) * 180) / Math.PI;
    await dragHandle('handle-rotate', { x: 160, y: 60 });
    let o = await waitFor((o) => o.s1.rotation && o.s1, 's1 turned');
    near(o.rotation, free, 0.6, 'rotation');
    assert.deepEqual([o.x, o.y, o.w, o.h], [0, 0, 120, 60], 'turned about its centre: the box stays');
    // The page draws the server's turned fragment.
    const t = await page.evaluate(() => document.getElementById('s1').querySelector('g[transform]')?.getAttribute('transform'));
    assert.match(t, /^rotate\(106\.\d+ 60 30\)$/);

    // Shift: the angle itself snaps to a multiple of 15. The handle now stands
    // at 106.7° from the centre; dragged to 45° further on it would be 151.7°,
    // snapped to 150.
    const c = { x: 60, y: 30 };
    const a = ((free + 45 - 90) * Math.PI) / 180;
    await dragHandle('handle-rotate', { x: c.x + 100 * Math.cos(a), y: c.y + 100 * Math.sin(a) }, { shift: true });
    o = await waitFor((o) => o.s1.rotation % 15 === 0 && o.s1, 's1 snapped');
    assert.equal(o.rotation, 150);

    await page.keyboard.press('Control+z');
    o = await waitFor((o) => Math.abs(o.s1.rotation - free) < 0.6 && o.s1, 'the snapped turn undone');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.s1.rotation, 'the first turn undone: no rotation');
  });

  it('a turned shape resizes along its own sides, its far side staying in place', async () => {
    await clickBoard(page, { x: 650, y: 320 });
    await selected(['s4'], 's4 selected');
    // s4 is 100 × 40 about (650, 320), turned 30°: its east handle is 50 px along
    // its own x axis; pulled 50 px further along it.
    const ux = Math.cos(Math.PI / 6);
    const uy = Math.sin(Math.PI / 6);
    await dragHandle('handle-e', { x: 650 + 100 * ux, y: 320 + 100 * uy });
    const o = await waitFor((o) => o.s4.w !== 100 && o.s4, 's4 resized');
    near(o.w, 150, 1, 'w');
    near(o.h, 40, 1, 'h');
    assert.equal(o.rotation, 30);
    // The centre moved 25 px along the turned axis: the west side stayed.
    near(o.x + o.w / 2, 650 + 25 * ux, 1.5, 'centre x');
    near(o.y + o.h / 2, 320 + 25 * uy, 1.5, 'centre y');
  });

  it('a corner handle of a multi-selection scales positions and sizes; one Ctrl+Z undoes it', async () => {
    await clickBoard(page, { x: 360, y: 30 });
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 60, y: 230 });
    await page.keyboard.up('Shift');
    await selected(['s2', 's3'], 's2 and s3');
    await page.getByTestId('handle-se').waitFor();
    // The box around both is (0, 0)-(420, 260): its corner to (630, 300) with
    // Shift keeps the ratio, at the larger scale, 1.5.
    await dragHandle('handle-se', { x: 630, y: 300 }, { shift: true });
    const o = await waitFor((o) => o.s2.w !== 120 && o, 'both resized');
    near(o.s2.x, 450, 2, 's2 x');
    near(o.s2.y, 0, 2, 's2 y');
    near(o.s2.w, 180, 2, 's2 w');
    near(o.s2.h, 90, 2, 's2 h');
    near(o.s3.x, 0, 2, 's3 x');
    near(o.s3.y, 300, 2, 's3 y');
    near(o.s3.w, 180, 2, 's3 w');
    near(o.s3.h, 90, 2, 's3 h');
    await page.keyboard.press('Control+z');
    const back = await waitFor((o) => o.s2.w === 120 && o, 'the resize undone');
    assert.deepEqual([back.s2.x, back.s2.y, back.s2.w, back.s2.h], [300, 0, 120, 60]);
    assert.deepEqual([back.s3.x, back.s3.y, back.s3.w, back.s3.h], [0, 200, 120, 60]);
  });

  it('a group turns as one about its centre; one Ctrl+Z undoes it', async () => {
    await clickBoard(page, { x: 360, y: 30 });
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 60, y: 230 });
    await page.keyboard.up('Shift');
    await selected(['s2', 's3'], 's2 and s3 again');
    await page.keyboard.press('Control+g');
    const g = await waitFor((o) => Object.values(o).find((x) => x.type === 'group'), 'the group');
    await clickBoard(page, { x: 360, y: 30 });
    await selected([g.id], 'the group selected');
    await page.getByTestId('handle-rotate').waitFor();
    // The box around the group is (0, 0)-(420, 260), centre (210, 130): a
    // quarter turn clockwise with Shift.
    await dragHandle('handle-rotate', { x: 400, y: 130 }, { shift: true });
    const o = await waitFor((o) => o.s2.rotation === 90 && o.s3.rotation === 90 && o, 'both turned');
    // s2's centre (360, 30) goes a quarter turn about (210, 130): to (310, 280).
    near(o.s2.x + 60, 310, 2, 's2 centre x');
    near(o.s2.y + 30, 280, 2, 's2 centre y');
    // s3's centre (60, 230) to (110, -20).
    near(o.s3.x + 60, 110, 2, 's3 centre x');
    near(o.s3.y + 30, -20, 2, 's3 centre y');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.s2.rotation && !o.s3.rotation && o.s2.x === 300, 'the turn undone whole');
  });
});
