// lib.mjs: a test host for inkboard's chat view. The official TypeScript MCP
// client (@modelcontextprotocol/client) runs in Node, connected to `inkboard mcp`
// over stdio and declaring the MCP Apps extension as a host does. A page in headless
// Chromium (/usr/bin/chromium, driven by playwright-core) is the host's page: it runs
// the official host side of the extension (AppBridge from
// @modelcontextprotocol/ext-apps, bundled for the browser with esbuild) and shows the
// view's HTML in a sandboxed iframe with the content security policy built from the
// resource's `_meta.ui.csp`, as hosts do. The bridge's tool calls go to Node, which
// hands them to the MCP client; what the chat view asks of the host (model context,
// display mode, downloads) is recorded in the page for the tests to read.

import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../..');
export const BIN = path.resolve(ROOT, process.env.INKBOARD_BIN ?? 'target/debug/inkboard');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
export const VIEW_URI = 'ui://inkboard/board';
export const EXTENSION = 'io.modelcontextprotocol/ui';
export const MIME = 'text/html;profile=mcp-app';
const HOST = 'http://host.test';

export function tempDir(prefix = 'inkboard-chat-') {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}

/** Waits until `fn()` answers something truthy, or throws after `ms`. */
export async function until(fn, { ms = 10000, every = 25, what = 'a condition' } = {}) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * `inkboard mcp` on stdio with the official client. `apps: true` declares the MCP
 * Apps extension in the client's capabilities (a host that shows views); `false`
 * is a client that does not. The runtime folder is private and empty, so no running
 * `inkboard open` is found: every call works on the files named.
 */
export async function connect({ apps = true, dir = tempDir() } = {}) {
  const capabilities = apps ? { extensions: { [EXTENSION]: { mimeTypes: [MIME] } } } : {};
  const client = new Client({ name: 'inkboard-chat-host', version: '0' }, { capabilities });
  await client.connect(new StdioClientTransport({
    command: BIN,
    args: ['mcp'],
    cwd: dir,
    env: { ...process.env, INKBOARD_RUNTIME_DIR: path.join(dir, 'runtime'), INKBOARD_STATE_DIR: path.join(dir, 'state') },
    stderr: 'inherit',
  }));
  return client;
}

/** The structured content of a tool call, failing the test on a tool error. */
export async function call(client, name, args) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${name} failed: ${JSON.stringify(r.content)}`);
  return r;
}

/** The 199-object flow: 100 shapes in a chain of 99 connectors, as one batch. */
export function flowOperations(shapes = 100) {
  const ops = [];
  for (let i = 0; i < shapes; i++) ops.push({ tool: 'add_shape', args: { text: `Step ${i}` } });
  for (let i = 0; i + 1 < shapes; i++) ops.push({ tool: 'add_connector', args: { from: `$${i}.id`, to: `$${i + 1}.id` } });
  return ops;
}

let bridgeBundle = null;

/** The ext-apps host side (AppBridge, PostMessageTransport) as one browser module. */
async function appBridgeBundle() {
  if (bridgeBundle) return bridgeBundle;
  const out = await build({
    stdin: {
      contents: "export { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';",
      resolveDir: HERE,
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
  });
  bridgeBundle = out.outputFiles[0].text;
  return bridgeBundle;
}

/** The CSP a host builds from a view resource's `_meta.ui.csp` (the specification's own rule). */
export function hostCsp(csp = {}) {
  const list = (k) => (csp[k] ?? []).join(' ');
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${list('resourceDomains')}`,
    `style-src 'self' 'unsafe-inline' ${list('resourceDomains')}`,
    `connect-src 'self' ${list('connectDomains')}`,
    `img-src 'self' data: ${list('resourceDomains')}`,
    `font-src 'self' ${list('resourceDomains')}`,
    `media-src 'self' data: ${list('resourceDomains')}`,
    `frame-src ${list('frameDomains') || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list('baseUriDomains') || "'self'"}`,
  ].join('; ');
}

