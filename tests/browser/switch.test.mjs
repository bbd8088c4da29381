// A window switched to another board (`inkboard open OTHER` while it is open)
// drops everything keyed to the old board's ids: the selection (the old board's
// `s22` is an unrelated shape on the new one, which Delete must not remove), the
// connection handles shown on hover, an arrow being drawn click by click, and the
// text being typed into a shape (sent nowhere); and the board it shows becomes the
// board on screen, which an agent's path-less call edits (after Back too). Real
// mouse and keyboard events.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import {
  BIN, session, until, clickBoard, clientOf, selectionOf, writeBoard, savedObjects,
} from './lib.mjs';

describe('switching a window to another board', { timeout: 120000 }, () => {
  let s;
  let page;
  let other;

  const title = () => page.getByTestId('board-title').textContent();
  const objects = () => page.evaluate(() => window.inkboard.objects());
  /** A shape only on each board: its page is drawn once the window holds it. */
  const own = { 'Test board': 's23', 'Other board': 's30' };
  /** `inkboard open FILE`, as a person types it while the app runs: the window switches. */
  const open = async (file, name) => {
    execFileSync(BIN, ['open', '--no-browser', file], { env: s.app.env });
    await until(async () => (await title()) === name, { what: `the window on ${name}` });
    await page.evaluate(() => window.inkboard.ready);
    // The title comes in the `board` message, the shapes in the `scene` after it:
    // until then the window still holds the old board's shapes (and its view).
    await until(async () => own[name] in (await objects()), { what: `${name} drawn` });
  };

  before(async () => {
    s = await session({
      mcp: true,
      objects: [
        { id: 's22', type: 'shape', x: 0, y: 0, w: 120, h: 60, text: 'Mine' },
        { id: 's23', type: 'shape', x: 300, y: 0, w: 120, h: 60, text: 'Hover me' },
      ],
    });
    ({ page } = s);
    other = path.join(s.app.dir, 'other.inkboard');
    writeBoard(other, [{ objects: [
      { id: 's22', type: 'shape', x: 0, y: 300, w: 160, h: 80, text: 'Unrelated' },
      { id: 's30', type: 'shape', x: 400, y: 300, w: 160, h: 80, text: 'Other' },
    ] }], { title: 'Other board' });
    await page.evaluate(() => window.inkboard.setView({ x: -200, y: -200, zoom: 1 }));
  });

  after(() => s?.close());

  it('drops the selection, and Delete then removes nothing from the new board', async () => {
    await clickBoard(page, { x: 60, y: 30 });
    await until(async () => (await selectionOf(page)).join() === 's22', { what: 's22 selected' });
    await open(other, 'Other board');
    assert.deepEqual(await selectionOf(page), [], 'nothing selected on the new board');
    await page.keyboard.press('Delete');
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await objects()).s22?.text, 'Unrelated', 'the other board\'s s22 is still there');
    assert.ok(savedObjects(other).some((o) => o.id === 's22'), 'and in its file');
  });

  it('drops the connection handles shown on hover', async () => {
    await open(s.file, 'Test board');
    const c = await clientOf(page, 360, 30);
    await page.mouse.move(c.x, c.y, { steps: 3 });
    await page.getByTestId('link-top').waitFor();
    await open(other, 'Other board');
    assert.equal(await page.getByTestId('link-top').count(), 0, 'no handles of the old board\'s shape');
  });

  it('drops an arrow drawn click by click: Enter on the new board sends nothing', async () => {
    await open(s.file, 'Test board');
    await page.keyboard.press('a');
    await clickBoard(page, { x: 200, y: 200 });
    await clickBoard(page, { x: 260, y: 260 });
    await page.getByTestId('connector-draft').waitFor({ state: 'attached' });
    const revision = await page.evaluate(() => window.inkboard.revision());
    await open(other, 'Other board');
    assert.equal(await page.getByTestId('connector-draft').count(), 0, 'the draft is gone');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Escape');
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(!Object.values(await objects()).some((o) => o.type === 'connector'), 'no connector on the new board');
    assert.ok(!savedObjects(other).some((o) => o.type === 'connector'));
    assert.equal(await page.evaluate(() => window.inkboard.revision()), revision, 'nothing sent');
  });

  it('drops the text being typed: the new board\'s s22 keeps its text', async () => {
    await page.keyboard.press('v');
    await open(s.file, 'Test board');
    await clickBoard(page, { x: 60, y: 30 }, { clickCount: 2 });
    const editor = page.getByTestId('text-editor');
    await editor.waitFor();
    await page.keyboard.type('typed on the first board');
    execFileSync(BIN, ['open', '--no-browser', other], { env: s.app.env });
    await until(async () => (await title()) === 'Other board', { what: 'the window on the other board' });
    await until(async () => (await editor.count()) === 0, { what: 'the editor closed' });
    await new Promise((r) => setTimeout(r, 300));
    assert.equal((await objects()).s22?.text, 'Unrelated');
    assert.equal(savedObjects(other).find((o) => o.id === 's22').text, 'Unrelated');
  });

  it('the board shown is the board on screen: after Back, an agent\'s call edits it', async () => {
    await open(s.file, 'Test board');
    await page.bringToFront();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await s.mcp.call('create_board', { title: 'Third board' });
    await until(async () => (await title()) === 'Third board', { what: 'the window on the new board' });
    await page.goBack();
    await until(async () => (await title()) === 'Test board', { what: 'Back on the first board' });
    await page.evaluate(() => window.inkboard.ready);
    const r = await s.mcp.call('add_shape', { x: 0, y: 600, w: 80, h: 40, text: 'From the agent' });
    await until(async () => (await objects())[r.id]?.text === 'From the agent', { what: 'the agent\'s shape on the board shown' });
  });
});
