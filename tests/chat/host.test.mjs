// host.test.mjs: inkboard's chat view in a test host (lib.mjs). A batch's result
// is drawn in the chat view by inkboard's renderer; a shape dragged in the chat view with real
// mouse events is moved in the file, `board_changes` says the person did it, and the
// host hears it in the model's context. A client without MCP Apps gets the tools as
// before. The chat view loads nothing from anywhere.

import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import {
  EXTENSION, MIME, VIEW_URI, call, connect, flowOperations, openHost, removeDir, tempDir, until,
} from './lib.mjs';

const TIMEOUT = 120000;
const LINKED = ['batch', 'render', 'import_mermaid', 'layout', 'create_board', 'read_board'];
const APP_ONLY = ['view_board', 'view_edit', 'view_history'];

function saved(file) {
  return JSON.parse(readFileSync(file, 'utf8')).pages[0].objects;
}

test('a host that shows MCP Apps gets the chat view: linked tools, app-only tools, the resource', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ dir });
  try {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of LINKED) {
      assert.equal(byName.get(name)?._meta?.ui?.resourceUri, VIEW_URI, name);
      assert.equal(byName.get(name)._meta['ui/resourceUri'], VIEW_URI, name);
      assert.equal(byName.get(name)._meta.ui.visibility, undefined, `${name} stays the model's`);
    }
    for (const name of APP_ONLY) assert.deepEqual(byName.get(name)?._meta?.ui?.visibility, ['app'], name);
    assert.equal(byName.get('add_shape')._meta, undefined);
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => [r.uri, r.mimeType]), [[VIEW_URI, MIME]]);
    const read = await client.readResource({ uri: VIEW_URI });
    const view = read.contents[0];
    assert.equal(view.mimeType, MIME);
    assert.match(view.text, /^<!doctype html>/);
    assert.deepEqual(view._meta.ui.csp, { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] });
  } finally {
    await client.close();
    removeDir(dir);
  }
});

test('a client without MCP Apps gets the tools as before, and batch works', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ apps: false, dir });
  try {
    const { tools } = await client.listTools();
    assert.ok(tools.every((t) => t._meta === undefined), 'no _meta on any tool');
    assert.ok(!tools.some((t) => APP_ONLY.includes(t.name)), 'no app-only tool');
    assert.deepEqual((await client.listResources()).resources, []);
    const file = path.join(dir, 'plain.inkboard');
    await call(client, 'create_board', { path: file });
    const r = await call(client, 'batch', { path: file, operations: [{ tool: 'add_shape', args: { text: 'Hi' } }] });
    assert.equal(r.structuredContent.applied, 1);
    assert.equal(r._meta, undefined, 'no _meta on the result');
    assert.equal(saved(file).length, 1);
  } finally {
    await client.close();
    removeDir(dir);
  }
});

