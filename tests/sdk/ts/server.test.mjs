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
async function startServer(place, listen = '127.0.0.1:0') {
  const child = spawn(BIN, ['serve', ...place, '--listen', listen], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    exited.then((how) => reject(new Error(`serve exited (${how}) before printing its address`)));
  });
  return {
    url,
    stop: () => child.kill('SIGTERM'),
    /** SIGKILL: the process ends wherever it is; resolves once it is gone. */
    kill: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
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

/** Waits until `ready()` holds (polled every 10 ms), failing after `ms`. */
async function until(ready, ms, what) {
  const deadline = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How long a call cut off by a kill may take to fail: longer is a hang. */
const CLEAN_FAILURE_MS = 10_000;

/**
 * Known, and reported as a TODO: in the 2025-11-25 era a kill -9 in the middle of
 * an answer's SSE stream makes @modelcontextprotocol/client 2.4.0 try to resume
 * the stream (GET with Last-Event-ID, twice, 3 s apart), give up without
 * rejecting the call, and leave it waiting for its request timeout (60 s,
 * "Request timed out"). Taking out the stream's priming event (`id: 0/0`,
 * `retry: 3000`) did not change it (tried 2026-12-06: 5 of 6 runs still
 * waited). A call the kill catches between requests fails at once ("fetch
 * failed"), as every call does in the 2026-07-28 era, and in Python's SDK.
 */
const LEGACY_HANG = 'a call cut off mid-answer waits 60 s in the 2025-11-25 era (TypeScript SDK 2.4.0)';

/**
 * `promise`, or a rejection naming a hang once `ms` passed (the SDK's own request
 * timeout is a minute: a client left waiting for a dead server must not get there).
 */
function withDeadline(promise, ms, what) {
  let timer;
  const hang = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`HANG: ${what} neither answered nor failed within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer));
}

/**
 * One writer: `client` (as `who`) sends batches of three add_shape to `board`,
 * texts `TAG.I.K`, one after the other, until `stop()` or a call fails.
 * `log.acked` gets every acknowledged batch ({i, ids}); `log.failure` the error
 * of the call that failed (its batch `log.cut` was in flight: it may or may not
 * have landed, but whole or not at all); `log.done` settles when it ends.
 */
function writer(client, board, who, tag, stop) {
  const log = { who, tag, acked: [], failure: null, cut: null };
  log.done = (async () => {
    for (let i = 0; !stop(); i++) {
      const operations = [0, 1, 2].map((k) => ({ tool: 'add_shape', args: { text: `${tag}.${i}.${k}` } }));
      let result;
      try {
        result = await withDeadline(client.callTool({ name: 'batch', arguments: { board, operations } }), CLEAN_FAILURE_MS, `${tag}'s batch ${i}`);
      } catch (e) {
        log.failure = e;
        log.cut = i;
        return;
      }
      assert.ok(!result.isError, `${tag}.${i}: ${text(result)}`);
      assert.equal(result.structuredContent.applied, 3);
      log.acked.push({ i, ids: result.structuredContent.results.map((r) => r.id) });
    }
  })();
  return log;
}

/**
 * Holds `board` (as `reader` answers it) to the writers' `logs`: every
 * acknowledged batch is there, whole, under its text and its author; a batch cut
 * off by the kill is there whole or not at all; nothing else was written; and the
 * revisions after `since` (the board's revision before the writers began) run
 * one by one, one per batch that landed, without a gap (on a `fresh` process,
 * from its snapshot on: before, the count of revisions). Answers the revision.
 */
