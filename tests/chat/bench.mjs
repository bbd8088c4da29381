// bench.mjs: from a tool's result to the board drawn in the chat view, for the
// 199-object flow (100 shapes, 99 connectors, one batch). The host hands the chat view the
// tool's input and result; the time runs from the result's arrival in the chat view to
// the first painted frame with the page drawn: the chat view's `view_board` call through
// the host to `inkboard mcp` and back, the scene taken in, the fragments placed.
// Prints the median of RUNS and the chat view resource's size.
//
//   node tests/chat/bench.mjs        (uses target/release/inkboard if built, else debug)

import { existsSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
if (!process.env.INKBOARD_BIN && existsSync(path.join(ROOT, 'target/release/inkboard'))) {
  process.env.INKBOARD_BIN = path.join(ROOT, 'target/release/inkboard');
}
const { call, connect, flowOperations, openHost, removeDir, tempDir } = await import('./lib.mjs');

const RUNS = Number(process.env.RUNS ?? 9);
const dir = tempDir();
const client = await connect({ dir });
const host = await openHost(client);
try {
  const times = [];
  const frames = [];
  for (let i = 0; i < RUNS; i++) {
    const file = path.join(dir, `flow${i}.inkboard`);
    await call(client, 'create_board', { path: file });
    const input = { path: file, operations: flowOperations(100) };
    const result = await call(client, 'batch', input);
    const drawn = host.inChat(() => window.inkboard.nextDrawn());
    await host.show(input, result);
    const t = await drawn;
    if (t.objects !== 199) throw new Error(`drew ${t.objects} objects`);
    times.push(t.drawn);
    frames.push(t.frame);
    if (process.env.VERBOSE) console.log(JSON.stringify(t));
  }
  times.sort((a, b) => a - b);
  frames.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const frame = frames[Math.floor(frames.length / 2)];
  const bytes = Buffer.byteLength(host.resource.text);
  console.log(`binary: ${process.env.INKBOARD_BIN ?? 'target/debug/inkboard'}`);
  console.log(`tool result -> 199-object flow drawn in the chat view: median ${median.toFixed(1)} ms over ${RUNS} (min ${times[0].toFixed(1)}, max ${times[times.length - 1].toFixed(1)})`);
  console.log(`  of which to the frame that shows it (objects in the page, before its paint): median ${frame.toFixed(1)} ms`);
  console.log(`view resource ui://inkboard/board: ${bytes} bytes (${(bytes / 1024).toFixed(1)} KiB)`);
} finally {
  await host.close();
  await client.close();
  removeDir(dir);
}
