// A person edits with mouse and keyboard: drawing a rectangle with the toolbar's
// rect tool, double-click text editing, Delete; every edit is saved to the file
// and reaches an agent's `board_changes` as `by: "user"`.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  session, drawnIds, until, savedObjects, clientOf, clickBoard, dragBoard,
} from './lib.mjs';

const near = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} is not within ${tol} of ${b}`);

describe('editing by hand', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;
  let file;
  let since;
  let drawn;

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's1', type: 'shape', x: 0, y: 0, w: 160, h: 80, text: 'First' },
        { id: 's2', type: 'shape', x: 240, y: 0, w: 160, h: 80, text: 'Second' },
        { id: 's3', type: 'shape', geom: 'ellipse', x: 0, y: 160, w: 160, h: 80, text: 'Third' },
      ],
    });
    ({ page, mcp, file } = s);
    since = (await mcp.call('board_changes', {})).revision;
  });

  after(() => s?.close());

  it('draws a rectangle with the rect tool: added, visible, saved', async () => {
    const before = new Set(await drawnIds(page));
    await page.getByTestId('tool-rect').click();
    await page.locator('[data-testid="canvas"][data-tool="rect"]').waitFor();
    const a = await clientOf(page, 480, 200);
    const b = await clientOf(page, 640, 300);
    await dragBoard(page, { x: 480, y: 200 }, { x: 640, y: 300 });

    const ids = await until(async () => {
      const now = await drawnIds(page);
      return now.length === before.size + 1 && now.filter((id) => !before.has(id));
    }, { what: 'a new object in the DOM' });
    [drawn] = ids;
    const obj = (await page.evaluate(() => window.inkboard.objects()))[drawn];
    assert.equal(obj.type, 'shape');
    assert.ok(!obj.geom || obj.geom === 'rect', `geom ${obj.geom}`);
    near(obj.x, 480, 10, 'x');
    near(obj.y, 200, 10, 'y');
    near(obj.w, 160, 10, 'w');
    near(obj.h, 100, 10, 'h');
    // Visible: its drawing covers about the dragged rectangle on screen.
    const box = await page.locator(`g#${drawn}`).boundingBox();
    near(box.x, a.x, 12, 'screen x');
    near(box.width, b.x - a.x, 16, 'screen width');
    // The tool hands back to select, with the new shape selected (once the reply,
    // which follows the drawing, has arrived).
    await until(async () => {
      const selected = await page.evaluate(() => window.inkboard.selection());
      return selected.length === 1 && selected[0] === drawn;
    }, { what: 'the new shape selected' });
    const saved = await until(() => savedObjects(file).find((o) => o.id === drawn), { what: 'the shape in the file' });
    assert.deepEqual([saved.x, saved.y, saved.w, saved.h], [obj.x, obj.y, obj.w, obj.h]);
  });

  it('double-click edits a shape\'s text in place', async () => {
    await page.locator('[data-testid="canvas"][data-tool="select"]').waitFor();
    const p = await clientOf(page, 80, 40);
    await page.mouse.dblclick(p.x, p.y);
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    assert.equal(await editor.innerText(), 'First', 'the text shown in the formatted editor');
    await page.keyboard.type('Hello board');
    await page.keyboard.press('Escape');
    await until(async () => (await page.evaluate(() => window.inkboard.objects().s1.text)) === 'Hello board', { what: 'the new text' });
    assert.equal(await editor.count(), 0);
    await until(async () => /Hello board/.test(await page.locator('g#s1').textContent()), { what: 'the new text drawn' });
    await until(() => savedObjects(file).find((o) => o.id === 's1').text === 'Hello board', { what: 'the text saved' });
  });

  it('Delete removes the selection', async () => {
    await clickBoard(page, { x: 320, y: 40 });
    await until(async () => (await page.evaluate(() => window.inkboard.selection())).join() === 's2', { what: 's2 selected' });
    await page.keyboard.press('Delete');
    await until(async () => !(await drawnIds(page)).includes('s2'), { what: 's2 gone from the DOM' });
    assert.equal((await page.evaluate(() => window.inkboard.objects())).s2, undefined);
    await until(() => !savedObjects(file).some((o) => o.id === 's2'), { what: 's2 gone from the file' });
  });

  it('the person\'s edits reach board_changes as by "user"', async () => {
    const { changes } = await mcp.call('board_changes', { since });
    const seen = changes.map((c) => `${c.kind} ${c.id} ${c.by}`);
    assert.ok(seen.includes(`added ${drawn} user`), seen.join('; '));
    assert.ok(seen.includes('updated s1 user'), seen.join('; '));
    assert.ok(seen.includes('removed s2 user'), seen.join('; '));
    assert.ok(changes.every((c) => c.by === 'user'), seen.join('; '));
    assert.equal(changes.find((c) => c.id === 's1' && c.kind === 'updated').object.text, 'Hello board');
  });
});
