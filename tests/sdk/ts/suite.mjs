// suite.mjs: one SDK client, every transport and era it speaks, every tool. A driver
// says how its SDK connects; this file does the rest: start the server, connect,
// check the era and the server's name, list the tools (the SDK keeps their output
// schemas to validate results against), check that cases.json covers every listed
// tool, and play the steps (lib.mjs).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { playSteps, removeDir, startApp, tempDir, TIMEOUT, uncovered } from './lib.mjs';

/**
 * Registers one test per (transport, era) of `driver`:
 * {label, eras: [version...], connect({transport, era, dir, app}) -> {client, version(), close()}}.
 */
export function suite(driver) {
  for (const transport of ['stdio', 'http']) {
    for (const era of driver.eras) {
      test(`${driver.label} over ${transport}, protocol ${era}`, { timeout: TIMEOUT }, async (t) => {
        const dir = tempDir();
        let app;
        let conn;
        try {
          if (transport === 'http') app = await startApp(dir);
          conn = await driver.connect({ transport, era, dir, app });
          assert.equal(conn.version(), era, 'the negotiated protocol version');
          assert.equal(conn.client.getServerVersion()?.name, 'inkboard', 'serverInfo.name');

          const { tools } = await conn.client.listTools();
          const names = tools.map((tool) => tool.name);
          assert.ok(names.length >= 26, `tools/list has ${names.length} tools`);
          for (const tool of tools) assert.ok(tool.outputSchema, `${tool.name} declares no outputSchema`);
          assert.deepEqual(uncovered(names, transport), [], 'tools without a valid or an invalid call in cases.json');

          await playSteps(t, conn.client, { transport, dir });
        } finally {
          await conn?.close().catch(() => {});
          await app?.stop();
          removeDir(dir);
        }
      });
    }
  }
}
