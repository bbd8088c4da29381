// The style panel that remembers: it shows the selection's values (an unset field as
// it is drawn, the swatch marked; values that differ marked "mixed"), stays open with
// a drawing tool to set the next object's style, new objects take the last style
// used for their kind (kept across a reload), and it collapses (also kept).

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, newObject, openPage, watch,
} from './lib.mjs';

describe('the style panel', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor, selected } = watch(() => page);
  const pressed = (testid) => page.getByTestId('style-panel').getByTestId(testid).getAttribute('aria-pressed');
  const value = (testid) => page.getByTestId('style-panel').getByTestId(testid).inputValue();

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'B', fill: 'blue', font_size: 16 },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('shows an unstyled shape\'s values as drawn, the swatches marked', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    assert.equal(await pressed('fill-white'), 'true');
    assert.equal(await pressed('stroke-custom'), 'true', 'the default ink outline is on the custom swatch');
    assert.equal(await value('stroke-width'), '2');
    assert.equal(await value('font-size'), '16');
    assert.equal(await value('font'), 'sans');
    assert.equal(await pressed('dash-solid'), 'true');
    assert.equal(await pressed('align-center'), 'true');
    assert.equal(await page.getByTestId('mixed-fill').count(), 0);
  });

  it('marks values that differ as mixed, and those that agree as they are', async () => {
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 360, y: 30 });
    await page.keyboard.up('Shift');
    await selected(['s1', 's2'], 'both selected');
    await page.getByTestId('mixed-fill').waitFor();
    for (const name of ['white', 'blue']) assert.equal(await pressed(`fill-${name}`), 'false', name);
    assert.equal(await value('font-size'), '16', 'the same size in both is shown');
    assert.equal(await page.getByTestId('panel-title').textContent(), 'Style · 2 selected');
  });

  it('with a drawing tool active, it sets the style of the next shape, which takes it', async () => {
    await page.keyboard.press('Escape');
    await selected([], 'nothing selected');
    assert.equal(await page.getByTestId('style-panel').isHidden(), true, 'no panel with nothing to style');
    await page.keyboard.press('r');
    await page.getByTestId('style-panel').waitFor();
    assert.equal(await page.getByTestId('panel-title').textContent(), 'Next shape');
    const revision = await page.evaluate(() => window.inkboard.revision());
    await page.getByTestId('fill-red').click();
    await page.getByTestId('stroke-width').selectOption('4');
    assert.equal(await pressed('fill-red'), 'true');
    const before = await ids();
    await clickBoard(page, { x: 500, y: 250 });
    const [, o] = await newObject(page, before, 'the new rectangle');
    assert.deepEqual([o.fill, o.stroke_width], ['red', 4]);
    // The style was set in the page only: the new shape is the one change sent.
    assert.equal(await page.evaluate(() => window.inkboard.revision()), revision + 1, 'only the new shape sent');
  });

  it('a style set on a selection is remembered for the next shape of that kind only', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    await page.getByTestId('dash-dashed').click();
    await waitFor((o) => o.s1.dash === 'dashed', 's1 dashed');
    await page.keyboard.press('Escape');
    await page.keyboard.press('o');
    assert.equal(await pressed('dash-dashed'), 'true', 'the next shape is dashed');
    const before = await ids();
    await clickBoard(page, { x: 500, y: 120 });
    const [ellipse, o] = await newObject(page, before, 'the new ellipse');
    assert.deepEqual([o.geom, o.fill, o.dash], ['ellipse', 'red', 'dashed']);
    await selected([ellipse], 'the new ellipse selected');

    // A sticky note is another kind: it keeps its own (here: none set).
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.keyboard.press('n');
    assert.equal(await page.getByTestId('panel-title').textContent(), 'Next sticky note');
    assert.equal(await pressed('fill-yellow'), 'true');
    assert.equal(await pressed('dash-solid'), 'true');
    await page.keyboard.press('Escape');
  });

  it('collapses to its title; the browser remembers that and the style', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    await page.getByTestId('panel-collapse').click();
    await until(async () => (await page.getByTestId('fill-red').count()) === 0, { what: 'the panel collapsed' });
    const width = (await page.getByTestId('style-panel').boundingBox()).width;
    assert.ok(width < 200, `collapsed to ${width} px`);

    const again = await openPage(s.context, s.app);
    await again.keyboard.press('r');
    await again.getByTestId('style-panel').waitFor();
    assert.equal(await again.getByTestId('panel-collapse').getAttribute('aria-expanded'), 'false');
    await again.getByTestId('panel-collapse').click();
    assert.equal(await again.getByTestId('fill-red').getAttribute('aria-pressed'), 'true', 'the style kept across a reload');
    await again.close();
  });
});
