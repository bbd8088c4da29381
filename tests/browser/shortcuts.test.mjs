// The shortcuts, read from the editor's one table (web/ui/shortcuts.js): every tool key
// picks its tool and is in its button's tooltip, the `?` overlay lists every entry,
// plain + and − zoom, D/S/A draw a diamond, a note and a connector, the eraser deletes
// what a stroke passes over in one undo step, and Alt+drag duplicates.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  session, until, clickBoard, dragBoard, selectionOf, newObject, ROOT, watch,
} from './lib.mjs';

const { SHORTCUTS, SECTIONS } = await import(
  pathToFileURL(path.join(ROOT, 'crates/inkboard-app/web/ui/shortcuts.js')).href
);

describe('shortcuts', { timeout: 120000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor } = watch(() => page);
  const tool = () => page.getByTestId('canvas').getAttribute('data-tool');
  const view = () => page.evaluate(() => window.inkboard.view());

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'B' },
        { id: 's3', type: 'shape', x: 0, y: 200, w: 120, h: 60, text: 'C' },
        { id: 's4', type: 'shape', x: 300, y: 200, w: 120, h: 60, text: 'D' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('the table names the keys the issue asks for', () => {
    const keys = (action) => SHORTCUTS.find((e) => e.action === action)?.keys ?? [];
    assert.ok(keys('tool:diamond').includes('D'));
    assert.ok(keys('tool:connector').includes('A'));
    // L is Excalidraw's line tool, as 6 is; it drew connectors before there was one.
    assert.ok(keys('tool:line').includes('L'));
    assert.ok(keys('tool:note').includes('S'));
    assert.ok(keys('tool:eraser').includes('E'));
    assert.ok(keys('tool:pen').includes('X'));
    assert.ok(keys('zoom-in').includes('+') && keys('zoom-out').includes('-'));
    assert.ok(keys('help').includes('?'));
    assert.ok(keys('alt-drag').includes('Alt+drag'));
  });

  it('every tool key picks its tool, and its button\'s tooltip names the key', async () => {
    for (const e of SHORTCUTS.filter((x) => x.action.startsWith('tool:') && x.action !== 'tool:image')) {
      const name = e.action.slice(5);
      const title = await page.getByTestId(`tool-${name}`).getAttribute('title');
      for (const k of e.keys) {
        assert.ok(title.includes(k), `the tooltip "${title}" names ${k}`);
        await page.keyboard.press('Escape');
        await page.keyboard.press('Escape');
        await until(async () => (await tool()) === 'select', { what: 'back to select' });
        await page.keyboard.press(k.toLowerCase());
        await until(async () => (await tool()) === name, { what: `${k} picks ${name}` });
      }
    }
    await page.keyboard.press('Escape');
  });

  it('? lists every shortcut of the table, in its order; Escape closes it', async () => {
    await page.keyboard.press('?');
    const help = page.getByTestId('help');
    await help.waitFor();
    const rows = await help.getByTestId('help-row').evaluateAll((els) => els.map((e) => e.dataset.action));
    assert.deepEqual(rows, SHORTCUTS.map((e) => e.action));
    const text = await help.innerText();
    for (const [title] of SECTIONS) assert.ok(text.toLowerCase().includes(title.toLowerCase()), title);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'detached' });
    await page.getByTestId('help-button').click();
    await help.waitFor();
    await page.keyboard.press('?');
    await help.waitFor({ state: 'detached' });
  });

  it('plain + and − zoom about the centre', async () => {
    const v = await view();
    await page.keyboard.press('+');
    await until(async () => Math.abs((await view()).zoom - v.zoom * 1.25) < 1e-6, { what: '+ zooms in' });
    await page.keyboard.press('-');
    await until(async () => Math.abs((await view()).zoom - v.zoom) < 1e-6, { what: '− zooms out' });
  });

  it('D draws a diamond, S a sticky note, A a connector', async () => {
    let before = await ids();
    await page.keyboard.press('d');
    await clickBoard(page, { x: -300, y: -150 });
    const [diamond, d] = await newObject(page, before, 'the diamond');
    assert.equal(d.geom, 'diamond');

    before = await ids();
    await page.keyboard.press('s');
    await clickBoard(page, { x: -300, y: 380 });
    const [, n] = await newObject(page, before, 'the note');
    assert.equal(n.geom, 'note');
    await page.getByTestId('text-editor').waitFor();
    await page.keyboard.press('Escape');

    before = await ids();
    await page.keyboard.press('a');
    await dragBoard(page, { x: 60, y: 30 }, { x: -300, y: -150 });
    const [, c] = await newObject(page, before, 'the connector');
    assert.deepEqual([c.type, c.from, c.to], ['connector', 's1', diamond]);
  });

  it('the eraser deletes what one stroke passes over, and one Ctrl+Z brings it all back', async () => {
    await page.keyboard.press('Escape');
    await page.keyboard.press('e');
    await until(async () => (await tool()) === 'eraser', { what: 'the eraser' });
    await dragBoard(page, { x: -20, y: 230 }, { x: 440, y: 230 }, { steps: 20 });
    await waitFor((o) => !o.s3 && !o.s4, 's3 and s4 erased');
    const o = await objects();
    assert.ok(o.s1 && o.s2, 'what the stroke missed stays');
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s3 && o.s4, 'both back with one undo');
  });

  it('Alt+drag leaves the original and drops a copy, one undo step', async () => {
    await page.keyboard.press('v');
    await until(async () => (await tool()) === 'select', { what: 'select' });
    const before = await ids();
    await page.keyboard.down('Alt');
    await dragBoard(page, { x: 360, y: 230 }, { x: 360, y: 430 }, { steps: 10 });
    await page.keyboard.up('Alt');
    const [copy, o] = await newObject(page, before, 'the copy');
    assert.deepEqual([o.x, o.y, o.w, o.h, o.text], [300, 400, 120, 60, 'D']);
    const s4 = (await objects()).s4;
    assert.deepEqual([s4.x, s4.y], [300, 200], 'the original stays');
    await until(async () => (await selectionOf(page)).join() === copy, { what: 'the copy selected' });
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o[copy] && o.s4.y === 200, 'the copy undone');
  });
});
