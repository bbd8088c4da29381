// Style by hand: copy and paste style (Ctrl+Alt+C, Ctrl+Alt+V: the fields that
// apply to each object, the copied object's unset ones as drawn, one undo step),
// the opacity slider of the style panel (shown while dragged, one `update` when
// let go), and flip (Shift+H, Shift+V: positions, turns, strokes' points and
// connectors' free ends and bends mirrored about the selection's middle, one undo
// step). Checked on the server over MCP.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, dragBoard, selectionOf, watch,
} from './lib.mjs';

describe('style and flip', { timeout: 120000 }, () => {
  let s;
  let page;

  const { waitFor } = watch(() => page);
  const read = async () => Object.fromEntries((await s.mcp.call('read_board', {})).page.objects.map((o) => [o.id, o]));
  /** Clicks the first point, Shift+clicks the others. */
  const select = async (...points) => {
    await page.keyboard.press('Escape');
    for (const [i, p] of points.entries()) {
      if (i === 1) await page.keyboard.down('Shift');
      await clickBoard(page, p);
    }
    await page.keyboard.up('Shift');
    await until(async () => (await selectionOf(page)).length === points.length, { what: `${points.length} selected` });
  };

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'Source', fill: 'red', stroke: 'blue', stroke_width: 4, dash: 'dashed', font_size: 20 },
        { id: 's2', type: 'shape', geom: 'ellipse', x: 200, y: 0, w: 120, h: 60, text: 'Target' },
        { id: 'c3', type: 'connector', from: { x: 0, y: 200 }, to: { x: 300, y: 200 }, route: 'straight' },
        { id: 's4', type: 'shape', x: 0, y: 300, w: 100, h: 50, text: 'L' },
        { id: 's5', type: 'shape', x: 300, y: 300, w: 60, h: 100, text: 'R', rotation: 30 },
        { id: 'k6', type: 'ink', points: [[0, 500], [100, 520], [200, 560]] },
        { id: 'c7', type: 'connector', from: 's4', to: { x: 400, y: 600 }, route: 'straight', waypoints: [[120, 600]] },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -50, zoom: 1 }));
  });

  after(() => s?.close());

  it('Ctrl+Alt+C copies a style, Ctrl+Alt+V pastes what applies, one undo step', async () => {
    await select({ x: 60, y: 30 });
    await page.keyboard.press('Control+Alt+c');
    await select({ x: 260, y: 30 }, { x: 150, y: 200 });
    await page.keyboard.press('Control+Alt+v');
    const o = await waitFor((x) => x.s2.fill === 'red' && x.c3.stroke === 'blue' && x, 'the style pasted');
    assert.deepEqual([o.s2.fill, o.s2.stroke, o.s2.stroke_width, o.s2.dash, o.s2.font_size], ['red', 'blue', 4, 'dashed', 20]);
    assert.equal(o.s2.geom, 'ellipse', 'the shape is kept');
    assert.deepEqual([o.c3.stroke, o.c3.stroke_width, o.c3.dash, o.c3.fill], ['blue', 4, 'dashed', undefined], 'a connector takes its fields only');
    await page.keyboard.press('Control+z');
    await waitFor((x) => !x.s2.fill && !x.c3.stroke && x, 'one undo takes both back');
  });

  it('the opacity slider shows the new opacity while dragged and sends one update', async () => {
    await select({ x: 60, y: 30 });
    const slider = page.getByTestId('style-panel').getByTestId('opacity');
    await slider.waitFor();
    assert.equal(await page.getByTestId('opacity-value').textContent(), '100%');
    const revision = await page.evaluate(() => window.inkboard.revision());
    const box = await slider.boundingBox();
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2, { steps: 6 });
    const shown = await page.evaluate(() => document.querySelector('g#s1').style.opacity);
    assert.ok(Number(shown) > 0 && Number(shown) < 1, `shown at ${shown} while dragged`);
    assert.equal(await page.evaluate(() => window.inkboard.revision()), revision, 'nothing sent while dragged');
    await page.mouse.up();
    const o = await waitFor((x) => x.s1.opacity !== undefined && x, 'the opacity set');
    assert.equal(o.s1.opacity, Number(shown));
    await until(async () => (await page.evaluate(() => window.inkboard.revision())) === revision + 1, { what: 'one revision' });
  });

  it('Shift+H mirrors the selection across its middle, one undo step', async () => {
    // s4 (0..100), s5 (300..360, turned 30°), the stroke (0..200) and c7's free end and bend.
    await dragBoard(page, { x: -40, y: 270 }, { x: 460, y: 640 });
    await until(async () => (await selectionOf(page)).length >= 4, { what: 'the marquee selection' });
    const before = await read();
    await page.keyboard.press('Shift+h');
    const after = await until(async () => {
      const o = await read();
      return o.s4.x !== before.s4.x && o;
    }, { what: 'flipped' });
    // The mirror is the middle of the box around them all, worked out from
    // before: s5 turned spans about x 280..380, c7's free end and bend, the stroke.
    const span = (o) => {
      const r = ((o.rotation ?? 0) * Math.PI) / 180;
      const half = (o.w * Math.abs(Math.cos(r)) + o.h * Math.abs(Math.sin(r))) / 2;
      return [o.x + o.w / 2 - half, o.x + o.w / 2 + half];
    };
    const xs = [
      ...span(before.s4), ...span(before.s5), ...before.k6.points.map(([x]) => x),
      before.c7.to.x, ...before.c7.waypoints.map(([x]) => x),
    ];
    const middle = (Math.min(...xs) + Math.max(...xs)) / 2;
    const c = (before.s4.x + (after.s4.x + after.s4.w)) / 2;
    assert.ok(Math.abs(c - middle) < 1, `mirrored about x ${c}, the selection's middle is ${middle}`);
    assert.ok(Math.abs(after.s5.x + after.s5.w / 2 - (2 * c - (before.s5.x + before.s5.w / 2))) < 0.02, 's5 mirrored');
    assert.equal(after.s5.rotation, 330, 'its turn mirrored');
    // Their own drawings turned over too (the renderer mirrors the outline).
    assert.deepEqual([after.s4.flip_x, after.s5.flip_x], [true, true], 'flip_x set');
    assert.deepEqual(after.k6.points.map(([x, y]) => [Math.round(2 * c - x), y]), before.k6.points, 'the stroke mirrored');
    assert.equal(Math.round(2 * c - after.c7.to.x), before.c7.to.x, 'the free end mirrored');
    assert.equal(Math.round(2 * c - after.c7.waypoints[0][0]), before.c7.waypoints[0][0], 'the bend mirrored');
    assert.equal(after.c7.from, 's4', 'an attached end stays attached');
    await page.keyboard.press('Control+z');
    await until(async () => (await read()).s4.x === before.s4.x, { what: 'one undo' });
  });

  it('Shift+V mirrors up and down', async () => {
    await select({ x: 50, y: 325 });
    await page.keyboard.press('Shift+v');
    await new Promise((r) => setTimeout(r, 300));
    // One unturned rectangle about its own middle: it stays where it is, turned
    // over (flip_y) in its box.
    const one = await until(async () => {
      const x = await read();
      return x.s4.flip_y && x;
    }, { what: 'flip_y set' });
    assert.equal(one.s4.y, 300);
    await select({ x: 50, y: 325 }, { x: 150, y: 540 });
    await page.keyboard.press('Shift+v');
    const o = await until(async () => {
      const x = await read();
      return x.s4.y !== 300 && x;
    }, { what: 'flipped up and down' });
    // The box spans y 300 (s4's top) to the stroke's bottom (560 plus its half width).
    assert.ok(o.s4.y > 450, `s4 went to the bottom: ${o.s4.y}`);
    assert.ok(o.k6.points[0][1] > o.k6.points[2][1], `the stroke turned upside down: ${JSON.stringify(o.k6.points)} ${JSON.stringify(o.s4)}`);
  });
});
