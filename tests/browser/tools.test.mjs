// The editing tools by hand: marquee and Shift+click selection, resizing by a
// handle, the style panel, keyboard nudge/duplicate/select all/delete, copy and
// paste, a connector dragged between shapes that stays attached when one moves,
// pen ink, sticky notes (and their pastel fills), text and frames. Each change is checked in the page's
// data (what the server committed), not in what the page drew for itself.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, until, clickBoard, dragBoard, newObject, watch,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);
const GEOMS = ['rect', 'rounded', 'ellipse', 'diamond', 'triangle', 'hexagon', 'parallelogram',
  'cylinder', 'cloud', 'star', 'table', 'end_state', 'note', 'text', 'frame'];

describe('the editing tools', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor, selected } = watch(() => page);

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'B' },
        { id: 's3', type: 'shape', x: 0, y: 200, w: 120, h: 60, text: 'C' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('has a toolbar button for every geom of add_shape', async () => {
    for (const g of GEOMS) assert.equal(await page.getByTestId(`tool-${g}`).count(), 1, g);
  });

  it('a marquee selects what it meets; Shift+click adds and removes', async () => {
    await dragBoard(page, { x: -40, y: -40 }, { x: 440, y: 100 });
    await selected(['s1', 's2'], 'the marquee selection');
    await page.keyboard.down('Shift');
    await clickBoard(page, { x: 60, y: 230 });
    await selected(['s1', 's2', 's3'], 's3 added');
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s2', 's3'], 's1 removed');
    await page.keyboard.up('Shift');
  });

  it('a corner handle resizes the shape', async () => {
    await clickBoard(page, { x: 60, y: 230 });
    await selected(['s3'], 's3 alone');
    await page.getByTestId('handle-se').waitFor();
    await dragBoard(page, { x: 120, y: 260 }, { x: 180, y: 300 });
    const o = await waitFor((o) => o.s3.w !== 120 && o.s3, 's3 resized');
    assert.deepEqual([o.x, o.y], [0, 200]);
    near(o.w, 180, 1, 'w');
    near(o.h, 100, 1, 'h');
  });

  it('the style panel sets fill, dash, text colour and font size', async () => {
    const panel = page.getByTestId('style-panel');
    await panel.waitFor();
    await panel.getByTestId('fill-blue').click();
    await waitFor((o) => o.s3.fill === 'blue', 'fill blue');
    await panel.getByTestId('dash-dashed').click();
    await waitFor((o) => o.s3.dash === 'dashed', 'dashed');
    await panel.getByTestId('text-color-red').click();
    await waitFor((o) => o.s3.text_color === 'red', 'red text');
    await panel.getByTestId('font-size').selectOption('24');
    await waitFor((o) => o.s3.font_size === 24, 'font size 24');
    assert.equal(await panel.getByTestId('fill-blue').getAttribute('aria-pressed'), 'true');
  });

  it('keys: arrows nudge, Ctrl+D duplicates, Delete deletes, Ctrl+A selects all, Escape clears', async () => {
    await clickBoard(page, { x: 60, y: 230 });
    await selected(['s3'], 's3 selected');
    await page.keyboard.press('ArrowRight');
    await waitFor((o) => o.s3.x === 1, 'nudged 1 px right');
    await page.keyboard.press('Shift+ArrowDown');
    await waitFor((o) => o.s3.y === 210, 'nudged 10 px down');

    const before = await ids();
    await page.keyboard.press('Control+d');
    const [copy, o] = await newObject(page, before, 'the duplicate');
    assert.deepEqual([o.x, o.y, o.w, o.h, o.text, o.fill], [21, 230, 180, 100, 'C', 'blue']);
    await selected([copy], 'the duplicate selected');
    await page.keyboard.press('Delete');
    await waitFor((o) => !o[copy], 'the duplicate deleted');

    await page.keyboard.press('Control+a');
    await selected(['s1', 's2', 's3'], 'all selected');
    await page.keyboard.press('Escape');
    await selected([], 'nothing selected');
  });

  it('Ctrl+C then Ctrl+V pastes a copy, offset, and selects it', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    const before = await ids();
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    const [copy, o] = await newObject(page, before, 'the pasted copy');
    assert.deepEqual([o.x, o.y, o.w, o.h, o.text], [20, 20, 120, 60, 'A']);
    await selected([copy], 'the copy selected');
    await page.keyboard.press('Delete');
    await waitFor((o) => !o[copy], 'the copy deleted');
  });

  it('a connector dragged from one shape to another is attached, and stays so when a shape moves', async () => {
    await page.getByTestId('tool-connector').click();
    const before = await ids();
    await dragBoard(page, { x: 60, y: 30 }, { x: 360, y: 30 });
    const [c, o] = await newObject(page, before, 'the connector');
    assert.deepEqual([o.type, o.from, o.to], ['connector', 's1', 's2']);

    await page.locator('[data-testid="canvas"][data-tool="select"]').waitFor();
    await dragBoard(page, { x: 360, y: 30 }, { x: 360, y: 130 });
    await waitFor((o) => o.s2.y === 100, 's2 moved down');
    const after = (await objects())[c];
    assert.deepEqual([after.from, after.to], ['s1', 's2']);
    // Drawn to where s2 is now (the server re-routed it).
    await until(async () => {
      const bottom = await page.evaluate((id) => {
        const b = document.getElementById(id).getBBox();
        return b.y + b.height;
      }, c);
      return bottom >= 100;
    }, { what: 'the connector drawn to the moved shape' });
  });

  it('the pen draws ink', async () => {
    await page.getByTestId('tool-pen').click();
    const before = await ids();
    await dragBoard(page, { x: 500, y: 300 }, { x: 580, y: 350 }, { steps: 10 });
    const [, o] = await newObject(page, before, 'the ink');
    assert.equal(o.type, 'ink');
    assert.ok(o.points.length >= 3, `${o.points.length} points`);
    near(o.points[0][0], 500, 2, 'first x');
    near(o.points.at(-1)[1], 350, 2, 'last y');
    await page.keyboard.press('Escape');
  });

  it('a sticky note opens for typing; the text tool makes a text shape; frames draw', async () => {
    await page.getByTestId('tool-note').click();
    let before = await ids();
    await clickBoard(page, { x: 520, y: 120 });
    const [note] = await newObject(page, before, 'the note');
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.type('Remember');
    await page.keyboard.press('Escape');
    await waitFor((o) => o[note].geom === 'note' && o[note].text === 'Remember', 'the note text');

    await page.getByTestId('tool-text').click();
    before = await ids();
    await clickBoard(page, { x: 480, y: 420 });
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.type('Hello');
    await page.keyboard.press('Escape');
    const [, t] = await newObject(page, before, 'the text shape');
    assert.deepEqual([t.geom, t.text], ['text', 'Hello']);

    await page.getByTestId('tool-frame').click();
    before = await ids();
    await dragBoard(page, { x: -400, y: 300 }, { x: -150, y: 460 });
    const [, f] = await newObject(page, before, 'the frame');
    assert.equal(f.geom, 'frame');
    near(f.w, 250, 2, 'frame w');
  });

  it('Ctrl+Z takes back one edit, Ctrl+Shift+Z brings it again', async () => {
    const before = await ids();
    await page.keyboard.press('Control+z');
    await until(async () => (await ids()).size === before.size - 1, { what: 'the frame undone' });
    await page.keyboard.press('Control+Shift+Z');
    await until(async () => (await ids()).size === before.size, { what: 'the frame redone' });
  });

  it('a sticky note\'s fill swatches show the pastel tone it is then drawn in', async () => {
    const swatch = (name) => page.getByTestId(`fill-${name}`).evaluate((b) => {
      const [r, g, bl] = getComputedStyle(b).backgroundColor.match(/\d+/g).map(Number);
      return `#${[r, g, bl].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
    });
    await clickBoard(page, { x: 60, y: 30 });
    await selected(['s1'], 's1 selected');
    const saturated = await swatch('pink');

    const note = Object.values(await objects()).find((o) => o.geom === 'note');
    await clickBoard(page, { x: note.x + note.w / 2, y: note.y + note.h / 2 });
    await selected([note.id], 'the note selected');
    const pastel = await swatch('pink');
    assert.notEqual(pastel, saturated, 'a note shows the pastel tones');
    await page.getByTestId('fill-pink').click();
    await waitFor((o) => o[note.id].fill === 'pink', 'the note filled pink');
    // The server's drawing of the note is painted in the swatch's tone.
    await until(() => page.evaluate(([id, hex]) => !!document.querySelector(
      `[data-testid="board-svg"] g[id="${id}"] [fill="${hex}"]`), [note.id, pastel]),
    { what: `the note drawn in ${pastel}` });
    await page.keyboard.press('Escape');
  });

  it('the end state tool draws a ring around a disc, 30 by 30', async () => {
    await page.getByTestId('tool-end_state').click();
    const before = await ids();
    await clickBoard(page, { x: -300, y: 100 });
    const [id, o] = await newObject(page, before, 'the end state');
    assert.deepEqual([o.geom, o.w, o.h], ['end_state', 30, 30]);
    // The server's drawing: the ring, then the disc filled in the outline's colour.
    await until(() => page.evaluate((k) => document.querySelectorAll(
      `[data-testid="board-svg"] g[id="${k}"] path`).length >= 2, id),
    { what: 'the ring and the disc drawn' });
  });
});