test('the chat view draws a batch, a drag in it moves the shape in the file as the person, and the model hears it', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ dir });
  const host = await openHost(client);
  try {
    const file = path.join(dir, 'plan.inkboard');
    await call(client, 'create_board', { path: file, title: 'Plan' });
    const input = {
      path: file,
      operations: [
        { tool: 'add_shape', args: { text: 'Backend', geom: 'frame', x: 0, y: 0, w: 600, h: 300 } },
        { tool: 'add_shape', args: { text: 'API', x: 40, y: 80 } },
        { tool: 'add_shape', args: { text: '<img src=x onerror=alert(1)>', x: 300, y: 80 } },
        { tool: 'add_connector', args: { from: '$1.id', to: '$2.id' } },
      ],
    };
    const result = await call(client, 'batch', input);
    assert.ok(Number.isInteger(result._meta?.['inkboard/revision']), 'the result names its revision');
    const ids = result.structuredContent.results.map((r) => r.id);
    await host.show(input, result);

    // Drawn by the renderer: each object's <g id> in the chat view's SVG layer.
    const view = host.frame;
    for (const id of ids) await view.locator(`[data-testid="objects"] g[id="${id}"]`).waitFor({ timeout: 15000 });
    assert.equal(await view.locator('[data-testid="board-title"]').textContent(), 'Plan');
    // Board text is data: the markup in a shape's text is drawn as text, nothing runs.
    const texts = await view.locator(`g[id="${ids[2]}"] text`).allTextContents();
    assert.match(texts.join(''), /<img src=x/);
    assert.equal(await view.locator('img').count(), 0);
    // Board text draws in inkboard's own Inter (the page's FontFace, cut to Latin),
    // not the host's fallback: the faces loaded under the policy that lets no font
    // be fetched, and without them the label "Backend" would be another width.
    const faces = await host.inChat(async (id) => {
      await document.fonts.ready;
      const loaded = [...document.fonts].filter((f) => f.status === 'loaded').map((f) => `${f.family} ${f.weight}`);
      const text = document.querySelector(`g[id="${id}"] text`);
      const ours = text.getComputedTextLength();
      const own = [...document.fonts];
      own.forEach((f) => document.fonts.delete(f));
      const fallback = text.getComputedTextLength();
      own.forEach((f) => document.fonts.add(f));
      return { loaded, ours, fallback, family: getComputedStyle(text).fontFamily };
    }, ids[0]);
    assert.deepEqual(faces.loaded.sort(), ['Inter 400', 'Inter 600']);
    assert.match(faces.family, /^"?Inter"?$/);
    assert.ok(Math.abs(faces.ours - faces.fallback) > 1, `drawn in our face: ${faces.ours} px, the host's ${faces.fallback} px`);
    // The agent's changes are marked, as in the editor.
    assert.ok(await view.locator('.agent-flash').count() >= 1, 'agent changes are marked');

    // Drag "API" 120 px right and 60 px down with the mouse.
    const before = saved(file).find((o) => o.id === ids[1]);
    const box = await view.locator(`g[id="${ids[1]}"]`).boundingBox();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await host.page.mouse.move(x, y);
    await host.page.mouse.down();
    for (let i = 1; i <= 8; i++) await host.page.mouse.move(x + 15 * i, y + 7.5 * i);
    await host.page.mouse.up();
    await until(() => {
      const o = saved(file).find((s) => s.id === ids[1]);
      return o.x !== before.x;
    }, { what: 'the move to reach the file' });
    const after = saved(file).find((o) => o.id === ids[1]);
    const zoom = (await host.inChat(() => window.inkboard.view())).zoom;
    assert.ok(Math.abs(after.x - before.x - 120 / zoom) <= 12 / zoom, `moved right: ${before.x} → ${after.x} at zoom ${zoom}`);
    assert.ok(Math.abs(after.y - before.y - 60 / zoom) <= 12 / zoom, `moved down: ${before.y} → ${after.y}`);
    assert.ok(host.calls.includes('view_edit'), `the chat view called ${host.calls}`);
    // While it moved, the connector's new route was drawn from dry runs on the server.
    assert.ok(host.calls.includes('view_preview'), `the chat view called ${host.calls}`);

    // board_changes: the move is the person's.
    const changes = (await call(client, 'board_changes', { path: file, since: result._meta['inkboard/revision'] })).structuredContent;
    const moved = changes.changes.filter((c) => c.id === ids[1]);
    assert.ok(moved.length >= 1, JSON.stringify(changes));
    assert.ok(moved.every((c) => c.by === 'user'), JSON.stringify(moved));

    // Select the frame too (Shift+click its title), then the model's context says it all.
    const frameBox = await view.locator(`g[id="${ids[0]}"]`).boundingBox();
    await host.page.keyboard.down('Shift');
    await host.page.mouse.click(frameBox.x + 20, frameBox.y + 10);
    await host.page.keyboard.up('Shift');
    const context = await until(async () => {
      const all = await host.contexts();
      const last = all[all.length - 1];
      return last && /selected/.test(last.content?.[0]?.text ?? '') && /Backend/.test(last.content[0].text) ? last : null;
    }, { what: 'a model-context update naming the selection' });
    const text = context.content[0].text;
    assert.match(text, new RegExp(`moved ${ids[1]}`));
    assert.match(text, /the frame 'Backend'/);
    assert.equal(context.structuredContent.board, file);

    // Undo in the chat view puts it back, as the person.
    await view.locator('[data-testid="undo"]').click();
    await until(() => saved(file).find((s) => s.id === ids[1]).x === before.x, { what: 'the undo to reach the file' });

    assert.deepEqual(host.outside, [], 'nothing is loaded from outside');
    assert.deepEqual(host.errors.filter((e) => !/favicon/.test(e)), []);
  } finally {
    await host.close();
    await client.close();
    removeDir(dir);
  }
});

