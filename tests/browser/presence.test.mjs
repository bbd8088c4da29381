// Presence, cursors and follow across processes (issue 34, items 1 to 3): TWO `inkboard serve`
// processes over ONE PostgreSQL (a throwaway cluster started here, as the store's Rust suite
// does: initdb and pg_ctl, as `nobody` through runuser when run as root), three people in
// separate browser contexts: ann on process A, bob and cy on process B. With real mouse and
// keyboard events: each sees the others listed in their colour, ann's pointer moves on bob's
// screen, her selection is outlined there, bob follows her view and stops by panning, her
// agent's call shows as "ann's agent", a change made on A appears on B (the latency printed,
// not asserted: docs/performance.presence.md), a closed window leaves the list, and
// `kill -9` of process B takes bob and cy off ann's list within a few seconds.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, launch, newContext, until, clickBoard, clientOf } from './lib.mjs';

/** Debian's PostgreSQL programs (or $INKBOARD_PG_BIN), the newest; null when not installed. */
function pgBin() {
  if (process.env.INKBOARD_PG_BIN) return process.env.INKBOARD_PG_BIN;
  if (!existsSync('/usr/lib/postgresql')) return null;
  const found = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v) && existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => Number(a) - Number(b));
  return found.length ? `/usr/lib/postgresql/${found.at(-1)}/bin` : null;
}

