// The hand-drawn look in the style panel (issue 35): a shape's roughness (clean,
// rough, rougher) and fill style (solid, hachure, cross-hatch) as buttons, the
// current value marked; a click is one `update` drawn by the server's renderer,
// so Ctrl+Z undoes it; a connector offers roughness only (its heads stay solid);
// with a drawing tool active they set the next object, which takes them.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, dragBoard, newObject, watch,
} from './lib.mjs';

describe('roughness and fill style in the panel', { timeout: 120000 }, () => {
  let s;
  let page;

  const { ids, waitFor, selected } = watch(() => page);
  const panel = () => page.getByTestId('style-panel');
  const button = (testid) => panel().getByTestId(testid);
  const pressed = (testid) => button(testid).getAttribute('aria-pressed');
  const drawing = (id) => page.evaluate((id) => document.querySelector(`g#${id}`).innerHTML, id);

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 160, h: 100, text: 'A', fill: 'blue' },
        { id: 's2', type: 'shape', x: 400, y: 0, w: 100, h: 60, text: 'B' },
        { id: 'c3', type: 'connector', from: 's1', to: 's2', route: 'straight' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('shows a clean, solid shape as such', async () => {
    await clickBoard(page, { x: 80, y: 20 });
    await selected(['s1'], 's1 selected');
    assert.equal(await pressed('roughness-0'), 'true');
    assert.equal(await pressed('roughness-2'), 'false');
    assert.equal(await pressed('fill-style-solid'), 'true');
    assert.equal(await button('roughness-1').getAttribute('title'), 'Roughness: rough');
  });

  it('a click makes the shape rough and hatched, drawn again; Ctrl+Z undoes each', async () => {
    const clean = await drawing('s1');
    const cleanPaths = await page.evaluate(() => document.querySelectorAll('g#s1 path').length);
    await button('roughness-2').click();
    await waitFor((o) => o.s1.roughness === 2, 's1 rougher');
    await until(async () => (await drawing('s1')) !== clean, { what: 'drawn rough' });
    const rough = await drawing('s1');
    await button('fill-style-cross-hatch').click();
    await waitFor((o) => o.s1.fill_style === 'cross-hatch', 's1 cross-hatched');
    await until(async () => (await pressed('fill-style-cross-hatch')) === 'true', { what: 'cross-hatch marked' });
    await until(async () => (await drawing('s1')) !== rough, { what: 'drawn hatched' });
    // The hatching is a path of its own, in the fill's colour, under the outline.
    const paths = await page.evaluate(() => document.querySelectorAll('g#s1 path').length);
    assert.ok(paths > cleanPaths, `${cleanPaths} paths, then ${paths}`);

    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s1.fill_style === undefined && o.s1.roughness === 2, 'the fill style undone alone');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s1.roughness === undefined, 'the roughness undone');
    await until(async () => (await drawing('s1')) === clean, { what: 'drawn clean again' });
  });

  it('a connector offers roughness but no fill style', async () => {
    await page.keyboard.press('Escape');
    await clickBoard(page, { x: 280, y: 40 });
    await selected(['c3'], 'c3 selected');
    await button('roughness-1').click();
    await waitFor((o) => o.c3.roughness === 1, 'c3 rough');
    assert.equal(await button('fill-style-hachure').count(), 0, 'no fill style for a connector');
  });

  it('with the rectangle tool, the buttons set the next shape, which takes them', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('2');
    await until(async () => (await page.getByTestId('panel-title').textContent()) === 'Next shape', { what: 'the next shape\'s panel' });
    await button('roughness-1').click();
    await button('fill-style-hachure').click();
    await until(async () => (await pressed('fill-style-hachure')) === 'true', { what: 'hachure marked' });
    const before = await ids();
    await dragBoard(page, { x: 100, y: 300 }, { x: 240, y: 400 });
    const [, o] = await newObject(page, before, 'the new shape');
    assert.deepEqual([o.roughness, o.fill_style], [1, 'hachure']);
  });
});