async function holdsEveryAcknowledgedWrite(reader, board, since, logs, { fresh = false } = {}) {
  const read = await reader.callTool({ name: 'read_board', arguments: { board } });
  assert.ok(!read.isError, text(read));
  const objects = read.structuredContent.page.objects;
  const byId = new Map(objects.map((o) => [o.id, o]));
  assert.equal(byId.size, objects.length, 'no id is on the board twice');
  // A process that has just started (`fresh`) loaded the board from its latest
  // snapshot (one every 100 revisions): its history starts there, and it says so.
  let from = since;
  let changes = await reader.callTool({ name: 'board_changes', arguments: { board, since } });
  const older = /older than what this server has seen of the board \(revision (\d+)\)/.exec(text(changes));
  if (changes.isError && older && fresh) {
    from = Number(older[1]);
    changes = await reader.callTool({ name: 'board_changes', arguments: { board, since: from } });
  }
  assert.ok(!changes.isError, text(changes));
  const changed = new Map(changes.structuredContent.changes.map((c) => [c.id, c]));
  let landed = 0;
  let acknowledged = 0;
  for (const log of logs) {
    for (const { i, ids } of log.acked) {
      acknowledged += 1;
      ids.forEach((id, k) => {
        assert.ok(byId.has(id), `acknowledged write lost: ${log.tag}.${i}.${k} (${id}) is not on the board`);
        assert.equal(byId.get(id).text, `${log.tag}.${i}.${k}`, id);
        if (from === since || changed.has(id)) assert.equal(changed.get(id)?.by, `${log.who}'s agent`, `board_changes records who wrote ${id}`);
      });
      landed += 1;
    }
    if (log.cut !== null) {
      const cut = objects.filter((o) => o.text?.startsWith(`${log.tag}.${log.cut}.`)).length;
      assert.ok(cut === 0 || cut === 3, `${log.tag}'s batch cut by the kill landed whole or not at all: ${cut} of 3`);
      if (cut === 3) landed += 1;
    }
  }
  assert.ok(acknowledged > 0, 'some batches were acknowledged');
  const revision = read.structuredContent.revision;
  assert.equal(changes.structuredContent.revision, revision);
  assert.equal(objects.length, 3 + 3 * landed, 'nothing but the writers\' batches was written');
  assert.equal(revision, since + landed, 'one revision per batch that landed');
  const revisions = [...new Set(changes.structuredContent.changes.map((c) => c.revision))];
  assert.deepEqual(revisions, Array.from({ length: revision - from }, (_, n) => from + 1 + n), 'the revisions run without a gap');
  return revision;
}

/**
 * `kill -9` of a serve process while SDK clients (each with its own token)
 * write batches through it and, with PostgreSQL, through a second process that
 * lives on: the clients of the killed process fail at once (no hang), nothing
 * acknowledged is lost (read through the survivor, or through the restarted
 * process on SQLite), the revisions have no gap; then the killed process starts
 * again on the same database and port and a new client writes through it.
 */
