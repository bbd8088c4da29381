// Connections that come and go (issue 34, item 6): TWO `inkboard serve` processes over ONE
// PostgreSQL behind a load balancer (a TCP proxy here, which sends every new connection to the
// process it is told, and can cut them all). With real mouse and keyboard events: a cut
// connection comes back by itself; when ann's process is killed (-9) and the balancer keeps
// her page out for a while, she goes on drawing: her drag and her other changes wait in the
// page, the status says how many, and they are sent once the page is back on the other
// process; a change to a shape her agent deleted meanwhile is refused, and she is told;
// what the killed process had acknowledged is all there.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { launch, until, dragBoard, clickBoard } from './lib.mjs';
import { pgBin, startCluster, admin, serve, HttpMcp, personAt } from './team.mjs';

/** A load balancer: new connections go to `to` (a port); `keepOut` turns editors' sockets away. */
function balancer() {
  const live = new Set();
  const b = {
    to: null,
    keepOut: false,
    server: net.createServer((client) => {
      client.once('data', (first) => {
        // The editor's WebSocket asks for /b/BOARD/ws: kept out while `keepOut`.
        const editor = / \/b\/[^ ]*\/ws /.test(first.toString('latin1', 0, 200));
        if (b.to == null || (editor && b.keepOut)) {
          client.destroy();
          return;
        }
        const up = net.connect(b.to, '127.0.0.1');
        up.write(first);
        client.pipe(up).pipe(client);
        const pair = [client, up];
        for (const s of pair) {
          live.add(s);
          s.on('error', () => pair.forEach((x) => x.destroy()));
          s.on('close', () => {
            live.delete(s);
            pair.forEach((x) => x.destroy());
          });
        }
      });
      client.on('error', () => client.destroy());
    }),
    /** Cuts every connection now open. */
    cut() {
      for (const s of live) s.destroy();
    },
  };
  return b;
}

/** A port free now (the system's pick), for a process to listen on. */
async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
const objectOn = (page, id) => page.evaluate((i) => window.inkboard.objects()[i], id);
const status = (page) => page.getByTestId('save-status').textContent();

const bin = pgBin();

describe('connections that come and go, behind a balancer over two processes', { timeout: 240000, skip: bin ? false : 'PostgreSQL is not installed' }, () => {
  let cluster;
  let lb;
  let front; // the balancer's address: the servers' public URL
  let a;
  let b;
  let browser;
  let board;
  let agent;
  let token;
  let ann;
  const ids = {};

  before(async () => {
    cluster = startCluster(bin);
    const db = cluster.url;
    lb = balancer();
    await new Promise((resolve) => lb.server.listen(0, '127.0.0.1', resolve));
    front = `http://127.0.0.1:${lb.server.address().port}`;
    admin(db, 'add-user', 'ann');
    token = admin(db, 'token', 'ann');
    const [pa, pb] = [await freePort(), await freePort()];
    a = await serve(db, ['--public-url', front], `127.0.0.1:${pa}`);
    b = await serve(db, ['--public-url', front], `127.0.0.1:${pb}`);
    a.port = pa;
    b.port = pb;
    lb.to = pb;
    agent = await new HttpMcp(front, token).connect();
    board = (await agent.call('create_board', { title: 'Offline' })).board;
    for (const [name, y] of [['kept', 0], ['moved', 200], ['gone', 400]]) {
      ids[name] = (await agent.call('add_shape', { board, x: 0, y, w: 160, h: 80, text: name })).id;
    }
    browser = await launch();
    ann = await personAt(browser, db, { url: front }, 'ann', board);
  });

  after(async () => {
    await browser?.close();
    lb?.cut();
    lb?.server.close();
    await a?.stop();
    await b?.stop();
    cluster?.stop();
  });

  it('a cut connection comes back by itself', async () => {
    lb.cut();
    await until(async () => /Offline|Connecting/.test(await status(ann.page)), { what: 'the page sees the cut' });
    await until(async () => !/Offline|Connecting/.test(await status(ann.page)), { what: 'back by itself', ms: 15000 });
  });

  it('changes made while the process is gone wait in the page and are sent on the other', async () => {
    // Acknowledged on process B before it dies: must survive.
    await dragBoard(ann.page, { x: 80, y: 40 }, { x: 80, y: 140 });
    await until(async () => (await objectOn(ann.page, ids.kept))?.y > 50, { what: 'the acknowledged drag' });
    const kept = (await objectOn(ann.page, ids.kept)).y;

    // B dies; the balancer sends new connections to A, but keeps ann's page out a while.
    lb.keepOut = true;
    b.proc.kill('SIGKILL');
    await b.exited;
    lb.to = a.port;
    await until(async () => /Offline|Connecting/.test(await status(ann.page)), { what: 'ann\'s page offline' });

    // Offline, ann drags one shape and another.
    await dragBoard(ann.page, { x: 80, y: 240 }, { x: 380, y: 240 });
    await dragBoard(ann.page, { x: 80, y: 440 }, { x: 380, y: 440 });
    await until(async () => /2 changes waiting/.test(await status(ann.page)), { what: 'two changes waiting' });
    // Dragged shapes stay where she put them meanwhile.
    const drawnAt = await ann.page.evaluate((id) => document.getElementById(id)?.getAttribute('transform') ?? '', ids.moved);
    assert.match(drawnAt, /translate/, 'the waiting drag stays drawn');

    // Meanwhile her agent deletes the second shape (through the balancer, on A). Its MCP
    // session died with B: A answers 404, on which a client starts a new one (the spec).
    await assert.rejects(agent.call('read_board', { board }), /Session not found|404/);
    agent = await new HttpMcp(front, token).connect();
    await agent.call('delete', { board, ids: [ids.gone] });

    // The page comes back (on A) and sends what waited.
    lb.keepOut = false;
    await until(async () => (await objectOn(ann.page, ids.moved))?.x === 300, { what: 'the waiting drag applied', ms: 20000 });
    const note = ann.page.getByTestId('status-note');
    await until(async () => /1 change made offline could not be applied: move: /.test(await note.textContent()), {
      what: 'told what could not be applied',
    });
    const read = await agent.call('read_board', { board });
    const byId = Object.fromEntries(read.page.objects.map((o) => [o.id, o]));
    assert.equal(byId[ids.moved]?.x, 300, 'the drag made offline is in the store');
    assert.equal(byId[ids.gone], undefined, 'the deleted shape stays deleted');
    assert.equal(byId[ids.kept]?.y, kept, 'what B acknowledged is there');
    assert.equal(await objectOn(ann.page, ids.gone), undefined, 'and the page shows it deleted');
    assert.doesNotMatch(await status(ann.page), /waiting/);
  });
});