/** A throwaway cluster listening on a socket in its own folder: {url, stop}. */
function startCluster(bin) {
  const root = mkdtempSync(path.join(tmpdir(), 'inkboard-pg-'));
  const asRoot = process.getuid?.() === 0;
  const run = (program, args) => {
    const [cmd, all] = asRoot
      ? ['runuser', ['-u', 'nobody', '--', path.join(bin, program), ...args]]
      : [path.join(bin, program), args];
    execFileSync(cmd, all, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', 'pipe', 'pipe'] });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }));
    chownSync(root, uid, gid);
  }
  const data = path.join(root, 'data');
  run('initdb', ['-D', data, '-U', 'inkboard', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  run('pg_ctl', ['-D', data, '-l', path.join(root, 'log'), '-w', '-o',
    `-k '${root}' -h '' -p 5432 -c fsync=off`, 'start']);
  return {
    url: `postgresql://inkboard@${encodeURIComponent(root)}:5432/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', data, 'stop', '-m', 'immediate']);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** `inkboard admin --database URL ARGS`: stdout's last line. */
function admin(url, ...args) {
  const out = execFileSync(BIN, ['admin', '--database', url, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out.trim().split('\n').pop();
}

/** `inkboard serve --database URL --listen 127.0.0.1:0`: {url, proc, stop}. */
async function serve(database) {
  const proc = spawn(BIN, ['serve', '--database', database, '--listen', '127.0.0.1:0'], {
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
    proc,
    exited,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGKILL');
        await exited;
      }
    },
  };
}

/** An agent: MCP over streamable HTTP with a bearer token. */
class HttpMcp {
  constructor(url, token) {
    this.url = `${url}/mcp`;
    this.token = token;
    this.session = null;
    this.next = 1;
  }

  async post(message) {
    const headers = {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      'MCP-Protocol-Version': '2025-11-25',
      Authorization: `Bearer ${this.token}`,
    };
    if (this.session) headers['Mcp-Session-Id'] = this.session;
    const res = await fetch(this.url, { method: 'POST', headers, body: JSON.stringify(message) });
    this.session = res.headers.get('mcp-session-id') ?? this.session;
    const body = await res.text();
    if (message.id == null) return null;
    assert.equal(res.status, 200, body);
    const found = [body, ...body.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5))]
      .map((t) => { try { return JSON.parse(t); } catch { return null; } })
      .find((m) => m?.id === message.id);
    assert.ok(found, `no answer in ${body}`);
    return found;
  }

  async connect() {
    await this.post({
      jsonrpc: '2.0', id: this.next++, method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'presence-test', version: '0' } },
    });
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return this;
  }

  async call(name, args) {
    const answer = await this.post({ jsonrpc: '2.0', id: this.next++, method: 'tools/call', params: { name, arguments: args } });
    const result = answer.result;
    if (result.isError) throw new Error(result.content?.[0]?.text ?? JSON.stringify(result));
    return result.structuredContent;
  }
}

/** A person's page: signed in with their link on `server`, the board open and drawn. */
async function personAt(browser, database, server, name, board) {
  const context = await newContext(browser);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`${name}'s page error: ${err.message}`));
  await page.goto(`${server.url}${admin(database, 'link', name)}`);
  await page.goto(`${server.url}/b/${board}`);
  await page.waitForFunction(() => window.inkboard?.ready, null, { timeout: 20000 });
  await page.evaluate(() => window.inkboard.ready);
  return { context, page };
}

/** The names in a page's list of people present. */
function listed(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid="people"] [data-testid="person"]')]
    .map((b) => b.dataset.name).sort());
}

/** The board point of `name`'s pointer on `page`, or null. */
function cursorOn(page, name) {
  return page.evaluate((who) => {
    const c = [...document.querySelectorAll('[data-testid="peer-cursor"]')].find((e) => e.dataset.name === who);
    if (!c) return null;
    const m = /translate\(([-\d.e]+)px, ([-\d.e]+)px\)/.exec(c.style.transform);
    const v = window.inkboard.view();
    return m && { x: Number(m[1]) / v.zoom + v.x, y: Number(m[2]) / v.zoom + v.y };
  }, name);
}

/** The centre of the board rectangle a page shows. */
function centreOf(page) {
  return page.evaluate(() => {
    const v = window.inkboard.view();
    const r = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
    return { x: v.x + r.width / 2 / v.zoom, y: v.y + r.height / 2 / v.zoom };
  });
}

const close = (a, b, slack = 2) => Math.abs(a.x - b.x) <= slack && Math.abs(a.y - b.y) <= slack;

const bin = pgBin();

describe('presence across two processes on one PostgreSQL', { timeout: 240000, skip: bin ? false : 'PostgreSQL is not installed' }, () => {
  let cluster;
  let a;
  let b;
  let browser;
  let board;
  let shape;
  let agent;
  let ann;
  let bob;
  let cy;

  before(async () => {
    cluster = startCluster(bin);
    const db = cluster.url;
    for (const name of ['ann', 'bob', 'cy']) admin(db, 'add-user', name);
    const token = admin(db, 'token', 'ann');
    a = await serve(db);
    b = await serve(db);
    agent = await new HttpMcp(a.url, token).connect();
    board = (await agent.call('create_board', { title: 'Together' })).board;
    shape = (await agent.call('add_shape', { board, x: 0, y: 0, w: 160, h: 80, text: 'Start' })).id;
    admin(db, 'share', board, 'bob', 'editor');
    admin(db, 'share', board, 'cy', 'viewer');
    browser = await launch();
    ann = await personAt(browser, db, a, 'ann', board);
    bob = await personAt(browser, db, b, 'bob', board);
    cy = await personAt(browser, db, b, 'cy', board);
  });

  after(async () => {
    await browser?.close();
    await a?.stop();
    await b?.stop();
    cluster?.stop();
  });

  it('each person sees the others listed, in their colours', async () => {
    for (const [who, others] of [[ann, ['bob', 'cy']], [bob, ['ann', 'cy']], [cy, ['ann', 'bob']]]) {
      await until(async () => JSON.stringify(await listed(who.page)) === JSON.stringify(others), {
        what: `${others.join(' and ')} listed`, ms: 15000,
      });
    }
    const colours = await bob.page.evaluate(() => [...document.querySelectorAll('[data-testid="person"]')]
      .map((e) => e.style.getPropertyValue('--person')));
    assert.ok(colours.every((c) => /^#[0-9a-f]{6}$/.test(c)), JSON.stringify(colours));
  });

  it('a pointer moves on the others\' screens, with its name', async () => {
    for (const target of [{ x: 100, y: 40 }, { x: 260, y: -30 }]) {
      const c = await clientOf(ann.page, target.x, target.y);
      await ann.page.mouse.move(c.x, c.y, { steps: 5 });
      for (const who of [bob, cy]) {
        await until(async () => {
          const at = await cursorOn(who.page, 'ann');
          return at && close(at, target);
        }, { what: `ann's pointer at ${JSON.stringify(target)}` });
      }
    }
    const label = await bob.page.evaluate(() => document.querySelector('[data-testid="peer-cursor"] .label')?.textContent);
    assert.equal(label, 'ann');
  });

  it('a selection is outlined in the person\'s colour', async () => {
    await clickBoard(ann.page, { x: 80, y: 40 });
    await until(async () => (await ann.page.evaluate(() => window.inkboard.selection())).includes(shape), { what: 'ann selects' });
    await until(() => bob.page.evaluate((id) => [...document.querySelectorAll('[data-testid="peer-selection"]')]
      .some((e) => e.dataset.id === id && e.dataset.name === 'ann'), shape), { what: 'ann\'s selection on bob\'s screen' });
    await ann.page.keyboard.press('Escape');
    await until(() => bob.page.evaluate(() => !document.querySelector('[data-testid="peer-selection"]')), {
      what: 'the outline gone once ann selects nothing',
    });
  });

  it('follows a person\'s view, and stops at a pan of one\'s own', async () => {
    const annButton = bob.page.locator('[data-testid="person"][data-name="ann"]');
    await annButton.click();
    await bob.page.getByTestId('following').waitFor();
    assert.equal(await bob.page.getByTestId('following').textContent(), 'Following ann');
    assert.equal(await annButton.getAttribute('aria-pressed'), 'true');
    await until(async () => close(await centreOf(bob.page), await centreOf(ann.page), 3), { what: 'bob shows ann\'s view' });
    // Ann pans with her wheel: bob's view goes along.
    const c = await clientOf(ann.page, 0, 0);
    await ann.page.mouse.move(c.x, c.y);
    await ann.page.mouse.wheel(400, 250);
    await until(async () => close(await centreOf(bob.page), await centreOf(ann.page), 3), { what: 'bob follows ann\'s pan' });
    // Bob pans himself: following stops, and ann's next pan leaves him be.
    const d = await clientOf(bob.page, 0, 0);
    await bob.page.mouse.move(d.x, d.y);
    await bob.page.mouse.wheel(-300, 0);
    await until(async () => (await bob.page.evaluate(() => window.inkboard.following())) === null, { what: 'following stopped' });
    assert.equal(await bob.page.getByTestId('following').count(), 0);
    const bobs = await centreOf(bob.page);
    await ann.page.mouse.wheel(0, 500);
    await new Promise((r) => setTimeout(r, 800));
    assert.ok(close(await centreOf(bob.page), bobs, 0.5), 'bob\'s view stays where he put it');
  });

  it('an agent\'s call shows as "ann\'s agent" while it works, and its change in ann\'s colour', async () => {
    const made = await agent.call('add_shape', { board, x: 400, y: 200, w: 120, h: 60, text: 'Agent' });
    for (const who of [bob, cy]) {
      await until(async () => (await listed(who.page)).includes('ann\'s agent'), { what: 'ann\'s agent listed' });
    }
    const colour = await bob.page.evaluate(() => document.querySelector('[data-testid="person"][data-name="ann"]').style.getPropertyValue('--person'));
    await until(() => bob.page.evaluate(([id, c]) => {
      const m = window.inkboard.marked();
      return m?.marks.some((x) => x.name === 'ann\'s agent' && x.color === c && x.ids.includes(id));
    }, [made.id, colour]), { what: 'the agent\'s change marked in ann\'s colour' });
    // A few seconds after its last call, the agent is no longer listed.
    await until(async () => !(await listed(bob.page)).includes('ann\'s agent'), { what: 'the agent gone', ms: 10000 });
  });

  it('a change made on process A is drawn on process B (latency printed)', async () => {
    const times = [];
    for (let i = 0; i < 10; i++) {
      const text = `L${i}`;
      // Bob's page notes when the shape is in its document, on its own clock.
      const seen = bob.page.evaluate((t) => new Promise((resolve) => {
        const look = () => {
          const hit = Object.values(window.inkboard.objects()).find((o) => o.text === t);
          if (hit && document.getElementById(hit.id)) resolve(performance.timeOrigin + performance.now());
          else requestAnimationFrame(look);
        };
        look();
      }), text);
      const sent = performance.timeOrigin + performance.now();
      await agent.call('add_shape', { board, x: 600 + 10 * i, y: 400, w: 80, h: 40, text });
      const replied = performance.timeOrigin + performance.now();
      const drawn = await seen;
      times.push({ call: replied - sent, drawn: drawn - sent });
    }
    const drawn = times.map((t) => t.drawn).sort((x, y) => x - y);
    const call = times.map((t) => t.call).sort((x, y) => x - y);
    const ms = (v) => v.toFixed(1);
    console.log(`# presence latency: agent call on A sent -> drawn in a browser on B, 10 runs: `
      + `median ${ms(drawn[5])} ms, max ${ms(drawn[9])} ms (the call itself, sent -> answered: median ${ms(call[5])} ms)`);
    assert.equal(drawn.length, 10);
  });

  it('a closed window leaves the others\' lists', async () => {
    for (const who of [ann, bob]) {
      await until(async () => (await listed(who.page)).includes('cy'), { what: 'cy listed first' });
    }
    const started = Date.now();
    await cy.context.close();
    for (const who of [ann, bob]) {
      await until(async () => !(await listed(who.page)).includes('cy'), { what: 'cy gone', ms: 6000 });
    }
    console.log(`# presence: a closed window left the lists in ${Date.now() - started} ms`);
  });

  it('kill -9 of a process takes its people off the others\' lists within a few seconds', async () => {
    await until(async () => (await listed(ann.page)).includes('bob'), { what: 'bob listed on ann\'s page' });
    const started = Date.now();
    b.proc.kill('SIGKILL');
    await b.exited;
    await until(async () => !(await listed(ann.page)).includes('bob'), { what: 'bob gone from ann\'s list', ms: 9000 });
    const took = Date.now() - started;
    console.log(`# presence: kill -9 of process B took bob off ann's list in ${took} ms`);
    assert.ok(took >= 1000, `bob left at once (${took} ms): expiry, not a goodbye, should take him off`);
  });
});
