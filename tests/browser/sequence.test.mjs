// A sequence diagram edits as it reads (issue 32, item 1). A diagram imported as
// an agent imports one; then, with the real mouse:
// - John's head dragged to the right takes his lifeline, his activation bar and
//   his ends of the messages along, the other ends staying put, every message
//   still level;
// - the first message dragged down past the third takes its place after it, the
//   others closing up, none moving across; Ctrl+Z puts the order back in one
//   step.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, dragBoard, watch } from './lib.mjs';

const TEXT = [
  'sequenceDiagram',
  '  Alice->>+John: one',
  '  John-->>-Alice: two',
  '  Alice->>Bob: three',
  '  Bob->>Bob: four',
  '  Bob->>John: five',
].join('\n');

const point = (end) => (typeof end === 'object' && end !== null && 'x' in end ? end : null);

/** The messages (connectors between two points) by text, top to bottom. */
function messages(objects) {
  return Object.values(objects)
    .filter((o) => o.type === 'connector' && point(o.from) && point(o.to))
    .sort((a, b) => Math.min(a.from.y, a.to.y) - Math.min(b.from.y, b.to.y));
}

describe('a sequence diagram in the editor', { timeout: 120000 }, () => {
  let s;
  let page;
  let mcp;
  const { objects, waitFor } = watch(() => page);
  const headOf = (o, name) => Object.values(o).find((x) => x.type === 'shape' && x.text === name);

  before(async () => {
    s = await session({ objects: [], mcp: true });
    ({ page, mcp } = s);
    await mcp.call('import_mermaid', { text: TEXT, x: 0, y: 0 });
    await waitFor((o) => messages(o).length === 5 && headOf(o, 'Bob'), 'the diagram in the page');
    await page.evaluate(() => window.inkboard.setView({ x: -60, y: -60, zoom: 1 }));
  });

  after(() => s?.close());

  it('a participant dragged across takes its lifeline, bar and message ends', async () => {
    const o = await objects();
    const john = headOf(o, 'John');
    const x0 = john.x + john.w / 2;
    const near = (x) => Math.abs(x - x0) < 25;
    const bar = (all) => Object.values(all).find((b) => b.type === 'shape' && !b.text && b.w < 20);
    const before = messages(o);
    const bar0 = bar(o);
    assert.ok(near(bar0.x + bar0.w / 2), 'the bar stands on John\'s lifeline');

    const at = { x: x0, y: john.y + john.h / 2 };
    await dragBoard(page, at, { x: at.x + 200, y: at.y });
    const moved = await waitFor((all) => headOf(all, 'John').x > john.x + 100 && all, 'John moved');
    const dx = headOf(moved, 'John').x - john.x;
    assert.ok(Math.abs(dx - 200) < 20, `moved by about the drag: ${dx}`);
    const after = await waitFor((all) => {
      const m = messages(all);
      return m.length === 5 && Math.abs(m[0].to.x - before[0].to.x - dx) < 0.01 && all;
    }, 'the messages carried');
    const lifeline = Object.values(after).find((c) => c.type === 'connector' && c.from === john.id);
    assert.ok(Math.abs(lifeline.to.x - (x0 + dx)) < 0.01, `the lifeline's foot went along: ${lifeline.to.x}`);
    const bar1 = bar(after);
    assert.ok(Math.abs(bar1.x - bar0.x - dx) < 0.01, 'the bar went along');
    for (const [m0, m1] of before.map((m, i) => [m, messages(after)[i]])) {
      assert.equal(m1.text, m0.text);
      for (const end of ['from', 'to']) {
        const want = m0[end].x + (near(m0[end].x) ? dx : 0);
        assert.ok(Math.abs(m1[end].x - want) < 0.01, `${m0.text}'s ${end}: ${m0[end].x} -> ${m1[end].x}`);
        assert.equal(m1[end].y, m0[end].y, `${m0.text} stays on its row`);
      }
    }
  });

  it('a message dragged down takes its place; Ctrl+Z puts it back', async () => {
    const o = await objects();
    const list = messages(o);
    const rows = list.map((m) => Math.min(m.from.y, m.to.y));
    const one = list[0];
    // A quarter along the line, clear of its label (above the line's middle) and
    // of the bars at its ends.
    const at = { x: one.from.x + (one.to.x - one.from.x) / 4, y: one.from.y };
    await dragBoard(page, at, { x: at.x + 30, y: rows[2] + 6 });
    const order = (all) => messages(all).map((m) => m.text).join();
    const done = await waitFor((all) => order(all) === 'two,three,one,four,five' && all, 'the new order');
    const after = messages(done);
    assert.equal(Math.min(after[0].from.y, after[0].to.y), rows[0], 'the first row stays');
    assert.equal(Math.min(after[3].from.y, after[3].to.y), rows[3], 'rows past the move stay');
    const moved = after.find((m) => m.text === 'one');
    assert.deepEqual([moved.from.x, moved.to.x], [one.from.x, one.to.x], 'nothing moves across');

    await page.keyboard.press('Control+z');
    await waitFor((all) => order(all) === 'one,two,three,four,five', 'the order back, in one step');
  });
});
