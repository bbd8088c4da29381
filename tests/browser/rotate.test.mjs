// Rotation and selections acting as one, by hand: the round handle above a
// selected shape turns it (Shift: to 15° steps), a turned shape's side handle
// resizes it along its own axis, a multi-selection's corner handle
// scales positions and sizes together (Shift keeps the aspect ratio; without it a
// corner stretches unevenly), a group is resized by a side handle and turns about
// its centre, an ungrouped multi-selection turns as one, and a selection holding an
// ink stroke and a connector with free ends is resized and turned with them (the
// stroke's points and the connector's ends and bend rewritten, checked on the
// server over MCP); each gesture is one call, so one Ctrl+Z undoes it whole.
// Checked in the page's data (what the server committed) and in the drawing (the
// server's turned SVG).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, clickBoard, clientOf, dragBoard, until, watch,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

/** Drags from the centre of the element with test id `handle` to board point `to`. */
async function dragHandleIn(page, handle, to, { shift = false, steps = 10 } = {}) {
  const box = await page.getByTestId(handle).boundingBox();
  const q = await clientOf(page, to.x, to.y);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  if (shift) await page.keyboard.down('Shift');
  await page.mouse.move(q.x, q.y, { steps });
  await page.mouse.up();
  if (shift) await page.keyboard.up('Shift');
}

describe('rotation and multi-selection handles', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, waitFor, selected } = watch(() => page);

  const dragHandle = (handle, to, options) => dragHandleIn(page, handle, to, options);

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

