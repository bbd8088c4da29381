// The official TypeScript SDK's v2 client package: npm `@modelcontextprotocol/client`.
// It speaks both eras: the 2025-11-25 handshake (versionNegotiation mode 'legacy',
// its default) and the stateless 2026-07-28 era (mode pinned to 2026-07-28, which
// asks `server/discover` at connect and sends the per-request `_meta` envelope).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { removeDir, startApp, stdioParams, tempDir, TIMEOUT } from './lib.mjs';
import { suite } from './suite.mjs';

function transportFor({ transport, dir, app }) {
  return transport === 'stdio'
    ? new StdioClientTransport({ ...stdioParams(dir), stderr: 'inherit' })
    : new StreamableHTTPClientTransport(new URL(app.url), {
        requestInit: { headers: { Authorization: `Bearer ${app.token}` } },
      });
}

suite({
  label: '@modelcontextprotocol/client v2',
  eras: ['2025-11-25', '2026-07-28'],
  async connect({ transport, era, dir, app }) {
    const mode = era === '2025-11-25' ? 'legacy' : { pin: era };
    const client = new Client({ name: 'inkboard-sdk-tests', version: '0' }, { versionNegotiation: { mode } });
    await client.connect(transportFor({ transport, dir, app }));
    assert.equal(client.getProtocolEra(), era === '2025-11-25' ? 'legacy' : 'modern');
    return { client, version: () => client.getNegotiatedProtocolVersion(), close: () => client.close() };
  },
});

// What a modern host does by default: probe with `server/discover`, fall back to
// the handshake. Against inkboard the probe succeeds, so the stateless era is used.
for (const transport of ['stdio', 'http']) {
  test(`@modelcontextprotocol/client v2 in auto mode over ${transport} settles on 2026-07-28`, { timeout: TIMEOUT }, async () => {
    const dir = tempDir();
    const app = transport === 'http' ? await startApp(dir) : undefined;
    const client = new Client({ name: 'inkboard-sdk-tests', version: '0' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(transportFor({ transport, dir, app }));
      assert.equal(client.getProtocolEra(), 'modern');
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      assert.ok((await client.listTools()).tools.length >= 26);
    } finally {
      await client.close();
      await app?.stop();
      removeDir(dir);
    }
  });
}
