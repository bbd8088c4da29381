// The connector's type and arrowheads in the style panel: buttons for the route
// (straight, elbow, curved) and each end's head, the current value marked (and
// "mixed" when selected connectors differ); a click is one `update`, so Ctrl+Z undoes
// it; with the connector tool active they set the next connector, which takes them.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, dragBoard, newObject, watch,
} from './lib.mjs';

describe('connector type and arrowheads in the panel', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor, selected } = watch(() => page);
  const button = (testid) => page.getByTestId('style-panel').getByTestId(testid);
  const pressed = (testid) => button(testid).getAttribute('aria-pressed');

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 100, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 100, h: 60, text: 'B' },
        { id: 's3', type: 'shape', x: 0, y: 300, w: 100, h: 60, text: 'C' },
        { id: 's4', type: 'shape', x: 300, y: 300, w: 100, h: 60, text: 'D' },
        { id: 'c5', type: 'connector', from: 's1', to: 's2' },
        { id: 'c6', type: 'connector', from: 's3', to: 's4', route: 'curved', start_arrow: 'circle' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('shows the route and heads of a connector, as drawn', async () => {
    // The middle of the straight line between s1 and s2.
    await clickBoard(page, { x: 200, y: 30 });
    await selected(['c5'], 'c5 selected');
    assert.equal(await pressed('route-orthogonal'), 'true', 'the default route, elbow');
    assert.equal(await button('route-orthogonal').textContent(), 'Elbow');
    assert.equal(await pressed('route-straight'), 'false');
    assert.equal(await pressed('start-arrow-none'), 'true');
    assert.equal(await pressed('end-arrow-arrow'), 'true');
  });

  it('a click on a type or a head changes the connector, and Ctrl+Z undoes it', async () => {
    await button('route-curved').click();
    await waitFor((o) => o.c5.route === 'curved', 'c5 curved');
    await until(async () => (await pressed('route-curved')) === 'true', { what: 'curved marked' });
    await button('end-arrow-triangle').click();
    await waitFor((o) => o.c5.end_arrow === 'triangle', 'a triangle at the end');
    await button('start-arrow-diamond').click();
    await waitFor((o) => o.c5.start_arrow === 'diamond', 'a diamond at the start');

    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.start_arrow === undefined && o.c5.end_arrow === 'triangle', 'the start head undone alone');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.end_arrow === undefined && o.c5.route === 'curved', 'the end head undone alone');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.route === undefined, 'the route undone');
  });

  it('offers a bar and a dot at either end, drawn by the renderer', async () => {
    const before = await page.evaluate(() => document.querySelector('g#c5').innerHTML);
    await button('end-arrow-bar').click();
    await waitFor((o) => o.c5.end_arrow === 'bar', 'a bar at the end');
    await button('start-arrow-dot').click();
    await waitFor((o) => o.c5.start_arrow === 'dot', 'a dot at the start');
    await until(async () => (await pressed('start-arrow-dot')) === 'true' && (await pressed('end-arrow-bar')) === 'true', { what: 'both marked' });
    // The drawing on screen is the server's: it changed with the heads.
    await until(async () => (await page.evaluate(() => document.querySelector('g#c5').innerHTML)) !== before, { what: 'drawn again' });
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.start_arrow === undefined && o.c5.end_arrow === undefined, 'both undone');
  });

  it('offers the UML ends, drawn hollow by the renderer', async () => {
    assert.equal(await button('end-arrow-hollow_triangle').textContent(), '▷');
    assert.equal(await button('start-arrow-hollow_diamond').textContent(), '◇');
    await button('end-arrow-hollow_triangle').click();
    await waitFor((o) => o.c5.end_arrow === 'hollow_triangle', 'a hollow triangle at the end');
    await button('start-arrow-hollow_diamond').click();
    await waitFor((o) => o.c5.start_arrow === 'hollow_diamond', 'a hollow diamond at the start');
    // The heads on screen are the server's: closed outlines, not filled.
    const hollow = () => page.evaluate(() => [...document.querySelectorAll('g#c5 path')]
      .filter((p) => /[zZ]\s*$/.test(p.getAttribute('d') ?? '') && p.getAttribute('fill') === 'none').length);
    await until(async () => (await hollow()) === 2, { what: 'two hollow heads drawn' });
    await page.keyboard.press('Control+z');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.start_arrow === undefined && o.c5.end_arrow === undefined, 'both undone');
  });

  it('marks values that differ between connectors as mixed; a click sets both in one step', async () => {
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 200, y: 330 });
    await page.keyboard.up('Shift');
    await selected(['c5', 'c6'], 'both connectors');
    await page.getByTestId('mixed-start_arrow').waitFor();
    for (const r of ['straight', 'orthogonal', 'curved']) assert.equal(await pressed(`route-${r}`), 'false', r);
    assert.equal(await pressed('end-arrow-arrow'), 'true', 'the same end head is shown');
    await button('route-straight').click();
    await waitFor((o) => o.c5.route === 'straight' && o.c6.route === 'straight', 'both straight');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.c5.route === undefined && o.c6.route === 'curved', 'one undo puts both back');
  });

  it('with the connector tool, the buttons set the next connector, which takes them', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.getByTestId('tool-connector').click();
    await until(async () => (await page.getByTestId('panel-title').textContent()) === 'Next connector', { what: 'the next connector\'s panel' });
    await button('route-straight').click();
    await button('end-arrow-circle').click();
    await until(async () => (await pressed('end-arrow-circle')) === 'true', { what: 'the next head marked' });
    const before = await ids();
    await dragBoard(page, { x: 50, y: 30 }, { x: 50, y: 330 });
    const [, o] = await newObject(page, before, 'the new connector');
    assert.deepEqual([o.from, o.to, o.route, o.end_arrow], ['s1', 's3', 'straight', 'circle']);
  });
});
