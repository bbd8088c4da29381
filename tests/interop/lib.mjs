// lib.mjs: what the interop tests share. Runs the inkboard binary (export, import),
// serves the real applications' files from node_modules to Debian's Chromium
// (driven by playwright-core, as tests/browser does), bundles Excalidraw's own
// loader and serializer for the page with esbuild, and says what a board page
// holds in lines without ids, so a page and its round trip can be compared.

import { execFileSync, spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../..');
export const BIN = path.resolve(ROOT, process.env.INKBOARD_BIN ?? 'target/debug/inkboard');
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** The board that holds every kind of object, on two pages. */
export const FIXTURE = path.join(HERE, 'fixture.inkboard');

/** A fresh temporary folder. */
/**
 * The text an object shows: its text, but for the fixture's one rich-text note
 * (`s90`), whose Markdown is shown as formatting, its list items as bullets.
 */
export function shown(o) {
  if (o.id === 's90') return 'Plan: ship v2\n• read the docs\n• old done';
  return o.text ?? '';
}

export function tempDir() {
  return mkdtempSync(path.join(tmpdir(), 'inkboard-interop-'));
}

/** Runs the binary; answers its standard output (stderr in `.stderr` of the error). */
function run(args) {
  return execFileSync(BIN, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `export` (the MCP tool, through `inkboard call`) of page `page` (from 1) to `output`. */
export function exportBoard(board, output, page = 1) {
  run(['call', 'export', JSON.stringify({ path: board, output, page, overwrite: true })]);
  return readFileSync(output, 'utf8');
}

/**
 * `inkboard import SOURCE -o BOARD`: answers the new board (parsed) and what the
 * import reported as lost (its stderr lines).
 */
export function importFile(source, board) {
  const done = spawnSync(BIN, ['import', source, '-o', board, '--overwrite'], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`inkboard import ${source} failed: ${done.stderr}`);
  return { board: JSON.parse(readFileSync(board, 'utf8')), lost: done.stderr };
}

/** A board file, parsed. */
export function readBoard(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Keeps a file the real application wrote in `$INKBOARD_KEEP_FILES`, if set (for
 * the interop corpus, crates/inkboard-interop/tests/corpus/SOURCES.md).
 */
export function keep(name, text) {
  const dir = process.env.INKBOARD_KEEP_FILES;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, name), text);
}

const r = (v) => Math.round(v * 10) / 10;

/**
 * One line per object of a page (board file JSON), sorted, without ids: kind,
 * outline, bounds and text; a connector by its text, route, arrowheads and what
 * its ends are; a group by its members. Two pages with the same lines hold the
 * same drawing (crates/inkboard-interop/tests/export.rs says the same in Rust).
 */
export function describe(page) {
  const byId = new Map(page.objects.map((o) => [o.id, o]));
  const one = (o) => {
    switch (o.type) {
      case 'shape':
        return `shape ${o.geom ?? 'rect'} ${r(o.x)},${r(o.y)} ${r(o.w)}x${r(o.h)} ${JSON.stringify(o.text ?? '')}`;
      case 'image':
        return `image ${o.format} ${r(o.x)},${r(o.y)} ${r(o.w)}x${r(o.h)} ${Buffer.from(o.data, 'base64').length} bytes`;
      case 'ink':
        return `ink ${o.points.map(([x, y]) => `${r(x)},${r(y)}`).join(' ')}`;
      case 'group':
        return `group of ${o.ids.length}`;
      case 'connector':
        return `connector ${JSON.stringify(o.text ?? '')}`;
      default:
        return `unknown ${o.type}`;
    }
  };
  const end = (e) => (typeof e === 'string' ? `[${byId.has(e) ? one(byId.get(e)) : '?'}]` : `point ${r(e.x)},${r(e.y)}`);
  return page.objects
    .map((o) => {
      if (o.type === 'connector') {
        return `connector ${JSON.stringify(o.text ?? '')} ${o.route ?? 'orthogonal'} ${o.start_arrow ?? 'none'}->${o.end_arrow ?? 'arrow'} from ${end(o.from)} to ${end(o.to)}`;
      }
      if (o.type === 'group') {
        const members = o.ids.map((m) => (byId.has(m) ? one(byId.get(m)) : '?')).sort();
        return `group [${members.join('; ')}]`;
      }
      return one(o);
    })
    .sort();
}

const TYPES = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.xml': 'text/xml',
  '.txt': 'text/plain',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

/**
 * A static HTTP server on 127.0.0.1: `pages` maps a path to an HTML text, `dirs`
 * a path prefix to a folder served as it is. Answers {base, close}.
 */
export async function serve({ pages = {}, dirs = {} }) {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (pages[url.pathname] !== undefined) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(pages[url.pathname]);
      return;
    }
    for (const [prefix, dir] of Object.entries(dirs)) {
      if (!url.pathname.startsWith(prefix)) continue;
      let file = path.join(dir, decodeURIComponent(url.pathname.slice(prefix.length)));
      if (file.endsWith(path.sep) || url.pathname === prefix) file = path.join(file, 'index.html');
      if (file.startsWith(dir) && existsSync(file) && statSync(file).isFile()) {
        res.setHeader('content-type', TYPES[path.extname(file)] ?? 'application/octet-stream');
        createReadStream(file).pipe(res);
        return;
      }
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Headless Chromium (Debian's, or `$CHROMIUM`); no browser is downloaded. */
export function launch() {
  return chromium.launch({ executablePath: CHROMIUM });
}

/** The folder of an npm package installed here (`npm ci` in tests/interop). */
export function packageDir(name) {
  return path.join(HERE, 'node_modules', name);
}

/**
 * Excalidraw's own functions (`names`: by default `restore`, `loadFromBlob`,
 * `serializeAsJSON`, `exportToSvg`) from the npm package `@excalidraw/excalidraw`, bundled by
 * esbuild into one script that sets `window.Excalidraw`: the package's modules
 * import React and others by bare name, which a page cannot resolve alone.
 */
export async function excalidrawScript(
  names = ['restore', 'restoreElements', 'loadFromBlob', 'serializeAsJSON', 'exportToSvg'],
) {
  const list = names.join(', ');
  const result = await build({
    stdin: {
      contents:
        `import { ${list} } from '@excalidraw/excalidraw';\n` +
        `window.Excalidraw = { ${list} };\n`,
      resolveDir: HERE,
      loader: 'js',
    },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    define: { 'process.env.NODE_ENV': '"production"' },
    loader: { '.css': 'empty', '.woff2': 'empty' },
  });
  return result.outputFiles[0].text;
}
