// The official TypeScript SDK as most clients use it today: npm
// `@modelcontextprotocol/sdk` (v1). It speaks only the handshake era: its
// LATEST_PROTOCOL_VERSION is 2025-11-25 and it has no `server/discover`.

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

import { stdioParams } from './lib.mjs';
import { suite } from './suite.mjs';

test('@modelcontextprotocol/sdk v1 speaks the handshake era only', () => {
  // If a new v1 learns the stateless era, add it to `eras` below.
  assert.equal(LATEST_PROTOCOL_VERSION, '2025-11-25');
});

suite({
  label: '@modelcontextprotocol/sdk v1',
  eras: ['2025-11-25'],
  async connect({ transport, dir, app }) {
    const client = new Client({ name: 'inkboard-sdk-tests', version: '0' }, { capabilities: {} });
    const t =
      transport === 'stdio'
        ? new StdioClientTransport({ ...stdioParams(dir), stderr: 'inherit' })
        : new StreamableHTTPClientTransport(new URL(app.url), {
            requestInit: { headers: { Authorization: `Bearer ${app.token}` } },
          });
    // The client tells its transport the version the server answered.
    let negotiated;
    const set = t.setProtocolVersion?.bind(t);
    t.setProtocolVersion = (v) => {
      negotiated = v;
      set?.(v);
    };
    await client.connect(t);
    return { client, version: () => negotiated, close: () => client.close() };
  },
});
