// lib.mjs: what the TypeScript SDK suites share. Starts the real binary (`inkboard
// mcp` on stdio, or `inkboard open` for streamable HTTP at /mcp), connects one of the
// official TypeScript SDK clients to it in a given protocol era, and plays the calls
// of ../cases.json through the SDK's own `Client.callTool`, which checks each
// result's structuredContent against the tool's outputSchema.

import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { PNG } from 'pngjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const ROOT = path.resolve(HERE, '../../..');
export const BIN = path.resolve(ROOT, process.env.INKBOARD_BIN ?? 'target/debug/inkboard');
/** The longest a test may take: a hung server fails its test instead of the run. */
export const TIMEOUT = 120_000;
export const TAMPER = path.join(HERE, '../tamper.mjs');
/** The diagrams `import` reads: `{corpus}` in cases.json. */
export const CORPUS = path.join(ROOT, 'crates/inkboard-interop/tests/corpus');
export const CASES = JSON.parse(readFileSync(path.join(HERE, '../cases.json'), 'utf8')).steps;

/** A fresh temporary folder; the caller removes it. */
export function tempDir() {
  return mkdtempSync(path.join(tmpdir(), 'inkboard-sdk-'));
}

/** Environment of every inkboard process: a private runtime folder, quiet logs. */
function serverEnv(dir) {
  const runtime = path.join(dir, 'runtime');
  mkdirSync(runtime, { recursive: true, mode: 0o700 });
  const env = { ...process.env, INKBOARD_RUNTIME_DIR: runtime };
  delete env.INKBOARD_LOG;
  return env;
}

/**
 * `inkboard mcp` as the SDK's stdio transport spawns it; with `tamper` ('strip' or
 * 'mismatch'), behind ../tamper.mjs, which spoils its tools/call results.
 */
export function stdioParams(dir, tamper) {
  const env = serverEnv(dir);
  if (!tamper) return { command: BIN, args: ['mcp'], env };
  return { command: process.execPath, args: [TAMPER, tamper, BIN, 'mcp'], env };
}

/**
 * `inkboard open --no-browser --port 0 FILE` on a new board in `dir`. Answers
 * {url: the /mcp endpoint, token, stop}; the token comes from the discovery file.
 */
export async function startApp(dir) {
  const env = serverEnv(dir);
  const file = path.join(dir, 'open.inkboard');
  writeFileSync(
    file,
    JSON.stringify({ format: 'inkboard', version: 1, title: 'Open', revision: 1, next_id: 1, pages: [{ id: 'p1', name: 'Page 1', objects: [] }] }),
  );
  const proc = spawn(BIN, ['open', '--no-browser', '--port', '0', file], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  await new Promise((resolve, reject) => {
    createInterface({ input: proc.stdout }).once('line', resolve);
    proc.once('error', reject);
    exited.then((code) => reject(new Error(`inkboard open exited (${code}) before printing its address: ${stderr}`)));
  });
  const app = JSON.parse(readFileSync(path.join(env.INKBOARD_RUNTIME_DIR, 'app.json'), 'utf8'));
  return {
    url: `http://127.0.0.1:${app.port}/mcp`,
    token: app.token,
    stderr: () => stderr,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGTERM');
        const timer = setTimeout(() => proc.kill('SIGKILL'), 3000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Replaces every `{NAME}` in the strings of `value` by `vars[NAME]`. */
export function substitute(value, vars) {
  if (typeof value === 'string') {
    return value.replace(/\{([A-Za-z_]+)\}/g, (whole, name) => {
      if (!(name in vars)) throw new Error(`cases.json uses {${name}} before a step binds it`);
      return vars[name];
    });
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, vars));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, vars)]));
  }
  return value;
}

/** The value at a dotted key (`ids.0`) of `object`. */
function pick(object, key) {
  return key.split('.').reduce((v, k) => (v == null ? undefined : v[k]), object);
}

/** The steps of cases.json that run on `transport` ('stdio' or 'http'). */
export function stepsFor(transport) {
  return CASES.filter((s) => !s.only || s.only === transport);
}

/** The tools that have no `ok` step or no `error` step on `transport`. */
export function uncovered(toolNames, transport) {
  const steps = stepsFor(transport);
  const missing = [];
  for (const name of toolNames) {
    for (const expect of ['ok', 'error']) {
      if (!steps.some((s) => s.tool === name && s.expect === expect)) missing.push(`${name} (${expect})`);
    }
  }
  return missing;
}

/** The text of a result's text blocks, joined. */
function textOf(result) {
  return (result.content ?? [])
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

/** Throws unless `result` carries a PNG image block that decodes. */
function assertPng(result) {
  const images = (result.content ?? []).filter((c) => c.type === 'image');
  if (images.length !== 1) throw new Error(`expected one image block, got ${JSON.stringify(result.content?.map((c) => c.type))}`);
  const [image] = images;
  if (image.mimeType !== 'image/png') throw new Error(`image mimeType is ${image.mimeType}`);
  const png = PNG.sync.read(Buffer.from(image.data, 'base64'));
  if (!(png.width > 0 && png.height > 0)) throw new Error(`the PNG is ${png.width}x${png.height}`);
}

/**
 * Plays the steps of cases.json for `transport` through `client.callTool`, one
 * subtest each, so every failing call is reported with the SDK's own error. The
 * client must have listed the tools first (the SDK validates against that list).
 */
export async function playSteps(t, client, { transport, dir }) {
  const vars = { dir, corpus: CORPUS };
  for (const [i, step] of stepsFor(transport).entries()) {
    const label = `#${i} ${step.tool} ${step.expect}${step.only ? ` (${step.only})` : ''}`;
    await t.test(label, async () => {
      const args = substitute(step.args ?? {}, vars);
      let result;
      try {
        result = await client.callTool({ name: step.tool, arguments: args });
      } catch (e) {
        if (step.expect === 'protocol_error') {
          if (e.code !== -32602) throw new Error(`expected JSON-RPC error -32602, got ${e.code}: ${e.message}`);
          if (step.says && !e.message.includes(step.says)) throw new Error(`the error does not say "${step.says}": ${e.message}`);
          return;
        }
        throw new Error(`the SDK refused the call ${step.tool}(${JSON.stringify(args).slice(0, 200)}): ${e.constructor?.name} ${e.code ?? ''}: ${e.message}`);
      }
      const text = textOf(result);
      if (step.expect === 'protocol_error') throw new Error(`expected a JSON-RPC error, got a result: ${JSON.stringify(result).slice(0, 300)}`);
      if (step.expect === 'error') {
        if (result.isError !== true) throw new Error(`expected isError: true, got ${JSON.stringify(result).slice(0, 300)}`);
        if (!text.trim()) throw new Error('the tool error carries no text');
        if (step.says && !text.includes(step.says)) throw new Error(`the error does not say "${step.says}": ${text}`);
        return;
      }
      if (result.isError) throw new Error(`expected success, got the tool error: ${text}`);
      if (step.image) assertPng(result);
      for (const [name, key] of Object.entries(step.bind ?? {})) {
        const value = pick(result.structuredContent, key);
        if (typeof value !== 'string') throw new Error(`structuredContent has no string at ${key}: ${JSON.stringify(result.structuredContent)}`);
        vars[name] = value;
      }
    });
  }
}

/** Removes a folder made by `tempDir`. */
export function removeDir(dir) {
  rmSync(dir, { recursive: true, force: true });
}
