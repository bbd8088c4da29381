// frame_rule.test.mjs: the editor's frameHolds (crates/inkboard-app/web/geom.js) checked
// against core's rule of which objects a frame holds, case by case from
// crates/inkboard-core/tests/frame_rule.json; the Rust test of the same name checks
// Board::frame_holds against that file. Core's rule is the one that holds: a case
// failing here is a fault of the copy. Runs in Node alone (no browser needed):
// node --test tests/browser/frame_rule.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { frameHolds } from '../../crates/inkboard-app/web/geom.js';

const CASES = new URL('../../crates/inkboard-core/tests/frame_rule.json', import.meta.url);
const cases = JSON.parse(readFileSync(CASES, 'utf8'));

test('frameHolds agrees with core on every shared case', () => {
  assert.ok(cases.length >= 20, 'the cases are all there');
  const wrong = [];
  for (const c of cases) {
    // A frame is a shape of geom frame, as the wire sends it.
    const frame = { type: 'shape', geom: 'frame', ...c.frame };
    const holds = frameHolds(frame, c.object);
    if (holds !== c.holds) wrong.push(`${c.name}: frameHolds says ${holds}, core ${c.holds}`);
  }
  assert.deepEqual(wrong, []);
});
