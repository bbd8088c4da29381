// The suites are only worth something if the SDK clients really refuse a result
// that breaks its tool's outputSchema. Here the server sits behind ../tamper.mjs,
// which strips or spoils structuredContent, and each TypeScript client, in each era
// it speaks, must throw its schema error from `callTool`.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';

import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';

import { removeDir, stdioParams, tempDir, TIMEOUT } from './lib.mjs';

const INFO = { name: 'inkboard-sdk-tests', version: '0' };
const CLIENTS = [
  ['@modelcontextprotocol/sdk v1, 2025-11-25', () => [new ClientV1(INFO, { capabilities: {} }), StdioV1]],
  ['@modelcontextprotocol/client v2, 2025-11-25', () => [new ClientV2(INFO, { versionNegotiation: { mode: 'legacy' } }), StdioV2]],
  ['@modelcontextprotocol/client v2, 2026-07-28', () => [new ClientV2(INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } }), StdioV2]],
];
const EXPECTED = {
  strip: /create_board has an output schema but did not return structured content/,
  mismatch: /Structured content does not match the tool's output schema/,
};

for (const [label, make] of CLIENTS) {
  for (const [tamper, message] of Object.entries(EXPECTED)) {
    test(`${label} refuses a result whose structuredContent is ${tamper === 'strip' ? 'missing' : 'off its schema'}`, { timeout: TIMEOUT }, async () => {
      const dir = tempDir();
      const [client, Stdio] = make();
      try {
        await client.connect(new Stdio({ ...stdioParams(dir, tamper), stderr: 'inherit' }));
        await client.listTools();
        const args = { path: path.join(dir, 'a.inkboard') };
        await assert.rejects(client.callTool({ name: 'create_board', arguments: args }), message);
      } finally {
        await client.close();
        removeDir(dir);
      }
    });
  }
}
