// Server mode (`inkboard serve`) driven by the official TypeScript SDK's v2 client
// over streamable HTTP with bearer tokens, in both protocol eras, every result
// checked by the SDK against the tool's output schema:
// - roles: list_boards, create_board, a batch with a `$N.key` reference, a
//   viewer's refused writes (which name the role they need), export's bytes;
// - not found: a stranger is answered for someone else's board exactly as for a
//   board that does not exist, by every kind of tool, never "forbidden";
// - hostile requests: no token, a wrong and a revoked token (401 with
//   `WWW-Authenticate: Bearer`), another site's Origin, a rebound Host name,
//   board ids made to break out (paths, markup, SQL, very long), file-only
//   arguments, tools local mode has and a server has not;
// - two `serve` processes on one PostgreSQL database (a throwaway cluster,
//   ../pg-cluster): one process sees the other's writes, writers on both at once
//   all land on one line of revisions, a viewer is refused on either.

import assert from 'node:assert/strict';
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import { BIN, removeDir, tempDir, TIMEOUT } from './lib.mjs';

const PG_CLUSTER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../pg-cluster');

/**
 * `inkboard serve` on `place` (`['--data', DIR]` or `['--database', URL]`);
 * resolves once it printed its address.
 */
async function startServer(place) {
  const child = spawn(BIN, ['serve', ...place, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

/** `inkboard admin PLACE ARGS…`: its last line (a token, a link, a list's last row). */
const adminOf = (place) => (...args) =>
  execFileSync(BIN, ['admin', ...place, ...args], { encoding: 'utf8' }).trim().split('\n').pop();

async function connect(server, token, era) {
  const mode = era === '2025-11-25' ? 'legacy' : { pin: era };
  const client = new Client({ name: 'inkboard-sdk-tests', version: '0' }, { versionNegotiation: { mode } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  }));
  return client;
}

const text = (result) => result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/**
 * A raw POST to /mcp (an `initialize`, unless `body` says otherwise), with
 * `headers` as given (node:http, so Host and Origin are sent as written):
 * {status, headers, body}.
 */
function rawPost(server, headers, body = INITIALIZE) {
  const target = new URL(`${server.url}/mcp`);
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: target.hostname, port: target.port, path: target.pathname, method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { body += d; });
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Ann's board with three objects, made through `client`; answers its id. */
async function madeBoard(client, title) {
  const made = await client.callTool({ name: 'create_board', arguments: { title } });
  assert.ok(!made.isError, text(made));
  const board = made.structuredContent.board;
  const done = await client.callTool({ name: 'batch', arguments: { board, operations: [
    { tool: 'add_shape', args: { text: 'A' } },
    { tool: 'add_shape', args: { text: 'B' } },
    { tool: 'add_connector', args: { from: '$0.id', to: '$1.id' } },
  ] } });
  assert.ok(!done.isError, text(done));
  assert.equal(done.structuredContent.applied, 3);
  return board;
}

/** A tool error's text; fails unless the call was answered as a tool error. */
async function refused(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should fail: ${text(result)}`);
  return text(result);
}

for (const era of ['2025-11-25', '2026-07-28']) {
  test(`server mode through @modelcontextprotocol/client v2 (${era}): roles, not found, hostile requests`, { timeout: TIMEOUT }, async () => {
    const dir = tempDir();
    const place = ['--data', dir];
    const admin = adminOf(place);
    const server = await startServer(place);
    const clients = [];
    try {
      for (const name of ['ann', 'bob', 'cid']) admin('add-user', name);
      const ann = await connect(server, admin('token', 'ann'), era);
      const bob = await connect(server, admin('token', 'bob'), era);
      const cid = await connect(server, admin('token', 'cid'), era);
      clients.push(ann, bob, cid);

      const tools = (await ann.listTools()).tools;
      assert.ok(tools.some((t) => t.name === 'list_boards'));
      assert.ok(!tools.some((t) => t.name === 'save_board'), 'no save_board on a server');
      for (const t of tools) {
        for (const fileOnly of ['path', 'overwrite', 'output', 'as']) {
          assert.ok(!(fileOnly in (t.inputSchema.properties ?? {})), `${t.name} takes ${fileOnly} on a server`);
        }
      }

      const board = await madeBoard(ann, 'Team plan');
      const listed = await ann.callTool({ name: 'list_boards', arguments: {} });
      assert.deepEqual(listed.structuredContent.boards.map((b) => [b.board, b.role, b.revision]), [[board, 'owner', 1]]);

      // A viewer reads; every kind of write names the role it needs, and nothing is written.
      admin('share', board, 'bob', 'viewer');
      const read = await bob.callTool({ name: 'read_board', arguments: { board } });
      assert.ok(!read.isError, text(read));
      assert.equal(read.structuredContent.page.objects.length, 3);
      const [a] = read.structuredContent.page.objects.map((o) => o.id);
      for (const [name, args] of [
        ['add_shape', { board, text: 'no' }],
        ['update', { board, id: a, text: 'changed' }],
        ['delete', { board, ids: [a] }],
        ['batch', { board, operations: [{ tool: 'add_shape', args: { text: 'no' } }] }],
        ['rename_board', { board, title: 'Mine now' }],
        ['add_page', { board, name: 'Two' }],
      ]) {
        assert.match(await refused(bob, name, args), /needs the editor role on this board/, name);
      }
      const after = await bob.callTool({ name: 'read_board', arguments: { board } });
      assert.equal(after.structuredContent.revision, 1, 'the viewer wrote nothing');
      assert.equal(after.structuredContent.page.objects.length, 3);

      // A stranger: someone else's board is answered as a missing one, by every
      // kind of tool, and never says it exists.
      const ID = (s, id) => s.replaceAll(id, 'ID');
      for (const [name, args] of [
        ['read_board', {}],
        ['add_shape', { text: 'x' }],
        ['batch', { operations: [{ tool: 'add_shape', args: {} }] }],
        ['board_changes', {}],
        ['export', { format: 'svg' }],
        ['rename_board', { title: 'Mine now' }],
      ]) {
        const hidden = await refused(cid, name, { board, ...args });
        const missing = await refused(cid, name, { board: 'nosuchboard0000', ...args });
        assert.match(hidden, /not found/, name);
        assert.doesNotMatch(hidden, /role|forbidden|permission/i, name);
        assert.equal(ID(hidden, board), ID(missing, 'nosuchboard0000'), name);
      }
      assert.deepEqual((await cid.callTool({ name: 'list_boards', arguments: {} })).structuredContent.boards, []);

      // Board ids made to break out are only ever not found, echoed at most in part.
      for (const hostile of ['../../etc/passwd', '<script>alert(1)</script>', "x' OR '1'='1", `${board}'; DROP TABLE boards; --`, 'b'.repeat(10_000), '%00', ' ']) {
        const said = await refused(cid, 'read_board', { board: hostile });
        assert.match(said, /not found|'board' is required/, hostile.slice(0, 40));
        assert.ok(said.length < 1000, `the answer echoes at most a little: ${said.length} bytes`);
      }
      // What a server has no use for: a file path, a file-only tool.
      assert.match(await refused(ann, 'read_board', { board, path: '/etc/passwd' }), /takes no argument 'path'/);
      assert.match(await refused(ann, 'export', { board, format: 'svg', output: '/tmp/x.svg' }), /takes no argument 'output'/);
      await assert.rejects(ann.callTool({ name: 'save_board', arguments: { board } }), /save_board/);
      // The board came through it all untouched, and its owner still writes.
      const owner = await ann.callTool({ name: 'read_board', arguments: { board } });
      assert.equal(owner.structuredContent.revision, 1);
      const exported = await ann.callTool({ name: 'export', arguments: { board, format: 'svg' } });
      assert.ok(!exported.isError, text(exported));
      const blob = exported.content.find((c) => c.type === 'resource');
      assert.equal(blob.resource.mimeType, 'image/svg+xml');
      assert.match(Buffer.from(blob.resource.blob, 'base64').toString('utf8'), /<svg/);

      // No token, a wrong one: the SDK cannot connect, and the answer is 401
      // with the challenge MCP clients look for.
      await assert.rejects(connect(server, '', era));
      await assert.rejects(connect(server, 'ink_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', era));
      for (const headers of [{}, { Authorization: 'Bearer ink_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }, { Authorization: 'Basic YW5uOmFubg==' }]) {
        const answer = await rawPost(server, headers);
        assert.equal(answer.status, 401, JSON.stringify(headers));
        assert.match(answer.headers['www-authenticate'] ?? '', /^Bearer/);
      }
      // A valid token from another site's page, or under a rebound host name.
      const cidToken = admin('token', 'cid');
      const bearer = { Authorization: `Bearer ${cidToken}` };
      assert.equal((await rawPost(server, { ...bearer, Origin: 'https://evil.example' })).status, 403);
      const port = new URL(server.url).port;
      assert.equal((await rawPost(server, { ...bearer, Host: `rebound.example:${port}` })).status, 421);
      assert.equal((await rawPost(server, bearer)).status, 200, 'the same token, asked properly');
      // Broken and deeply nested JSON from a signed-in agent: refused, and the server goes on.
      for (const body of ['{', '[]', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}']) {
        const answer = await rawPost(server, bearer, body);
        assert.ok(answer.status >= 400 && answer.status < 500, `${body.slice(0, 20)}: ${answer.status}`);
      }
      const alive = await ann.callTool({ name: 'list_boards', arguments: {} });
      assert.equal(alive.structuredContent.boards.length, 1);

      // A revoked token stops working at once, for a session already open too.
      const rows = execFileSync(BIN, ['admin', ...place, 'tokens', 'cid'], { encoding: 'utf8' }).trim().split('\n');
      for (const row of rows) admin('revoke-token', row.split('\t')[0]);
      await assert.rejects(cid.callTool({ name: 'list_boards', arguments: {} }));
      await assert.rejects(connect(server, cidToken, era));
    } finally {
      for (const c of clients) await c.close().catch(() => {});
      server.stop();
      removeDir(dir);
    }
  });
}

