// live.test.mjs: the chat view and `inkboard open` on the same board stay in step. The
// MCP server sends the chat view's calls to the running application (live mode), so an
// edit in the chat view is one undo step on the board the editor shows, and an edit in
// the editor reaches the chat view (which looks for changes while it is visible).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { call, connect, openHost, removeDir, startApp, tempDir, until, writeBoard } from './lib.mjs';

test('the chat view and the editor of `inkboard open` show each other\'s edits', { timeout: 120000 }, async () => {
  const dir = tempDir();
  const file = path.join(dir, 'live.inkboard');
  writeBoard(file, [
    { id: 's1', type: 'shape', geom: 'rect', x: 0, y: 0, w: 140, h: 70, text: 'Left' },
    { id: 's2', type: 'shape', geom: 'rect', x: 300, y: 0, w: 140, h: 70, text: 'Right' },
  ]);
  const app = await startApp(file, dir);
  const client = await connect({ dir });
  const host = await openHost(client);
  const editor = await host.browser.newPage({ viewport: { width: 1000, height: 700 } });
  try {
    await editor.goto(app.url);
    await editor.waitForFunction(() => window.inkboard?.ready);
    await editor.evaluate(() => window.inkboard.ready);

    // An agent's batch, run by the application, shown in the chat view.
    const input = { path: file, operations: [{ tool: 'add_shape', args: { text: 'Agent', x: 0, y: 200 } }] };
    const result = await call(client, 'batch', input);
    await host.show(input, result);
    await host.frame.locator('g[id="s3"]').waitFor();
    await until(() => editor.evaluate(() => 's3' in window.inkboard.objects()), { what: 'the editor to show the batch' });

    // Drag "Left" in the chat view: the editor shows it moved.
    const box = await host.frame.locator('g[id="s1"]').boundingBox();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
    await host.page.mouse.move(x, y);
    await host.page.mouse.down();
    for (let i = 1; i <= 6; i++) await host.page.mouse.move(x + 10 * i, y + 10 * i);
    await host.page.mouse.up();
    await until(() => editor.evaluate(() => window.inkboard.objects().s1.x > 0), { what: 'the editor to show the move' });
    const changes = (await call(client, 'board_changes', { path: file })).structuredContent.changes;
    assert.ok(changes.some((c) => c.id === 's1' && c.by === 'user'), JSON.stringify(changes));

    // Delete "Right" in the editor: the chat view drops it.
    const right = await editor.locator('[data-testid="objects"] g[id="s2"]').boundingBox();
    await editor.mouse.click(right.x + right.width / 2, right.y + right.height / 2);
    await editor.keyboard.press('Delete');
    await until(async () => !('s2' in await host.inChat(() => window.inkboard.objects())), { ms: 15000, what: 'the chat view to drop the deleted shape' });
    assert.equal(await host.frame.locator('g[id="s2"]').count(), 0);
  } finally {
    await host.close();
    await client.close();
    await app.stop();
    removeDir(dir);
  }
});
