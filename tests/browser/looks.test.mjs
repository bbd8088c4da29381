// What looked off (issue 35), each checked in the DOM or on screen: connection
// handles follow their shape after a drag, an Alt+drag and a paste (never left at
// its old place, never over the resize handles of what is selected) and leave out
// the side an arrow arrives at; the style panel of six objects ends above the zoom
// controls, "To front" in reach; the text-colour swatch of a dark shape is the
// white its text is drawn in; a new sticky note's first Enter types no blank line;
// the shape picker sits beside the pending arrow, which stays drawn. Real mouse
// and keyboard events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import {
  session, until, clickBoard, dragBoard, clientOf, selectionOf, newObject, watch,
} from './lib.mjs';

const intersects = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('what looked off', { timeout: 180000 }, () => {
  let s;
  let page;

  const { ids, waitFor } = watch(() => page);
  const hover = async (x, y) => {
    const c = await clientOf(page, x, y);
    await page.mouse.move(c.x, c.y, { steps: 3 });
  };
  /** The board centre of each connection handle shown (from their circles). */
  const handles = () => page.evaluate(() => [...document.querySelectorAll('[data-link]')]
    .map((c) => ({ side: c.dataset.link, x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) })));

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'Drag me' },
        { id: 's2', type: 'shape', x: 400, y: 0, w: 120, h: 60, text: 'Target' },
        { id: 'c3', type: 'connector', from: 's1', to: 's2' },
        { id: 's4', type: 'shape', x: 0, y: 200, w: 120, h: 60, text: 'Dark', fill: 'black' },
        { id: 's5', type: 'shape', x: 200, y: 200, w: 60, h: 40, text: '5' },
        { id: 's6', type: 'shape', x: 300, y: 200, w: 60, h: 40, text: '6' },
        { id: 's7', type: 'shape', geom: 'note', x: 1000, y: 0, w: 160, h: 160, text: '' },
        // A free arrow, elbow by default.
        { id: 'c8', type: 'connector', from: { x: 600, y: 300 }, to: { x: 800, y: 420 } },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('a sticky note\'s shadow at 600% fades evenly, with no edge in it', async () => {
    // Down the middle of the note's bottom: from inside the note, through its shadow.
    await page.evaluate(() => window.inkboard.setView({ x: 1060, y: 140, zoom: 6 }));
    const top = await clientOf(page, 1080, 158);
    const png = PNG.sync.read(await page.screenshot({ clip: { x: Math.round(top.x), y: Math.round(top.y), width: 1, height: 80 } }));
    const grey = [];
    for (let i = 0; i < png.height; i++) grey.push(png.data[i * 4 + 1]);
    // Past the note's edge (the yellow's green channel is high too, so find the
    // darkest pixel: the shadow's start), the shadow lightens to the canvas.
    const start = grey.indexOf(Math.min(...grey));
    const steps = grey.slice(start).map((g, i, a) => (i ? g - a[i - 1] : 0));
    const jump = Math.max(...steps.map(Math.abs));
    assert.ok(steps.every((d) => d >= -1), `it only lightens: ${grey.slice(start)}`);
    assert.ok(jump <= 8, `no edge: the largest step between two pixels is ${jump} (${grey.slice(start)})`);
    assert.ok(grey[grey.length - 1] - grey[start] > 15, 'there is a shadow');
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -200, zoom: 1 }));
  });

  /** The legs of connector `id` as drawn: [dx, dy] of each piece of its line. */
  const legs = (id) => page.evaluate((i) => {
    const d = document.querySelector(`g#${i} path`).getAttribute('d');
    const pts = [...d.matchAll(/[ML]\s*(-?[\d.]+)\s+(-?[\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    return pts.slice(1).map(([x, y], k) => [x - pts[k][0], y - pts[k][1]]);
  }, id);
  const square = (ls) => ls.every(([dx, dy]) => Math.abs(dx) < 0.01 || Math.abs(dy) < 0.01);
  /** Whether a leg runs back along the one before it. */
  const doublesBack = (ls) => ls.some(([dx, dy], k) => k > 0 && dx * ls[k - 1][0] + dy * ls[k - 1][1] < 0);

  it('a free arrow the panel calls Elbow is drawn square; bending it keeps it so', async () => {
    await clickBoard(page, { x: 700, y: 300 });
    await until(async () => (await selectionOf(page)).join() === 'c8', { what: 'the free arrow selected' });
    assert.equal(await page.getByTestId('style-panel').getByTestId('route-orthogonal').getAttribute('aria-pressed'), 'true');
    const before = await legs('c8');
    assert.ok(before.length >= 2 && square(before), `drawn with an elbow: ${JSON.stringify(before)}`);
    // The first leg, across at y = 300, dragged down 60: still square, no leg back.
    const h = await page.getByTestId('handle-seg-0').boundingBox();
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2 + 60, { steps: 6 });
    await page.mouse.up();
    await waitFor((o) => o.c8.waypoints?.length, 'the bend kept');
    await until(async () => {
      const after = await legs('c8');
      return square(after) && !doublesBack(after) && after.some(([, dy]) => dy > 0);
    }, { what: 'bent square, never doubling back' });
    await page.keyboard.press('Escape');
  });

  it('the handles leave out the side an arrow arrives at', async () => {
    await hover(460, 30);
    await page.getByTestId('link-top').waitFor();
    const sides = (await handles()).map((h) => h.side).sort();
    assert.deepEqual(sides, ['bottom', 'right', 'top'], 'no handle on the arrowhead at the left side');
    await hover(460, 300);
  });

  it('after a drag the handles are not left at the old place', async () => {
    await hover(60, 30);
    await page.getByTestId('link-top').waitFor();
    await dragBoard(page, { x: 60, y: 30 }, { x: 60, y: 110 }, { steps: 6 });
    await waitFor((o) => o.s1.y === 80, 's1 moved down 80');
    // The pointer rests on the moved shape, now selected: its resize handles, no others.
    await until(async () => (await handles()).length === 0, { what: 'no connection handles on the selected shape' });
    await page.getByTestId('handle-se').waitFor();
  });

  it('after an Alt+drag and a paste, no handles sit over the copy\'s resize handles', async () => {
    await page.keyboard.press('Escape');
    await hover(60, 110);
    await page.getByTestId('link-top').waitFor();
    const before = await ids();
    await page.keyboard.down('Alt');
    await dragBoard(page, { x: 60, y: 110 }, { x: 60, y: 400 }, { steps: 6 });
    await page.keyboard.up('Alt');
    const [copy] = await newObject(page, before, 'the Alt+drag copy');
    await until(async () => (await selectionOf(page)).join() === copy, { what: 'the copy selected' });
    const around = (h) => Math.abs(h.y - 110) < 60 || Math.abs(h.y - 400) < 60;
    await until(async () => !(await handles()).some(around), { what: 'no handles left by the drag' });

    // Copy the original, point at it and paste: the copy lands under the pointer.
    await clickBoard(page, { x: 60, y: 110 });
    await page.keyboard.press('Control+c');
    await hover(60, 110);
    const before2 = await ids();
    await page.keyboard.press('Control+v');
    const [pasted] = await newObject(page, before2, 'the pasted copy');
    await until(async () => (await selectionOf(page)).join() === pasted, { what: 'the paste selected' });
    const boxes = await page.evaluate(() => [...document.querySelectorAll('.overlay [data-handle]')].map((e) => e.getBoundingClientRect().toJSON()));
    const links = await page.evaluate(() => [...document.querySelectorAll('[data-link]')].map((e) => e.getBoundingClientRect().toJSON()));
    assert.ok(boxes.length >= 8, 'the paste has its resize handles');
    assert.ok(!links.some((l) => boxes.some((b) => intersects(l, b))), 'no connection handle over a resize handle');
  });

  it('the style panel of six objects ends above the zoom controls; To front is in reach', async () => {
    await page.setViewportSize({ width: 1280, height: 560 });
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+a');
    await until(async () => (await selectionOf(page)).length >= 6, { what: 'six or more selected' });
    const panel = page.getByTestId('style-panel');
    await panel.waitFor();
    const p = await panel.boundingBox();
    const z = await page.getByTestId('zoom-controls').boundingBox();
    assert.ok(p.y + p.height <= z.y, `the panel (to ${p.y + p.height}) ends above the zoom controls (from ${z.y})`);
    const front = panel.getByTestId('order-front');
    await front.scrollIntoViewIfNeeded();
    const f = await front.boundingBox();
    assert.ok(f.y >= p.y && f.y + f.height <= p.y + p.height, 'To front shows inside the panel');
    assert.ok(!intersects(f, z), 'To front is not under the zoom controls');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('a dark shape\'s text-colour swatch is the white its text is drawn in', async () => {
    await page.keyboard.press('Escape');
    await clickBoard(page, { x: 60, y: 230 });
    await until(async () => (await selectionOf(page)).join() === 's4', { what: 's4 selected' });
    const fill = await page.evaluate(() => document.querySelector('g#s4 text').getAttribute('fill'));
    assert.equal(fill, '#ffffff', 'the renderer draws its text white');
    assert.equal(await page.getByTestId('style-panel').getByTestId('text-color-white').getAttribute('aria-pressed'), 'true');
  });

  it('a new sticky note\'s first Enter types no blank line', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    const before = await ids();
    await clickBoard(page, { x: 700, y: 300 });
    const [note] = await newObject(page, before, 'the note');
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.press('Enter');
    await page.keyboard.type('First line');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Second');
    await page.keyboard.press('Escape');
    const o = await waitFor((x) => x[note]?.text && x[note], 'the note\'s text');
    assert.equal(o.text, 'First line\nSecond');
  });

  it('the shape picker sits beside the pending arrow, which stays drawn', async () => {
    await page.keyboard.press('Escape');
    await hover(460, 30);
    await page.getByTestId('link-right').waitFor();
    const h = await page.getByTestId('link-right').boundingBox();
    const end = await clientOf(page, 700, 40);
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(end.x, end.y, { steps: 8 });
    await page.mouse.up();
    const picker = page.getByTestId('link-picker');
    await picker.waitFor();
    const line = await page.evaluate(() => {
      const l = document.querySelector('.overlay .draft-line');
      return l && l.getBoundingClientRect().toJSON();
    });
    assert.ok(line, 'the pending arrow is drawn');
    const p = await picker.boundingBox();
    assert.ok(!intersects(p, line), 'the picker covers no part of it');
    assert.ok(p.x >= end.x, 'the picker is beyond its end');
    await page.getByTestId('link-pick-rect').click();
    await until(async () => (await page.evaluate(() => document.querySelectorAll('.overlay .draft-line').length)) === 0, { what: 'the draft gone with the picker' });
    await waitFor((o) => Object.values(o).some((x) => x.type === 'connector' && x.from === 's2'), 'the connector from s2');
  });
});
