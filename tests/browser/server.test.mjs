// The team server's editor (issue 33): `inkboard serve` on SQLite in a temporary folder,
// people made and signed in with `inkboard admin`. A person opens their sign-in link, sees
// their boards, opens one (`/b/BOARD`: the live editor) and draws a shape with the mouse (a
// commit in their name); an agent's batch over `/mcp` with a bearer token appears without a
// reload, the note naming whose agent made it; an owner shares the board from the editor's
// Share dialog (typed and clicked), which a viewer is not offered; a viewer's editor offers
// no drawing tools, and an edit they still try is refused with the role it needs; a
// stranger's `/b/BOARD` is the same 404 as a board that does not exist.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { HttpMcp } from './team.mjs';
import {
  BIN, tempDir, launch, newContext, drawnIds, until, dragBoard, clickBoard,
} from './lib.mjs';

/** `inkboard admin --data DIR ARGS`: stdout's last line. */
function admin(dir, ...args) {
  const out = execFileSync(BIN, ['admin', '--data', dir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out.trim().split('\n').pop();
}

/** `inkboard serve --data DIR --listen 127.0.0.1:0`: {url, stop}. */
async function serve(dir) {
  const proc = spawn(BIN, ['serve', '--data', dir, '--listen', '127.0.0.1:0'], {
    env: { ...process.env, INKBOARD_LOG: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    exited.then((code) => reject(new Error(`inkboard serve exited (${code})`)));
  });
  return {
    url: url.trim(),
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** A page signed in through `link`, then at `path` with its first scene drawn. */
async function signedIn(context, server, link) {
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`page error: ${err.message}`));
  await page.goto(`${server.url}${link}`);
  return page;
}

async function openBoard(page, server, board) {
  await page.goto(`${server.url}/b/${board}`);
  await page.waitForFunction(() => window.inkboard?.ready, null, { timeout: 20000 });
  await page.evaluate(() => window.inkboard.ready);
}

describe('the team server\'s editor', { timeout: 180000 }, () => {
  let dir;
  let server;
  let browser;
  let agent;
  let board;
  let ann;
  let drawn;

  before(async () => {
    dir = tempDir('inkboard-server-');
    admin(dir, 'add-user', 'ann');
    const token = admin(dir, 'token', 'ann');
    server = await serve(dir);
    agent = await new HttpMcp(server.url, token).connect();
    board = (await agent.call('create_board', { title: 'Team plan' })).board;
    await agent.call('add_shape', { board, x: 0, y: 0, w: 160, h: 80, text: 'Start' });
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('a sign-in link shows the person\'s boards, and a board opens in the editor', async () => {
    const context = await newContext(browser);
    ann = await signedIn(context, server, admin(dir, 'link', 'ann'));
    assert.equal(new URL(ann.url()).pathname, '/');
    const link = ann.locator(`#boards a[href="/b/${board}"]`);
    assert.equal(await link.textContent(), 'Team plan');
    await link.click();
    await ann.waitForURL(`**/b/${board}**`);
    await ann.waitForFunction(() => window.inkboard?.ready, null, { timeout: 20000 });
    await ann.evaluate(() => window.inkboard.ready);
    assert.equal(await ann.getByTestId('board-title').textContent(), 'Team plan');
    assert.equal((await drawnIds(ann)).length, 1, 'the agent\'s first shape');
    // The header says who is signed in, and as what; an owner is offered Share.
    assert.equal(await ann.getByTestId('who').textContent(), 'ann · owner');
    assert.ok(await ann.getByTestId('share').isVisible(), 'the owner\'s Share button');
  });

  it('a shape drawn with the mouse is committed in the person\'s name', async () => {
    const before = new Set(await drawnIds(ann));
    await ann.getByTestId('tool-rect').click();
    await ann.locator('[data-testid="canvas"][data-tool="rect"]').waitFor();
    await dragBoard(ann, { x: 300, y: 0 }, { x: 460, y: 100 });
    [drawn] = await until(async () => {
      const now = await drawnIds(ann);
      return now.length === before.size + 1 && now.filter((id) => !before.has(id));
    }, { what: 'the drawn shape' });
    const read = await agent.call('read_board', { board });
    const shape = read.page.objects.find((o) => o.id === drawn);
    assert.ok(shape, `the agent reads ${drawn} from the store`);
    const changes = await agent.call('board_changes', { board, since: 0 });
    const last = changes.changes.at(-1);
    assert.equal(last.by, 'ann', JSON.stringify(last));
    assert.equal(changes.changes[0].by, 'ann\'s agent', JSON.stringify(changes.changes[0]));
  });

  it('an agent\'s batch over /mcp appears without a reload', async () => {
    await ann.evaluate(() => {
      window.notReloaded = true;
    });
    const before = new Set(await drawnIds(ann));
    const done = await agent.call('batch', {
      board,
      operations: [
        { tool: 'add_shape', args: { x: 0, y: 200, w: 120, h: 60, text: 'One' } },
        { tool: 'add_shape', args: { x: 300, y: 200, w: 120, h: 60, text: 'Two' } },
        { tool: 'add_connector', args: { from: '$0.id', to: '$1.id' } },
      ],
    });
    const made = done.results.map((r) => r.id);
    await until(async () => {
      const now = await drawnIds(ann);
      return made.every((id) => now.includes(id)) && now.length === before.size + 3;
    }, { what: 'the batch drawn in the open editor' });
    assert.equal(await ann.evaluate(() => window.notReloaded), true);
    // The note names whose agent it was, from the commit's author.
    const note = ann.getByTestId('status-note');
    await until(async () => (await note.textContent()) === 'ann\'s agent changed 3 objects', {
      what: 'the agent\'s note naming ann',
    });
  });

  it('the owner shares the board from the editor, and takes a role away', async () => {
    admin(dir, 'add-user', 'bea');
    await ann.getByTestId('share').click();
    const dialog = ann.getByTestId('share-dialog');
    await dialog.getByTestId('share-person-ann').waitFor();
    await dialog.getByTestId('share-name').fill('bea');
    await dialog.getByTestId('share-new-role').selectOption('viewer');
    await dialog.getByTestId('share-add').click();
    await dialog.getByTestId('share-person-bea').waitFor();
    assert.equal(await dialog.getByTestId('share-role-bea').inputValue(), 'viewer');
    assert.equal(await dialog.getByTestId('share-name').inputValue(), '', 'the field is cleared');
    // Made an editor from the list.
    await dialog.getByTestId('share-role-bea').selectOption('editor');
    await until(async () => admin(dir, 'shares', board).includes('editor'), { what: 'bea an editor' });
    // A name nobody has is refused in the server's words.
    await dialog.getByTestId('share-name').fill('nobody');
    await dialog.getByTestId('share-add').click();
    await until(async () => /no person named/.test(await dialog.getByTestId('share-error').textContent()), {
      what: 'the refusal',
    });
    // Removed with its button.
    await dialog.getByTestId('share-remove-bea').click();
    await dialog.getByTestId('share-person-bea').waitFor({ state: 'detached' });
    const shares = execFileSync(BIN, ['admin', '--data', dir, 'shares', board], { encoding: 'utf8' });
    assert.ok(!shares.includes('bea'), shares);
    // Each change is in the audit log, in ann's name.
    const audit = execFileSync(BIN, ['admin', '--data', dir, 'audit', '--limit', '3'], { encoding: 'utf8' });
    const rows = audit.trim().split('\n').filter((l) => l.includes('bea'));
    assert.equal(rows.length, 3, audit);
    assert.ok(rows.every((l) => l.includes('ann')), audit);
    assert.ok(/unshare/.test(rows[0]), audit);
    await ann.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('a viewer sees the board, and every edit is refused with the role it needs', async () => {
    admin(dir, 'add-user', 'vic');
    admin(dir, 'share', board, 'vic', 'viewer');
    const context = await newContext(browser);
    const vic = await signedIn(context, server, admin(dir, 'link', 'vic'));
    await openBoard(vic, server, board);
    const shown = await drawnIds(vic);
    assert.ok(shown.includes(drawn), 'the person\'s shape is shown to the viewer');
    const count = (await agent.call('read_board', { board })).page.objects.length;
    // Read-only: the header says so, no drawing tool is offered, nor Share, nor a key's tool.
    assert.equal(await vic.getByTestId('who').textContent(), 'vic · viewer');
    assert.equal(await vic.getByTestId('tool-rect').isVisible(), false);
    assert.equal(await vic.getByTestId('tool-pen').isVisible(), false);
    assert.ok(await vic.getByTestId('tool-select').isVisible());
    assert.equal(await vic.getByTestId('share').isVisible(), false);
    await vic.getByTestId('canvas').focus();
    await vic.keyboard.press('r');
    await dragBoard(vic, { x: 600, y: 0 }, { x: 760, y: 100 });
    assert.equal(await vic.getByTestId('canvas').getAttribute('data-tool'), 'select');
    // An edit still tried (the person's shape selected and deleted) is refused.
    await clickBoard(vic, { x: 380, y: 50 });
    await until(async () => (await vic.evaluate(() => window.inkboard.selection())).includes(drawn), {
      what: 'the shape selected',
    });
    await vic.keyboard.press('Delete');
    const note = vic.getByTestId('status-note');
    await until(async () => /editor role/.test(await note.textContent()), { what: 'the role message' });
    // Nor may a viewer share: the route answers with the role it needs.
    const answer = await vic.evaluate(async (b) => {
      const res = await fetch(`/b/${b}/share`, {
        method: 'POST', headers: { Accept: 'application/json' }, body: new URLSearchParams({ name: 'vic', role: 'owner' }),
      });
      return [res.status, (await res.json()).error];
    }, board);
    assert.equal(answer[0], 403);
    assert.match(answer[1], /owner role/);
    assert.equal((await agent.call('read_board', { board })).page.objects.length, count, 'nothing written');
    assert.deepEqual((await drawnIds(vic)).sort(), shown.sort(), 'nothing drawn');
    // Ctrl+Z is refused too: the board is as it was, to the revision.
    const before = await agent.call('read_board', { board });
    await vic.keyboard.press('Control+z');
    await new Promise((r) => setTimeout(r, 500));
    const after = await agent.call('read_board', { board });
    assert.equal(typeof before.revision, 'number');
    assert.equal(after.revision, before.revision, 'no revision from the viewer\'s undo');
    assert.deepEqual(after.page.objects.map((o) => o.id), before.page.objects.map((o) => o.id));
    // The viewer still follows the board live.
    const more = await agent.call('add_shape', { board, x: 0, y: 400, w: 100, h: 50, text: 'Later' });
    await until(async () => (await drawnIds(vic)).includes(more.id), { what: 'the agent\'s shape at the viewer' });
  });

  it('a stranger\'s /b/BOARD is the same 404 as a board that does not exist', async () => {
    admin(dir, 'add-user', 'sam');
    const context = await newContext(browser);
    const sam = await signedIn(context, server, admin(dir, 'link', 'sam'));
    const hidden = await sam.goto(`${server.url}/b/${board}`);
    const hiddenBody = await sam.content();
    const missing = await sam.goto(`${server.url}/b/nosuchboard0000`);
    assert.equal(hidden.status(), 404);
    assert.equal(missing.status(), 404);
    assert.equal(hiddenBody, await sam.content());
    // Nor does the board's socket open for them.
    const ws = await sam.evaluate((b) => new Promise((resolve) => {
      const socket = new WebSocket(`ws://${location.host}/b/${b}/ws`, ['inkboard']);
      socket.onopen = () => resolve('open');
      socket.onerror = () => resolve('refused');
    }), board);
    assert.equal(ws, 'refused');
  });
});
