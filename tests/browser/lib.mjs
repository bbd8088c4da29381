// lib.mjs: what the browser tests and benchmarks share. Starts `inkboard open` on a
// board file with a private runtime folder, opens signed-in pages in headless
// Chromium (/usr/bin/chromium, driven by playwright-core), and speaks MCP to
// `inkboard mcp` over stdio (newline-delimited JSON-RPC), like an agent would.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BIN = path.resolve(ROOT, process.env.INKBOARD_BIN ?? 'target/debug/inkboard');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const GOLDEN = path.join(ROOT, 'crates/inkboard-format/tests/golden/v1.inkboard');

/** A fresh temporary folder (removed by `App.stop`, or by the caller). */
export function tempDir(prefix = 'inkboard-browser-') {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Waits until `fn()` answers something truthy (polling), or throws after `ms`. */
export async function until(fn, { ms = 10000, every = 25, what = 'a condition' } = {}) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/** Writes a board file (format v1) holding `pages`: [{name, objects: [...]}]. */
export function writeBoard(file, pages, { title = 'Test board' } = {}) {
  let next = 1;
  for (const p of pages) {
    for (const o of p.objects) next = Math.max(next, Number(String(o.id).slice(1)) + 1);
  }
  const doc = {
    format: 'inkboard',
    version: 3,
    title,
    revision: 1,
    next_id: next,
    pages: pages.map((p, i) => ({ id: `p${i + 1}`, name: p.name ?? `Page ${i + 1}`, objects: p.objects })),
  };
  writeFileSync(file, JSON.stringify(doc, null, 2));
}

/** The objects of page `n` (from 1) as saved in a board file. */
export function savedObjects(file, n = 1) {
  return JSON.parse(readFileSync(file, 'utf8')).pages[n - 1].objects;
}

/**
 * `inkboard open --no-browser --port 0 FILE`, in its own runtime folder. Answers
 * {url, origin, dir, env, file, stop}: `url` is the one-time sign-in address,
 * `env` the environment that makes `inkboard mcp`/`call` talk to this app.
 */
export async function startApp(file, { dir = tempDir() } = {}) {
  const env = {
    ...process.env,
    INKBOARD_RUNTIME_DIR: path.join(dir, 'runtime'),
    // Recovery copies go here, not into the home folder.
    INKBOARD_STATE_DIR: path.join(dir, 'runtime', 'state'),
  };
  const proc = spawn(BIN, ['open', '--no-browser', '--port', '0', file], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: proc.stdout });
    lines.once('line', resolve);
    proc.once('error', reject);
    exited.then((code) => reject(new Error(`inkboard open exited (${code}) before printing its address: ${stderr}`)));
  });
  const origin = new URL(url).origin;
  return {
    url,
    origin,
    dir,
    env,
    file,
    proc,
    stderr: () => stderr,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `inkboard open` on a new board file in a fresh folder (removed by `stop`): the
 * golden example (`golden: true`), else one page holding `objects`. Answers the app
 * (its `file` is the board's path).
 */
export async function startBoard({ objects = [], golden = false } = {}) {
  const dir = tempDir();
  const file = path.join(dir, 'board.inkboard');
  if (golden) copyFileSync(GOLDEN, file);
  else writeBoard(file, [{ objects }]);
  return startApp(file, { dir });
}

/**
 * What a test file needs: the app on a new board (see `startBoard`), Chromium, a
 * signed-in page that has drawn the board, and with `mcp: true` an agent on MCP.
 * Answers {app, file, browser, context, page, mcp, close}; `close` stops them all.
 * If a step fails, what was started is stopped before the error is thrown.
 */
export async function session({ objects, golden, mcp = false } = {}) {
  const s = {};
  s.close = async () => {
    await s.mcp?.close();
    await s.browser?.close();
    await s.app?.stop();
  };
  try {
    s.app = await startBoard({ objects, golden });
    s.file = s.app.file;
    s.browser = await launch();
    s.context = await newContext(s.browser);
    s.page = await openPage(s.context, s.app);
    if (mcp) s.mcp = await Mcp.start(s.app);
  } catch (err) {
    await s.close();
    throw err;
  }
  return s;
}

/** Headless Chromium from the system (no browser download). */
export function launch({ args = [] } = {}) {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--font-render-hinting=none', ...args],
  });
}

/**
 * A browser context of a fixed size (so views and screenshots are repeatable).
 * With `INKBOARD_WEB_DEV=1` its pages get the editor's files (the modules of `web/`,
 * `app.css`) from this checkout instead of the binary: edits to the editor are
 * tried without building again (what is tested then is not the binary's).
 */
export async function newContext(browser) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  if (process.env.INKBOARD_WEB_DEV) {
    const web = path.join(ROOT, 'crates/inkboard-app/web');
    // `/assets/VERSION/NAME`, NAME the file's path under web/ (`canvas/canvas.js`).
    await context.route(/\/assets\/[^/]+\/[\w./-]+\.(js|css)$/, async (route) => {
      const name = new URL(route.request().url()).pathname.split('/').slice(3).join('/');
      let body;
      try {
        body = readFileSync(path.join(web, name));
      } catch {
        return route.continue();
      }
      const type = name.endsWith('.css') ? 'text/css' : 'text/javascript';
      return route.fulfill({ status: 200, contentType: type, body });
    });
  }
  return context;
}