describe('groups, multi-selections and ink under the handles', { timeout: 120000 }, () => {
  let s;
  let page;

  const { waitFor, selected } = watch(() => page);
  const dragHandle = (handle, to, options) => dragHandleIn(page, handle, to, options);

  /** The board point at the centre of the handle with test id `handle`. */
  const handleAt = (handle) => page.getByTestId(handle).evaluate((el) => ({
    x: Number(el.getAttribute('x')) + Number(el.getAttribute('width')) / 2,
    y: Number(el.getAttribute('y')) + Number(el.getAttribute('height')) / 2,
  }));

  /** An object as the server has it now, read over MCP like an agent. */
  const onServer = async (id) => (await s.mcp.call('read_board', {})).page.objects.find((o) => o.id === id);

  const INK = [[0, 600], [50, 650], [100, 600], [150, 650]];

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 'a1', type: 'shape', x: 0, y: 0, w: 100, h: 50, text: 'A' },
        { id: 'a2', type: 'shape', x: 200, y: 100, w: 100, h: 50, text: 'B' },
        { id: 'g3', type: 'group', ids: ['a1', 'a2'] },
        { id: 'b4', type: 'shape', x: 0, y: 300, w: 100, h: 50, text: 'C' },
        { id: 'b5', type: 'shape', x: 200, y: 400, w: 100, h: 50, text: 'D' },
        { id: 'k6', type: 'ink', points: INK, width: 2 },
        { id: 'm7', type: 'shape', x: 300, y: 600, w: 100, h: 50, text: 'E' },
        {
          id: 'c8', type: 'connector', from: { x: 0, y: 760 }, to: { x: 400, y: 760 },
          route: 'straight', waypoints: [[200, 800]],
        },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: -100, zoom: 1 }));
  });

  after(() => s?.close());

  it("a group's side handle scales its members' positions and widths; one Ctrl+Z undoes it", async () => {
    await clickBoard(page, { x: 50, y: 25 });
    await selected(['g3'], 'the group selected');
    // The group's box is (0, 0)-(300, 150): its east side from 300 to 450, × 1.5.
    await dragHandle('handle-e', { x: 450, y: 75 });
    const o = await waitFor((o) => o.a1.w !== 100 && o, 'the members resized');
    near(o.a1.x, 0, 2, 'a1 x');
    near(o.a1.w, 150, 2, 'a1 w');
    assert.equal(o.a1.h, 50, 'a side handle keeps the height');
    near(o.a2.x, 300, 2, 'a2 x');
    near(o.a2.w, 150, 2, 'a2 w');
    assert.equal(o.a2.y, 100);
    await page.keyboard.press('Control+z');
    const back = await waitFor((o) => o.a1.w === 100 && o, 'the resize undone');
    assert.deepEqual([back.a2.x, back.a2.y, back.a2.w, back.a2.h], [200, 100, 100, 50]);
  });

  it('a corner dragged without Shift stretches a multi-selection unevenly; one Ctrl+Z undoes it', async () => {
    await clickBoard(page, { x: 50, y: 325 });
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 250, y: 425 });
    await page.keyboard.up('Shift');
    await selected(['b4', 'b5'], 'b4 and b5');
    // The box (0, 300)-(300, 450), its corner to (600, 525): × 2 across, × 1.5 down.
    await dragHandle('handle-se', { x: 600, y: 525 });
    const o = await waitFor((o) => o.b4.w !== 100 && o, 'both stretched');
    near(o.b4.x, 0, 2, 'b4 x');
    near(o.b4.y, 300, 2, 'b4 y');
    near(o.b4.w, 200, 2, 'b4 w');
    near(o.b4.h, 75, 2, 'b4 h');
    near(o.b5.x, 400, 2, 'b5 x');
    near(o.b5.y, 450, 2, 'b5 y');
    near(o.b5.w, 200, 2, 'b5 w');
    near(o.b5.h, 75, 2, 'b5 h');
    await page.keyboard.press('Control+z');
    const back = await waitFor((o) => o.b4.w === 100 && o, 'the stretch undone');
    assert.deepEqual([back.b5.x, back.b5.y, back.b5.w, back.b5.h], [200, 400, 100, 50]);
  });

  it('an ungrouped multi-selection turns as one about its centre; one Ctrl+Z undoes it', async () => {
    await selected(['b4', 'b5'], 'b4 and b5 still');
    await page.getByTestId('handle-rotate').waitFor();
    // Centre (150, 375); a quarter turn clockwise with Shift.
    await dragHandle('handle-rotate', { x: 350, y: 375 }, { shift: true });
    const o = await waitFor((o) => o.b4.rotation === 90 && o.b5.rotation === 90 && o, 'both turned');
    // b4's centre (50, 325) goes to (200, 275); b5's (250, 425) to (100, 475).
    near(o.b4.x + 50, 200, 2, 'b4 centre x');
    near(o.b4.y + 25, 275, 2, 'b4 centre y');
    near(o.b5.x + 50, 100, 2, 'b5 centre x');
    near(o.b5.y + 25, 475, 2, 'b5 centre y');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.b4.rotation && !o.b5.rotation && o.b4.y === 300 && o.b5.x === 200, 'the turn undone whole');
  });

  it('an ink stroke and a connector with free ends are resized and turned with the selection; one Ctrl+Z undoes each', async () => {
    // The lower part of the board in view, room below it for the handles' drags.
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: 450, zoom: 1 }));
    // A marquee from empty board around the stroke, the shape and the connector.
    await dragBoard(page, { x: -60, y: 560 }, { x: 460, y: 840 });
    await selected(['k6', 'm7', 'c8'], 'the stroke, the shape and the connector');
    await page.getByTestId('handle-se').waitFor();
    const nw = await handleAt('handle-nw');
    const se = await handleAt('handle-se');
    // The box holds the stroke (its points, from x 0), the shape (to x 400) and the
    // connector (down past its bend at y 800).
    assert.ok(nw.x <= 0 && nw.y <= 600 && se.x >= 400 && se.y >= 800, `the box (${nw.x}, ${nw.y})-(${se.x}, ${se.y})`);

    // A free corner drag: wider by 1.5, taller by 1.25.
    const to = { x: nw.x + (se.x - nw.x) * 1.5, y: nw.y + (se.y - nw.y) * 1.25 };
    await dragHandle('handle-se', to);
    const scale = (x, y) => [nw.x + (x - nw.x) * 1.5, nw.y + (y - nw.y) * 1.25];
    const o = await waitFor((o) => o.m7.w !== 100 && o, 'the selection resized');
    near(o.m7.w, 150, 2, 'm7 w');
    near(o.m7.h, 62.5, 2, 'm7 h');
    const stroke = await onServer('k6');
    assert.equal(stroke.points.length, INK.length);
    stroke.points.forEach(([x, y], i) => {
      const [ex, ey] = scale(...INK[i]);
      near(x, ex, 2, `point ${i} x`);
      near(y, ey, 2, `point ${i} y`);
    });
    const line = await onServer('c8');
    near(line.from.x, scale(0, 760)[0], 2, 'connector from x');
    near(line.from.y, scale(0, 760)[1], 2, 'connector from y');
    near(line.to.x, scale(400, 760)[0], 2, 'connector to x');
    near(line.waypoints[0][0], scale(200, 800)[0], 2, 'bend x');
    near(line.waypoints[0][1], scale(200, 800)[1], 2, 'bend y');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.m7.w === 100, 'the resize undone');
    assert.deepEqual((await onServer('k6')).points, INK, 'the stroke back in one step');
    const back = await onServer('c8');
    assert.deepEqual([back.from, back.to, back.waypoints], [{ x: 0, y: 760 }, { x: 400, y: 760 }, [[200, 800]]]);

    // A quarter turn clockwise about the box's centre, with Shift.
    await selected(['k6', 'm7', 'c8'], 'still selected');
    const c = { x: (nw.x + se.x) / 2, y: (nw.y + se.y) / 2 };
    await dragHandle('handle-rotate', { x: c.x + 300, y: c.y }, { shift: true });
    await waitFor((o) => o.m7.rotation === 90, 'the shape turned');
    // A quarter turn takes (x, y) to (c.x - (y - c.y), c.y + (x - c.x)).
    const turned = (x, y) => [c.x - (y - c.y), c.y + (x - c.x)];
    const turnedStroke = await onServer('k6');
    turnedStroke.points.forEach(([x, y], i) => {
      const [ex, ey] = turned(...INK[i]);
      near(x, ex, 1, `turned point ${i} x`);
      near(y, ey, 1, `turned point ${i} y`);
    });
    const turnedLine = await onServer('c8');
    near(turnedLine.from.x, turned(0, 760)[0], 1, 'turned from x');
    near(turnedLine.from.y, turned(0, 760)[1], 1, 'turned from y');
    near(turnedLine.to.y, turned(400, 760)[1], 1, 'turned to y');
    near(turnedLine.waypoints[0][0], turned(200, 800)[0], 1, 'turned bend x');
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o.m7.rotation, 'the turn undone');
    assert.deepEqual((await onServer('k6')).points, INK, 'the stroke back in one step');
    assert.deepEqual((await onServer('c8')).from, { x: 0, y: 760 });
  });

  it('a lone ink stroke has handles and is resized by them', async () => {
    await page.keyboard.press('Escape');
    await dragBoard(page, { x: -60, y: 560 }, { x: 200, y: 680 });
    await selected(['k6'], 'the stroke alone');
    const nw = await handleAt('handle-nw');
    const e = await handleAt('handle-e');
    // Its east side pulled 170 px further: the points spread from the west side.
    const sx = (e.x + 170 - nw.x) / (e.x - nw.x);
    await dragHandle('handle-e', { x: e.x + 170, y: e.y });
    const stroke = await until(async () => {
      const k = await onServer('k6');
      return k.points[3][0] !== 150 && k;
    }, { what: 'the stroke resized' });
    stroke.points.forEach(([x, y], i) => {
      near(x, nw.x + (INK[i][0] - nw.x) * sx, 2, `point ${i} x`);
      near(y, INK[i][1], 0.01, `point ${i} y`);
    });
    await page.keyboard.press('Control+z');
    await until(async () => (await onServer('k6')).points[3][0] === 150, { what: 'the resize undone' });
  });
});
