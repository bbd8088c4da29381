// The MCP Inspector's CLI (npm `@modelcontextprotocol/inspector`, pinned in
// package.json, run from node_modules, never a fresh npx download) lists inkboard's
// tools with `--strict`: it lints every inputSchema and outputSchema for portability
// across clients and exits 6 on an error-severity finding (a bare `true`/`false`
// where a schema object is expected); warnings (`type` arrays, schemas that
// constrain nothing, remote `$ref`s) are printed on stderr but do not change its
// exit code. Both fail here: a warning names a client that would mangle the tool.
// Over stdio and streamable HTTP, in both protocol eras.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { BIN, removeDir, startApp, TAMPER, tempDir, TIMEOUT } from './lib.mjs';

const INSPECTOR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/.bin/inspector');

/** Runs the inspector CLI; answers {code, stdout, stderr}. */
function inspector(args, dir) {
  // Its catalog and client config go to a private HOME, not the user's.
  const home = path.join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home, INKBOARD_RUNTIME_DIR: path.join(dir, 'runtime') };
  delete env.INKBOARD_LOG;
  const proc = spawn(INSPECTOR, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  proc.stdout.on('data', (d) => {
    stdout += d;
  });
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    proc.once('error', reject);
    proc.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function checkListed({ code, stdout, stderr }) {
  assert.equal(code, 0, `the inspector exited ${code}:\n${stderr}`);
  const findings = stderr.split('\n').filter((l) => /^(Error|Warning): tool /.test(l));
  assert.deepEqual(findings, [], `--strict found schema portability problems:\n${stderr}`);
  const listed = JSON.parse(stdout);
  assert.ok(listed.tools.length >= 26, `the inspector listed ${listed.tools.length} tools`);
}

for (const era of ['legacy', 'modern']) {
  test(`inspector --cli over stdio, --protocol-era ${era}: tools/list --strict exits 0`, { timeout: TIMEOUT }, async () => {
    const dir = tempDir();
    try {
      mkdirSync(path.join(dir, 'runtime'), { mode: 0o700 });
      const args = ['--cli', BIN, 'mcp', '--method', 'tools/list', '--strict', '--protocol-era', era];
      checkListed(await inspector(args, dir));
    } finally {
      removeDir(dir);
    }
  });

  test(`inspector --cli over HTTP, --protocol-era ${era}: tools/list --strict exits 0`, { timeout: TIMEOUT }, async () => {
    const dir = tempDir();
    const app = await startApp(dir);
    try {
      const args = ['--cli', app.url, '--transport', 'http', '--header', `Authorization: Bearer ${app.token}`];
      args.push('--method', 'tools/list', '--strict', '--protocol-era', era);
      checkListed(await inspector(args, dir));
    } finally {
      await app.stop();
      removeDir(dir);
    }
  });
}

// The check above can fail: a bare `true` in an outputSchema makes --strict exit 6.
test('inspector --cli tools/list --strict exits 6 on a boolean schema', { timeout: TIMEOUT }, async () => {
  const dir = tempDir();
  try {
    mkdirSync(path.join(dir, 'runtime'), { mode: 0o700 });
    const args = ['--cli', process.execPath, TAMPER, 'boolean-schema', BIN, 'mcp', '--method', 'tools/list', '--strict'];
    const { code, stderr } = await inspector(args, dir);
    assert.equal(code, 6, stderr);
    assert.match(stderr, /^Error: tool "[a-z_]+"$/m);
  } finally {
    removeDir(dir);
  }
});