test('a view of a board changed since its revision shows the new one and says so; full screen is asked of the host', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ dir });
  const host = await openHost(client);
  try {
    const file = path.join(dir, 'moved.inkboard');
    await call(client, 'create_board', { path: file });
    const input = { path: file, operations: [{ tool: 'add_shape', args: { text: 'One' } }] };
    const first = await call(client, 'batch', input);
    await call(client, 'add_shape', { path: file, text: 'Two', x: 400 });
    await host.show(input, first);
    const notice = host.frame.locator('[data-testid="notice"]');
    await notice.waitFor({ state: 'visible' });
    assert.match(await notice.textContent(), new RegExp(`revision ${first._meta['inkboard/revision']}.*revision ${first._meta['inkboard/revision'] + 1}`));
    await host.frame.locator('g[id="s2"]').waitFor();

    await host.frame.locator('[data-testid="fullscreen"]').click();
    await until(async () => (await host.host()).modes.includes('fullscreen'), { what: 'a full-screen request' });
  } finally {
    await host.close();
    await client.close();
    removeDir(dir);
  }
});

test('text is edited in place, Delete deletes, and export goes through the host or beside the board', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ dir });
  const withDownloads = await openHost(client, { capabilities: { serverTools: {}, updateModelContext: { text: {} }, downloadFile: {} } });
  let plain;
  try {
    const file = path.join(dir, 'words.inkboard');
    await call(client, 'create_board', { path: file });
    const input = { path: file, operations: [
      { tool: 'add_shape', args: { text: 'First', x: 0, y: 0, w: 160, h: 80 } },
      { tool: 'add_shape', args: { text: 'Second', x: 300, y: 0, w: 160, h: 80 } },
    ] };
    const result = await call(client, 'batch', input);
    const host = withDownloads;
    await host.show(input, result);
    const first = host.frame.locator('g[id="s1"]');
    await first.waitFor();
    const box = await first.boundingBox();
    await host.page.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
    const editor = host.frame.locator('[data-testid="text-editor"]');
    await editor.waitFor();
    assert.equal(await editor.inputValue(), 'First');
    await host.page.keyboard.press('Control+A');
    await host.page.keyboard.type('Edited in the chat');
    await host.page.keyboard.press('Escape');
    await until(() => saved(file).find((o) => o.id === 's1').text === 'Edited in the chat', { what: 'the text in the file' });
    await until(async () => /Edited in the chat/.test(await first.textContent()), { what: 'the new text drawn' });

    const second = await host.frame.locator('g[id="s2"]').boundingBox();
    await host.page.mouse.click(second.x + second.width / 2, second.y + second.height / 2);
    await until(async () => (await host.inChat(() => window.inkboard.selection())).join() === 's2', { what: 's2 selected' });
    await host.page.keyboard.press('Delete');
    await until(() => !saved(file).some((o) => o.id === 's2'), { what: 's2 gone from the file' });

    // The host offers downloads: the page's PNG is handed to it.
    await host.frame.locator('[data-testid="export"]').click();
    const download = await until(async () => (await host.host()).downloads[0], { what: 'a download request' });
    const resource = download.contents[0].resource;
    assert.equal(resource.mimeType, 'image/png');
    assert.match(resource.uri, /words-page1\.png$/);
    assert.equal(Buffer.from(resource.blob, 'base64').subarray(1, 4).toString(), 'PNG');

    // A host without downloads: `export` writes beside the board, and the chat view says where.
    plain = await openHost(client);
    await plain.show(input, result);
    await plain.frame.locator('g[id="s1"]').waitFor();
    await plain.frame.locator('[data-testid="export"]').click();
    const beside = path.join(dir, 'words-page1.png');
    await until(() => existsSync(beside), { what: 'the PNG beside the board' });
    await until(async () => (await plain.frame.locator('[data-testid="notice"]').textContent()).includes(beside), { what: 'the chat view to say where' });
  } finally {
    await plain?.close();
    await withDownloads.close();
    await client.close();
    removeDir(dir);
  }
});

test('a flow of 199 objects is drawn whole', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  const client = await connect({ dir });
  const host = await openHost(client);
  try {
    const file = path.join(dir, 'flow.inkboard');
    await call(client, 'create_board', { path: file });
    const input = { path: file, operations: flowOperations(100) };
    const result = await call(client, 'batch', input);
    await host.show(input, result);
    const timings = await host.inChat(() => window.inkboard.drawn());
    assert.equal(timings.objects, 199);
    assert.equal(Object.keys(await host.inChat(() => window.inkboard.objects())).length, 199);
  } finally {
    await host.close();
    await client.close();
    removeDir(dir);
  }
});

test('the extension is named as the specification names it', () => {
  assert.equal(EXTENSION, 'io.modelcontextprotocol/ui');
});
