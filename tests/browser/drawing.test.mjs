// Tools as a daily Excalidraw user's hands expect: the number keys pick
// Excalidraw's tools (1 select … 0 eraser, from the one table), the tool lock (Q)
// keeps a drawing tool after each shape, and arrows and lines are drawn click by
// click: each click adds a point, Enter, Escape or a double-click ends, a click on
// a shape ends attached to it; it is ONE connector bending at the points
// (`waypoints`), one undo step. Real mouse and keyboard events in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  session, until, clickBoard, clientOf, newObject, watch, ROOT,
} from './lib.mjs';

const { SHORTCUTS } = await import(pathToFileURL(path.join(ROOT, 'crates/inkboard-app/web/ui/shortcuts.js')).href);

/** Excalidraw's digits, and the tool each picks here. */
const DIGITS = {
  1: 'select', 2: 'rect', 3: 'diamond', 4: 'ellipse', 5: 'connector', 6: 'line', 7: 'pen', 8: 'text', 0: 'eraser',
};

describe('drawing tools', { timeout: 180000 }, () => {
  let s;
  let page;

  const { objects, ids, waitFor } = watch(() => page);
  const tool = () => page.getByTestId('canvas').getAttribute('data-tool');
  const connectors = (o) => Object.values(o).filter((x) => x.type === 'connector');

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'A' },
        { id: 's2', type: 'shape', x: 500, y: 300, w: 120, h: 60, text: 'B' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -300, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('the digits pick Excalidraw\'s tools; the table and the tooltips say so', async () => {
    for (const [digit, name] of Object.entries(DIGITS)) {
      const entry = SHORTCUTS.find((e) => e.action === `tool:${name}`);
      assert.ok(entry.keys.includes(digit), `${digit} is a key of ${name} in the table`);
      assert.match(await page.getByTestId(`tool-${name}`).getAttribute('title'), new RegExp(`\\b${digit}\\b`));
      await page.keyboard.press('Escape');
      await page.keyboard.press(digit);
      await until(async () => (await tool()) === name, { what: `${digit} picks ${name}` });
    }
    assert.ok(SHORTCUTS.find((e) => e.action === 'tool:image').keys.includes('9'));
    await page.keyboard.press('1');
  });

  it('Q locks the tool: two rectangles in a row, then Q and the tool goes back to Select', async () => {
    await page.keyboard.press('q');
    assert.equal(await page.getByTestId('tool-lock').getAttribute('aria-pressed'), 'true');
    await page.keyboard.press('2');
    let before = await ids();
    await clickBoard(page, { x: 0, y: 300 });
    await newObject(page, before, 'the first rectangle');
    assert.equal(await tool(), 'rect', 'the tool stays');
    before = await ids();
    await clickBoard(page, { x: 200, y: 300 });
    const [, second] = await newObject(page, before, 'the second rectangle');
    assert.equal(second.geom ?? 'rect', 'rect');
    assert.equal(await tool(), 'rect');
    await page.getByTestId('tool-lock').click();
    assert.equal(await page.getByTestId('tool-lock').getAttribute('aria-pressed'), 'false');
    before = await ids();
    await clickBoard(page, { x: 400, y: 500 });
    await newObject(page, before, 'a third rectangle');
    await until(async () => (await tool()) === 'select', { what: 'back to select without the lock' });
  });

  it('an arrow by clicks: each click a point, Enter ends it; one connector, one undo step', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: 500, zoom: 1 }));
    await page.keyboard.press('5');
    const before = await ids();
    for (const p of [{ x: 0, y: 600 }, { x: 200, y: 600 }, { x: 200, y: 750 }, { x: 400, y: 750 }]) await clickBoard(page, p);
    await page.getByTestId('connector-draft').waitFor({ state: 'attached' });
    assert.equal((await ids()).size, before.size, 'nothing sent before it ends');
    await page.keyboard.press('Enter');
    const [id, c] = await newObject(page, before, 'the arrow');
    assert.deepEqual(c.from, { x: 0, y: 600 });
    assert.deepEqual(c.to, { x: 400, y: 750 });
    assert.deepEqual(c.waypoints, [[200, 600], [200, 750]]);
    assert.equal(c.route, 'straight', 'it bends at the points');
    // Drawn through them: its path passes each point.
    const d = await page.evaluate((i) => document.querySelector(`g#${i} path`).getAttribute('d'), id);
    for (const [x, y] of [[200, 600], [200, 750]]) assert.ok(d.includes(`${x} ${y}`), `the line passes ${x},${y}: ${d}`);
    await until(async () => (await tool()) === 'select', { what: 'back to select' });
    await page.keyboard.press('Control+z');
    await waitFor((o) => !o[id], 'one undo removes it whole');
  });

  it('a line by clicks, ended by a double-click, has no heads', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: 700, zoom: 1 }));
    await page.keyboard.press('6');
    const before = await ids();
    await clickBoard(page, { x: 0, y: 900 });
    await clickBoard(page, { x: 150, y: 950 });
    await clickBoard(page, { x: 300, y: 900 }, { clickCount: 2 });
    const [, c] = await newObject(page, before, 'the line');
    assert.deepEqual([c.from, c.to, c.waypoints], [{ x: 0, y: 900 }, { x: 300, y: 900 }, [[150, 950]]]);
    assert.deepEqual([c.start_arrow ?? 'none', c.end_arrow], ['none', 'none']);
  });

  it('Escape ends it at the last point; a click on a shape ends it attached there', async () => {
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -50, zoom: 1 }));
    await page.keyboard.press('a');
    let before = await ids();
    await clickBoard(page, { x: 700, y: 500 });
    await clickBoard(page, { x: 800, y: 550 });
    await page.keyboard.press('Escape');
    const [, c] = await newObject(page, before, 'the arrow ended by Escape');
    assert.deepEqual([c.from, c.to, c.waypoints], [{ x: 700, y: 500 }, { x: 800, y: 550 }, undefined]);

    await page.keyboard.press('a');
    before = await ids();
    await clickBoard(page, { x: 60, y: 30 }); // on s1
    await clickBoard(page, { x: 300, y: 150 });
    await clickBoard(page, { x: 560, y: 330 }); // on s2: ends there
    const [, d] = await newObject(page, before, 'the arrow between shapes');
    assert.deepEqual([d.from, d.to, d.waypoints], ['s1', 's2', [[300, 150]]]);
    // The line, the arrow ended by Escape and this one (the first was undone).
    assert.equal(connectors(await objects()).length, 3);
  });
});
