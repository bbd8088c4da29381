// A large board: it opens at a readable zoom on its top-left corner, draws what is
// on screen first and the rest as the view comes to it, and an agent's change to an
// object out of view is what the page draws once the person gets there.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, drawnIds, until } from './lib.mjs';

const COLS = 60;
const ROWS = 50;

/** A grid of COLS × ROWS labelled shapes, 200 × 140 units apart. */
function grid() {
  const objects = [];
  for (let i = 0; i < COLS * ROWS; i++) {
    objects.push({
      id: `s${i + 1}`, type: 'shape', geom: 'rect',
      x: (i % COLS) * 200, y: Math.floor(i / COLS) * 140, w: 140, h: 80, text: `Item ${i + 1}`,
    });
  }
  return objects;
}

describe('a large board', { timeout: 120000 }, () => {
  let s;
  let page;
  const last = `s${COLS * ROWS}`;

  before(async () => {
    s = await session({ objects: grid(), mcp: true });
    ({ page } = s);
  });

  after(() => s?.close());

  it('opens at the smallest readable zoom on its top-left corner, drawing only what is near the view', async () => {
    const view = await page.evaluate(() => window.inkboard.view());
    assert.equal(view.zoom, 0.25, 'fitting 12,000 × 7,000 units would make text unreadable');
    assert.ok(view.x < 0 && view.x > -400 && view.y < 0 && view.y > -400, `top-left corner in view: ${JSON.stringify(view)}`);
    const timings = await page.evaluate(() => window.inkboard.perf.timings());
    assert.ok(timings.drawn > 0 && timings.drawn < COLS * ROWS / 2, `the first frame drew ${timings.drawn} objects`);
    // The rest of the layer fills in while the page is idle, but not the far corner.
    await until(async () => (await drawnIds(page)).length > timings.drawn, { what: 'the idle fill' });
    assert.ok(!(await drawnIds(page)).includes(last), 'the far corner is not drawn');
    // Its data is there all the same (selection, Ctrl+A, the style panel use it).
    assert.equal(Object.keys(await page.evaluate(() => window.inkboard.objects())).length, COLS * ROWS);
  });

  it("draws an agent's change out of view once the view comes to it", async () => {
    await s.mcp.call('update', { id: last, text: 'Changed' });
    await until(async () => (await page.evaluate((id) => window.inkboard.objects()[id]?.text, last)) === 'Changed', { what: 'the change to reach the page' });
    assert.ok(!(await drawnIds(page)).includes(last), 'still not drawn: out of view');
    await page.getByTestId('zoom-fit').click();
    await until(async () => (await drawnIds(page)).length === COLS * ROWS, { ms: 30000, what: 'every object drawn after fit' });
    assert.match(await page.locator(`g#${last}`).textContent(), /Changed/);
    assert.ok((await page.evaluate(() => window.inkboard.view().zoom)) < 0.25);
  });
});