const HOST_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>test host</title>
<style>body{margin:0;font:13px sans-serif} iframe{border:1px solid #ccc;width:900px;height:560px;display:block}</style>
</head><body>
<div id="chat">a chat message, then the chat view:</div>
<script type="module">
import { AppBridge, PostMessageTransport } from '${HOST}/app-bridge.js';
window.host = { contexts: [], modes: [], downloads: [], logs: [], initialized: false, sizes: [] };
window.startView = async ({ html, csp, capabilities, context }) => {
  const iframe = document.createElement('iframe');
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.dataset.testid = 'view';
  document.body.append(iframe);
  const bridge = new AppBridge(null, { name: 'inkboard-test-host', version: '0' }, capabilities, { hostContext: context });
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onupdatemodelcontext = async (params) => { window.host.contexts.push(params); return {}; };
  bridge.onrequestdisplaymode = async ({ mode }) => {
    window.host.modes.push(mode);
    bridge.sendHostContextChange({ displayMode: mode });
    return { mode };
  };
  bridge.ondownloadfile = async (params) => { window.host.downloads.push(params); return {}; };
  bridge.onloggingmessage = (params) => window.host.logs.push(params);
  bridge.onsizechange = ({ height }) => { window.host.sizes.push(height); if (height) iframe.style.height = height + 'px'; };
  const initialized = new Promise((resolve) => { bridge.oninitialized = resolve; });
  await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
  // The chat view's document with the host's policy in front, as a sandbox proxy loads it.
  const policy = '<meta http-equiv="Content-Security-Policy" content="' + csp + '">';
  iframe.srcdoc = html.replace(/<head>/i, '<head>' + policy);
  window.bridge = bridge;
  await initialized;
  window.host.initialized = true;
};
window.toolCall = async (input, result) => {
  await window.bridge.sendToolInput({ arguments: input });
  await window.bridge.sendToolResult(result);
};
</script></body></html>`;

/**
 * A host page in Chromium showing the chat view for `client`: answers {browser, page,
 * frame, show(input, result), contexts()}. `capabilities` are the host's (MCP Apps
 * host capabilities), `context` its host context.
 */
export async function openHost(client, { capabilities, context, headless = true } = {}) {
  const read = await client.readResource({ uri: VIEW_URI });
  const resource = read.contents[0];
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const outside = [];
  const bundle = await appBridgeBundle();
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `${HOST}/`) return route.fulfill({ contentType: 'text/html', body: HOST_PAGE });
    if (url === `${HOST}/app-bridge.js`) return route.fulfill({ contentType: 'text/javascript', body: bundle });
    outside.push(url);
    return route.abort();
  });
  const calls = [];
  await page.exposeFunction('hostCallTool', async (params) => {
    calls.push(params.name);
    return client.callTool(params);
  });
  await page.goto(`${HOST}/`);
  await page.evaluate((a) => window.startView(a), {
    html: resource.text,
    csp: hostCsp(resource._meta?.ui?.csp),
    capabilities: capabilities ?? { serverTools: {}, updateModelContext: { text: {} }, logging: {} },
    context: context ?? {
      theme: 'light', displayMode: 'inline', availableDisplayModes: ['inline', 'fullscreen'],
      containerDimensions: { width: 900, maxHeight: 700 }, platform: 'web',
    },
  });
  const frame = page.frameLocator('[data-testid="view"]');
  return {
    browser,
    page,
    frame,
    resource,
    errors,
    /** URLs the page or the chat view tried to load besides the host's own (none may be). */
    outside,
    /** The tools the chat view called through the host, in order. */
    calls,
    /** Shows a tool call's input and result in the chat view, as a host does after the call. */
    show: (input, result) => page.evaluate(([i, r]) => window.toolCall(i, r), [input, result]),
    contexts: () => page.evaluate(() => window.host.contexts),
    host: () => page.evaluate(() => window.host),
    /** Runs `fn` inside the chat view's frame. */
    inChat: async (fn, arg) => {
      const f = page.frames().find((x) => x !== page.mainFrame());
      return f.evaluate(fn, arg);
    },
    close: () => browser.close(),
  };
}

/** Writes a small board file (format v1) with `objects` on its one page. */
export function writeBoard(file, objects, { title = 'Test board' } = {}) {
  let next = 1;
  for (const o of objects) next = Math.max(next, Number(String(o.id).slice(1)) + 1);
  writeFileSync(file, JSON.stringify({
    format: 'inkboard', version: 1, title, revision: 1, next_id: next,
    pages: [{ id: 'p1', name: 'Page 1', objects }],
  }, null, 2));
}

/**
 * `inkboard open --no-browser --port 0 FILE` with the runtime folder `connect({dir})`
 * uses, so that the MCP server sends calls on FILE (and path-less ones) to it.
 * Answers {url, stop}: `url` signs a browser in.
 */
export async function startApp(file, dir) {
  const proc = spawn(BIN, ['open', '--no-browser', '--port', '0', file], {
    env: { ...process.env, INKBOARD_RUNTIME_DIR: path.join(dir, 'runtime'), INKBOARD_STATE_DIR: path.join(dir, 'state') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const url = await new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    exited.then((code) => reject(new Error(`inkboard open exited (${code})`)));
  });
  return {
    url,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** Whether the built binary is there (the tests need `cargo build -p inkboard`). */
export function haveBinary() {
  return spawnSync(BIN, ['--version']).status === 0;
}
