// An agent and a person on one board: an MCP `batch` appears in the open page
// without a reload, one Ctrl+Z takes the whole batch back and Ctrl+Shift+Z (or
// Ctrl+Y) brings it again, and two windows of the board stay in sync.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, openPage, drawnIds, until, dragBoard, savedObjects,
} from './lib.mjs';

const has = (ids, wanted) => wanted.every((id) => ids.includes(id));
const hasNone = (ids, wanted) => wanted.every((id) => !ids.includes(id));

describe('an agent and a person', { timeout: 120000 }, () => {
  let s;
  let app;
  let context;
  let page;
  let mcp;
  let file;
  let batchIds;

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 160, h: 80, text: 'Person' },
        { id: 's2', type: 'shape', x: 0, y: 200, w: 160, h: 80, text: 'Agent' },
      ],
    });
    ({ app, context, page, mcp, file } = s);
  });

  after(() => s?.close());

  it('an MCP batch appears in the page without a reload', async () => {
    await page.evaluate(() => {
      window.notReloaded = true;
    });
    const r = await mcp.call('batch', {
      operations: [
        { tool: 'add_shape', args: { x: 300, y: 0, w: 120, h: 60, text: 'One' } },
        { tool: 'add_shape', args: { x: 500, y: 0, w: 120, h: 60, text: 'Two', geom: 'ellipse' } },
        { tool: 'add_shape', args: { x: 300, y: 200, w: 120, h: 60, text: 'Three', fill: 'yellow' } },
        { tool: 'add_shape', args: { x: 500, y: 200, w: 120, h: 60, geom: 'note', text: 'Four' } },
        { tool: 'add_connector', args: { from: '$0.id', to: '$1.id' } },
        { tool: 'add_connector', args: { from: '$2.id', to: '$3.id', text: 'then' } },
        { tool: 'update', args: { id: 's2', text: 'Agent was here' } },
      ],
    });
    assert.equal(r.applied, 7);
    batchIds = r.results.slice(0, 6).map((x) => x.id);
    await until(async () => has(await drawnIds(page), batchIds), { what: 'the batch on screen' });
    await until(async () => /Agent was here/.test(await page.locator('g#s2').textContent()), { what: 'the update on screen' });
    assert.equal(await page.evaluate(() => window.notReloaded), true);
    assert.match(await page.locator(`g#${batchIds[5]}`).textContent(), /then/);
  });

  it('one Ctrl+Z removes the whole batch; Ctrl+Shift+Z and Ctrl+Y restore it', async () => {
    const rev = await page.evaluate(() => window.inkboard.revision());
    await page.keyboard.press('Control+z');
    await until(async () => hasNone(await drawnIds(page), batchIds), { what: 'the batch undone' });
    // Exactly one step: the objects from before the batch are still there, as they were.
    assert.deepEqual((await drawnIds(page)).sort(), ['s1', 's2']);
    await until(async () => /Agent/.test(await page.locator('g#s2').textContent())
      && !/was here/.test(await page.locator('g#s2').textContent()), { what: 's2 back to its old text' });
    const read = await mcp.call('read_board', {});
    assert.deepEqual(read.page.objects.map((o) => o.id).sort(), ['s1', 's2']);
    await until(() => savedObjects(file).length === 2, { what: 'the undo saved' });

    await page.keyboard.press('Control+Shift+Z');
    await until(async () => has(await drawnIds(page), batchIds), { what: 'the batch redone (Ctrl+Shift+Z)' });
    await until(async () => /Agent was here/.test(await page.locator('g#s2').textContent()), { what: 'the update redone' });

    await page.keyboard.press('Control+z');
    await until(async () => hasNone(await drawnIds(page), batchIds), { what: 'the batch undone again' });
    await page.keyboard.press('Control+y');
    await until(async () => has(await drawnIds(page), batchIds), { what: 'the batch redone (Ctrl+Y)' });
    assert.ok(await page.evaluate(() => window.inkboard.revision()) > rev);
    await until(() => savedObjects(file).length === 8, { what: 'the redo saved' });
  });

  it('two windows of the board stay in sync', async () => {
    const second = await openPage(context, app);
    assert.deepEqual((await drawnIds(second)).sort(), (await drawnIds(page)).sort());

    // The person draws in the first window: the second shows it.
    const before = new Set(await drawnIds(page));
    await page.getByTestId('tool-rect').click();
    await page.locator('[data-testid="canvas"][data-tool="rect"]').waitFor();
    await dragBoard(page, { x: 300, y: 400 }, { x: 420, y: 470 });
    const [added] = await until(async () => {
      const fresh = (await drawnIds(page)).filter((id) => !before.has(id));
      return fresh.length === 1 && fresh;
    }, { what: 'the drawn shape' });
    await until(async () => (await drawnIds(second)).includes(added), { what: 'the shape in the second window' });
    const [o1, o2] = await Promise.all([page, second].map((p) => p.evaluate((id) => window.inkboard.objects()[id], added)));
    assert.deepEqual(o2, o1);

    // Undo in the second window takes it away in the first.
    await second.keyboard.press('Control+z');
    await until(async () => !(await drawnIds(page)).includes(added), { what: 'the undo in the first window' });

    // An agent's edit reaches both.
    const r = await mcp.call('add_shape', { x: 700, y: 400, w: 100, h: 50, text: 'Both' });
    await Promise.all([page, second].map((p) => until(async () => (await drawnIds(p)).includes(r.id), { what: 'the agent shape in both' })));
    assert.equal(await page.evaluate(() => window.inkboard.revision()), await second.evaluate(() => window.inkboard.revision()));
    await second.close();
  });
});
