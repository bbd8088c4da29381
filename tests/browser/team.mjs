// The team server in the browser tests: a throwaway PostgreSQL cluster, `inkboard serve`
// processes on it, people signed in with their links, agents over streamable HTTP MCP
// (presence.test.mjs and together.test.mjs).

import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { BIN, newContext } from './lib.mjs';

/** Debian's PostgreSQL programs (or $INKBOARD_PG_BIN), the newest; null when not installed. */
export function pgBin() {
  if (process.env.INKBOARD_PG_BIN) return process.env.INKBOARD_PG_BIN;
  if (!existsSync('/usr/lib/postgresql')) return null;
  const found = readdirSync('/usr/lib/postgresql')
    .filter((v) => /^\d+$/.test(v) && existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))
    .sort((a, b) => Number(a) - Number(b));
  return found.length ? `/usr/lib/postgresql/${found.at(-1)}/bin` : null;
}

/** A throwaway cluster listening on a socket in its own folder: {url, stop}. */
export function startCluster(bin) {
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
export function admin(url, ...args) {
  const out = execFileSync(BIN, ['admin', '--database', url, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return out.trim().split('\n').pop();
}

/** `inkboard serve --database URL --listen LISTEN MORE...`: {url (its public URL), proc, stop}. */
export async function serve(database, more = [], listen = '127.0.0.1:0') {
  const proc = spawn(BIN, ['serve', '--database', database, '--listen', listen, ...more], {
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
export class HttpMcp {
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
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'inkboard-browser-test', version: '0' } },
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
export async function personAt(browser, database, server, name, board) {
  const context = await newContext(browser);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`${name}'s page error: ${err.message}`));
  await page.goto(`${server.url}${admin(database, 'link', name)}`);
  await page.goto(`${server.url}/b/${board}`);
  await page.waitForFunction(() => window.inkboard?.ready, null, { timeout: 20000 });
  await page.evaluate(() => window.inkboard.ready);
  return { context, page };
}