test('two serve processes on one PostgreSQL database, through @modelcontextprotocol/client v2', { timeout: TIMEOUT }, async (t) => {
  const cluster = spawnSync(PG_CLUSTER, [String(process.pid), 'sdk_two'], { encoding: 'utf8' });
  if (cluster.status === 3 && process.env.CI !== 'true') {
    t.skip(`PostgreSQL is not installed: ${cluster.stderr.trim()}`);
    return;
  }
  assert.equal(cluster.status, 0, cluster.stderr);
  const place = ['--database', cluster.stdout.trim()];
  const admin = adminOf(place);
  const era = '2026-07-28';
  const servers = [await startServer(place), await startServer(place)];
  const clients = [];
  try {
    assert.notEqual(servers[0].url, servers[1].url);
    for (const name of ['ann', 'bob']) admin('add-user', name);
    const annToken = admin('token', 'ann');
    const bobToken = admin('token', 'bob');
    const ann1 = await connect(servers[0], annToken, era);
    const ann2 = await connect(servers[1], annToken, era);
    const bob2 = await connect(servers[1], bobToken, era);
    clients.push(ann1, ann2, bob2);

    // Made on the first process, seen whole on the second.
    const board = await madeBoard(ann1, 'Shared');
    const seen = await ann2.callTool({ name: 'read_board', arguments: { board } });
    assert.ok(!seen.isError, text(seen));
    assert.equal(seen.structuredContent.revision, 1);
    assert.equal(seen.structuredContent.page.objects.length, 3);

    // Writers on both processes at once: every call lands, on one line of revisions.
    const CALLS = 6;
    const writes = [];
    for (let i = 0; i < CALLS; i++) {
      for (const [p, client] of [[1, ann1], [2, ann2]]) {
        writes.push(client.callTool({ name: 'add_shape', arguments: { board, text: `${p}.${i}` } }));
      }
    }
    const results = await Promise.all(writes);
    for (const r of results) assert.ok(!r.isError, text(r));
    const made = new Set(results.map((r) => r.structuredContent.id));
    assert.equal(made.size, 2 * CALLS, 'ids are never handed out twice across processes');
    for (const client of [ann1, ann2]) {
      const r = await client.callTool({ name: 'read_board', arguments: { board } });
      assert.equal(r.structuredContent.revision, 1 + 2 * CALLS);
      assert.equal(r.structuredContent.page.objects.length, 3 + 2 * CALLS);
    }
    const changes = await ann2.callTool({ name: 'board_changes', arguments: { board, since: 0 } });
    assert.ok(changes.structuredContent.changes.every((c) => c.by === "ann's agent"), JSON.stringify(changes.structuredContent));

    // Roles and not found hold on the process that did not make the board.
    assert.match(await refused(bob2, 'read_board', { board }), /not found/);
    admin('share', board, 'bob', 'viewer');
    const read = await bob2.callTool({ name: 'read_board', arguments: { board } });
    assert.ok(!read.isError, text(read));
    assert.match(await refused(bob2, 'add_shape', { board, text: 'no' }), /needs the editor role on this board/);
    admin('share', board, 'bob', 'editor');
    const wrote = await bob2.callTool({ name: 'add_shape', arguments: { board, text: "bob's" } });
    assert.ok(!wrote.isError, text(wrote));
    const last = await ann1.callTool({ name: 'board_changes', arguments: { board, since: 1 + 2 * CALLS } });
    assert.deepEqual(last.structuredContent.changes.map((c) => c.by), ["bob's agent"]);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    for (const s of servers) s.stop();
  }
});
