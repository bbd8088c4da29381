// A shape's icon in the editor: the style panel's Icon section opens a picker
// whose search filters the set (served by the app, /assets/icons.json) by name
// and tag as one types; a click on an icon sends one `update` with `icon`, the
// renderer's drawing of it shows in the shape (one more stroked path, above the
// text), the saved file and an export carry it, "No icon" takes it away, and
// Ctrl+Z undoes. Real mouse and keyboard in Chromium.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BIN, session, until, clickBoard, watch, savedObjects } from './lib.mjs';

describe('icons', { timeout: 120000 }, () => {
  let s;
  let page;

  const { waitFor, selected } = watch(() => page);
  const panel = () => page.getByTestId('style-panel');
  /** The paths drawn for s1 (its outline, then its icon when it has one). */
  const paths = () => page.evaluate(() => document.querySelectorAll('g[id="s1"] path').length);

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', geom: 'cylinder', x: 0, y: 0, w: 140, h: 110, text: 'Orders' },
        { id: 's2', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'API' },
      ],
    });
    ({ page } = s);
    await page.evaluate(() => window.inkboard.setView({ x: -100, y: -100, zoom: 1 }));
  });

  after(() => s?.close());

  it('picks an icon by searching, and the drawing shows it', async () => {
    await until(async () => (await paths()) > 0, { what: 's1 drawn' });
    const plain = await paths();
    const textY = () => page.evaluate(() => document.querySelector('g[id="s1"] text').getBBox().y);
    const yBefore = await textY();
    await clickBoard(page, { x: 70, y: 60 });
    await selected(['s1'], 's1 selected');
    await panel().getByTestId('icon-button').click();
    await panel().getByTestId('icon-search').waitFor();
    // The search has the focus: typing goes straight to it.
    await page.keyboard.type('datab');
    await panel().getByTestId('icon-database').waitFor();
    const shown = await panel().locator('.icon-cell').evaluateAll((cells) => cells.map((c) => c.title));
    // Names starting with the word first, then names holding it (file-database).
    assert.equal(shown[0], 'database', shown.join());
    assert.ok(shown.every((n) => n.includes('datab')), shown.join());
    await panel().getByTestId('icon-database').click();
    await waitFor((o) => o.s1.icon === 'database', 'the icon set');
    // The renderer's drawing: one more path (the icon, stroked, unfilled), and
    // the text moved down to make room for it.
    await until(async () => (await paths()) === plain + 1, { what: 'the icon drawn' });
    const icon = await page.evaluate(() => {
      const p = [...document.querySelectorAll('g[id="s1"] path')].at(-1);
      return { fill: p.getAttribute('fill'), cap: p.getAttribute('stroke-linecap'), y: p.getBBox().y };
    });
    assert.equal(icon.fill ?? 'none', 'none');
    assert.equal(icon.cap, 'round');
    assert.ok((await textY()) > yBefore, 'the text moved down');
    assert.ok(icon.y < (await textY()), 'the icon above the text');
    // The panel shows the icon the shape has.
    await until(async () => (await panel().getByTestId('icon-button').textContent()).includes('database'),
      { what: 'the panel shows the icon' });
  });

  it('the saved file and an export carry it', async () => {
    await until(() => savedObjects(s.file).find((o) => o.id === 's1')?.icon === 'database',
      { what: 'saved', ms: 15000 });
    // The export is the renderer's: s1's group has its outline and the icon.
    const out = path.join(s.app.dir, 'icons.svg');
    execFileSync(BIN, ['export', s.file, '-o', out], { env: s.app.env });
    const svg = readFileSync(out, 'utf8');
    const at = svg.indexOf('<g id="s1"');
    assert.ok(at >= 0, 'the export has s1');
    const end = svg.indexOf('<g id=', at + 1);
    const group = svg.slice(at, end < 0 ? undefined : end);
    assert.equal(group.match(/<path/g)?.length, await paths(), 'the paths the editor shows, the icon among them');
    assert.match(group, /stroke-linecap="round"/);
  });

  it('a tag finds an icon, a word that matches nothing says so, Escape closes', async () => {
    await panel().getByTestId('icon-button').click();
    const search = panel().getByTestId('icon-search');
    await search.waitFor();
    await page.keyboard.type('postgres');
    await panel().getByTestId('icon-database').waitFor();
    await page.keyboard.press('Control+a');
    await page.keyboard.type('qqqqqq');
    await until(async () => (await panel().locator('.icon-cell').count()) === 0, { what: 'nothing found' });
    await page.keyboard.press('Escape');
    await until(async () => (await panel().getByTestId('icon-search').count()) === 0, { what: 'closed' });
    const o = await page.evaluate(() => window.inkboard.objects());
    assert.equal(o.s1.icon, 'database', 'typing changed nothing');
    assert.ok(o.s1, 'Escape in the search did not delete the shape');
  });

  it('"No icon" takes it away, and Ctrl+Z brings it back', async () => {
    await panel().getByTestId('icon-button').click();
    await panel().getByTestId('icon-none').click();
    await waitFor((o) => o.s1.icon === undefined, 'the icon taken away');
    await page.mouse.click(5, 5);
    await page.keyboard.press('Control+z');
    await waitFor((o) => o.s1.icon === 'database', 'undone');
  });
});