const signedIn = new WeakSet();

/**
 * A page of `context` showing the app's board, after its first full scene is drawn.
 * The first page of a context trades the one-time code for the cookie.
 */
export async function openPage(context, app) {
  const page = await context.newPage();
  const log = [];
  page.on('pageerror', (err) => {
    log.push(`page error: ${err.message}`);
    console.error(`page error: ${err.message}`);
  });
  page.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
  page.on('requestfailed', (r) => log.push(`request failed: ${r.url()} ${r.failure()?.errorText}`));
  await page.goto(signedIn.has(context) ? `${app.origin}/` : app.url);
  signedIn.add(context);
  try {
    await page.waitForFunction(() => window.inkboard?.ready, null, { timeout: 20000 });
    await page.evaluate(() => window.inkboard.ready);
  } catch (err) {
    const state = await page.evaluate(() => ({ url: location.href, inkboard: !!window.inkboard, body: document.body?.innerHTML.slice(0, 200) })).catch((e) => e.message);
    throw new Error(`the page did not draw its first scene: ${err.message}\n${JSON.stringify(state)}\n${log.join('\n')}\napp stderr: ${app.stderr()}`);
  }
  return page;
}

/** Ids of the objects drawn in the page (the `<g id>` children of the objects layer). */
export function drawnIds(page) {
  return page.evaluate(() => [...document.querySelectorAll('[data-testid="board-svg"] g.objects > g[id]')].map((g) => g.id));
}

/** The client (screen) point of a board point, from the page's own view. */
export async function clientOf(page, x, y) {
  return page.evaluate(([bx, by]) => {
    const v = window.inkboard.view();
    const r = document.querySelector('[data-testid="canvas"]').getBoundingClientRect();
    return { x: r.left + (bx - v.x) * v.zoom, y: r.top + (by - v.y) * v.zoom };
  }, [x, y]);
}

/** Clicks board point `p` (Playwright click options: modifiers, clickCount...). */
export async function clickBoard(page, p, options) {
  const c = await clientOf(page, p.x, p.y);
  await page.mouse.click(c.x, c.y, options);
}

/** Presses the mouse at board point `a`, moves to `b` in `steps`, and releases. */
export async function dragBoard(page, a, b, { steps = 8 } = {}) {
  const p = await clientOf(page, a.x, a.y);
  const q = await clientOf(page, b.x, b.y);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.move(q.x, q.y, { steps });
  await page.mouse.up();
}

/** The objects the page has (id -> data as `read_board` gives it). */
export function objectsOf(page) {
  return page.evaluate(() => window.inkboard.objects());
}

/** The selected ids, sorted. */
export async function selectionOf(page) {
  return (await page.evaluate(() => window.inkboard.selection())).sort();
}

/**
 * What a test reads of the board in the page `pageOf()` gives (called each time,
 * so it can be bound before the page opens): its objects, their ids, a wait for
 * a condition on them, and a wait for a selection (ids in any order).
 */
export function watch(pageOf) {
  const objects = () => objectsOf(pageOf());
  return {
    objects,
    ids: async () => new Set(Object.keys(await objects())),
    waitFor: (fn, what) => until(async () => fn(await objects()), { what }),
    selected: (want, what) => until(
      async () => (await selectionOf(pageOf())).join() === [...want].sort().join(), { what }),
  };
}

/** Waits for one object that `before` (a Set of ids) lacks; answers [id, data]. */
export async function newObject(page, before, what = 'a new object') {
  return until(async () => {
    const fresh = Object.entries(await objectsOf(page)).filter(([id]) => !before.has(id));
    return fresh.length === 1 && fresh[0];
  }, { what });
}

/** An MCP client over stdio: `inkboard mcp` with the app's environment. */
export class Mcp {
  static async start(app) {
    const m = new Mcp(app.env);
    await m.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'inkboard-browser-tests', version: '0' },
    });
    m.notify('notifications/initialized');
    return m;
  }

  constructor(env) {
    this.proc = spawn(BIN, ['mcp'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    this.nextId = 1;
    this.pending = new Map();
    this.exited = new Promise((resolve) => this.proc.once('exit', resolve));
    createInterface({ input: this.proc.stdout }).on('line', (line) => {
      const msg = JSON.parse(line); // stdout carries only JSON-RPC
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new Error(`${msg.error.code}: ${msg.error.message}`));
      else p.resolve(msg.result);
    });
    this.exited.then(() => {
      for (const p of this.pending.values()) p.reject(new Error('inkboard mcp exited'));
    });
  }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  }

  notify(method, params) {
    this.proc.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method, ...(params ? { params } : {}) })}\n`);
  }

  /** `tools/call`: the raw result ({content, structuredContent?, isError}). */
  callRaw(name, args = {}) {
    return this.request('tools/call', { name, arguments: args });
  }

  /** `tools/call` of a JSON tool: its structured answer; a tool error throws. */
  async call(name, args = {}) {
    const r = await this.callRaw(name, args);
    const text = r.content?.find((c) => c.type === 'text')?.text;
    if (r.isError) throw new Error(`${name}: ${text}`);
    return r.structuredContent ?? JSON.parse(text);
  }

  async close() {
    this.proc.stdin.end();
    const timer = setTimeout(() => this.proc.kill('SIGTERM'), 3000);
    await this.exited;
    clearTimeout(timer);
  }
}