async function killedMidWrite(t, place, era, two) {
  const admin = adminOf(place);
  const people = two ? ['ann', 'bob', 'cid', 'dee'] : ['ann', 'bob', 'cid'];
  const tokens = {};
  for (const who of people) {
    admin('add-user', who);
    tokens[who] = admin('token', who);
  }
  // On PostgreSQL, servers[0] lives on and servers[1] is killed; on SQLite the one process is.
  const servers = two ? [await startServer(place), await startServer(place)] : [await startServer(place)];
  const victim = servers.length - 1;
  const clients = [];
  const client = async (server, who) => {
    const c = await connect(server, tokens[who], era);
    clients.push(c);
    await c.listTools();
    return c;
  };
  try {
    const owner = await client(servers[0], 'ann');
    const board = await madeBoard(owner, 'Crash');
    for (const who of people.slice(1)) admin('share', board, who, 'editor');
    const since = 1;

    // Who writes where: on PostgreSQL ann and dee on the survivor, bob and cid on
    // the process to be killed; on SQLite all three on the one process.
    const plan = two ? [['ann', 0], ['bob', 1], ['cid', 1], ['dee', 0]] : [['ann', 0], ['bob', 0], ['cid', 0]];
    const connected = [];
    for (const [who, at] of plan) connected.push([who, at, await client(servers[at], who)]);
    let stopSurvivors = false;
    const logs = connected.map(([who, at, c], n) =>
      Object.assign(writer(c, board, who, `w${n}`, () => at !== victim && stopSurvivors), { at, client: c }));
    const onVictim = logs.filter((l) => l.at === victim);
    const survivors = logs.filter((l) => l.at !== victim);

    // In the middle of the writes: every writer has had a few batches acknowledged.
    await until(() => logs.every((l) => l.acked.length >= 3 || l.failure), 60_000, 'the writers to get going');
    for (const l of logs) assert.equal(l.failure, null, `${l.tag} failed before the kill: ${l.failure}`);
    const killedAt = Date.now();
    await servers[victim].kill();

    // The killed process's clients: the call in flight fails, at once, with an
    // error, and so does the next one. (A hung call gives up after CLEAN_FAILURE_MS
    // here, so the rest of the case runs either way.)
    await Promise.all(onVictim.map((l) => l.done));
    for (const l of onVictim) {
      assert.ok(l.failure instanceof Error, `${l.tag} was cut off`);
      assert.ok(l.acked.length >= 3);
    }
    await t.test('the killed process\'s clients get an error at once, not a hang', { todo: era === '2025-11-25' && LEGACY_HANG }, async () => {
      for (const l of onVictim) {
        assert.doesNotMatch(l.failure.message, /HANG/, `${l.tag}: ${l.failure.message}`);
      }
      for (const l of onVictim) {
        await assert.rejects(withDeadline(l.client.callTool({ name: 'list_boards', arguments: {} }), CLEAN_FAILURE_MS, 'a call to a dead server'),
          (e) => !/HANG/.test(e.message), `${l.tag}'s next call fails cleanly`);
      }
    });

    // The survivor's writers go on through it all.
    const before = survivors.map((l) => l.acked.length);
    await until(() => survivors.every((l, n) => l.acked.length >= before[n] + 3 || l.failure), 60_000, 'the survivors to write on');
    stopSurvivors = true;
    await Promise.all(survivors.map((l) => l.done));
    for (const l of survivors) assert.equal(l.failure, null, `${l.tag} on the surviving process: ${l.failure}`);

    let revision;
    if (two) revision = await holdsEveryAcknowledgedWrite(owner, board, since, logs);

    // The killed process again, on the same database and the same port.
    const port = new URL(servers[victim].url).port;
    servers[victim] = await startServer(place, `127.0.0.1:${port}`);
    assert.equal(new URL(servers[victim].url).port, port);
    const fresh = await client(servers[victim], 'bob');
    const seen = await holdsEveryAcknowledgedWrite(fresh, board, since, logs, { fresh: true });
    if (two) assert.equal(seen, revision, 'the restarted process reads what the survivor does');
    const wrote = await fresh.callTool({ name: 'batch', arguments: { board, operations: [
      { tool: 'add_shape', args: { text: 'after.0' } },
      { tool: 'add_shape', args: { text: 'after.1' } },
    ] } });
    assert.ok(!wrote.isError, text(wrote));
    const after = wrote.structuredContent.results.map((r) => r.id);
    for (const server of servers) {
      const reader = await client(server, 'ann');
      const r = await reader.callTool({ name: 'read_board', arguments: { board } });
      assert.equal(r.structuredContent.revision, seen + 1, 'the write after the restart is the next revision');
      const ids = new Set(r.structuredContent.page.objects.map((o) => o.id));
      for (const id of after) assert.ok(ids.has(id), `${id} written after the restart`);
      const last = await reader.callTool({ name: 'board_changes', arguments: { board, since: seen } });
      assert.deepEqual([...new Set(last.structuredContent.changes.map((c) => c.by))], ["bob's agent"]);
    }
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    for (const s of servers) s.stop();
  }
}

for (const era of ['2025-11-25', '2026-07-28']) {
  test(`kill -9 of one of two serve processes on PostgreSQL mid-write, and a restart (${era})`, { timeout: TIMEOUT }, async (t) => {
    const cluster = spawnSync(PG_CLUSTER, [String(process.pid), 'sdk_kill'], { encoding: 'utf8' });
    if (cluster.status === 3 && process.env.CI !== 'true') {
      t.skip(`PostgreSQL is not installed: ${cluster.stderr.trim()}`);
      return;
    }
    assert.equal(cluster.status, 0, cluster.stderr);
    await killedMidWrite(t, ['--database', cluster.stdout.trim()], era, true);
  });

  test(`kill -9 of serve on SQLite mid-write, and a restart on the same folder (${era})`, { timeout: TIMEOUT }, async (t) => {
    const dir = tempDir();
    try {
      await killedMidWrite(t, ['--data', dir], era, false);
    } finally {
      removeDir(dir);
    }
  });
}
