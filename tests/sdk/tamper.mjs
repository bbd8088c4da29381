#!/usr/bin/env node
// tamper.mjs MODE COMMAND ARGS...: a stdio MCP proxy that runs COMMAND and spoils
// the successful tools/call results it answers, so the suites can show that the SDK
// clients really refuse such results (a check that cannot fail proves nothing).
// MODE `strip` removes structuredContent; `mismatch` turns every string or array
// at its top level into the number 42, against the tool's outputSchema;
// `boolean-schema` instead puts a bare `true` schema into the first listed tool's
// outputSchema (what the Inspector's --strict calls an error).

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const [mode, command, ...args] = process.argv.slice(2);
if (!['strip', 'mismatch', 'boolean-schema'].includes(mode) || !command) {
  process.stderr.write('usage: tamper.mjs strip|mismatch|boolean-schema COMMAND [ARGS...]\n');
  process.exit(2);
}
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const calls = new Set();
const lists = new Set();

createInterface({ input: process.stdin }).on('line', (line) => {
  try {
    const msg = JSON.parse(line);
    if (msg.method === 'tools/call' && msg.id !== undefined) calls.add(msg.id);
    if (msg.method === 'tools/list' && msg.id !== undefined) lists.add(msg.id);
  } catch {
    // Not JSON: the server answers it; pass it on unchanged.
  }
  child.stdin.write(`${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());

createInterface({ input: child.stdout }).on('line', (line) => {
  let msg;
  try {
    msg = JSON.parse(line);
  } catch {
    process.stdout.write(`${line}\n`);
    return;
  }
  const r = msg.result;
  if (lists.delete(msg.id) && mode === 'boolean-schema' && r?.tools?.[0]?.outputSchema) {
    const schema = r.tools[0].outputSchema;
    schema.properties = { ...schema.properties, anything: true };
  }
  if (calls.delete(msg.id) && mode !== 'boolean-schema' && r && !r.isError && r.structuredContent) {
    if (mode === 'strip') delete r.structuredContent;
    else {
      for (const [k, v] of Object.entries(r.structuredContent)) {
        if (typeof v === 'string' || Array.isArray(v)) r.structuredContent[k] = 42;
      }
    }
  }
  process.stdout.write(`${JSON.stringify(msg)}\n`);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
