// Swimlanes from the page (issue 32, item 5; web/select/lanes.js): a frame's
// right-click menu offers Make lanes, which splits it into three lanes titled
// "Lane 1".. in one `batch` (so one undo step) and lays them out with the agents'
// own `layout` `"algorithm": "lanes"`; the shapes the frame held go to the lane
// they lay in. A shape dragged into a lane with the mouse stays in that lane when
// Lay out lanes runs again, and Add lane puts one more after the last.

import { before, after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { session, until, dragBoard, clientOf, watch } from './lib.mjs';

/** Whether box `o` lies wholly inside box `f`. */
const holds = (f, o) => o.x >= f.x && o.y >= f.y && o.x + o.w <= f.x + f.w && o.y + o.h <= f.y + f.h;
const centre = (o) => ({ x: o.x + o.w / 2, y: o.y + o.h / 2 });

describe('swimlanes from the page', { timeout: 180000 }, () => {
  let s;
  let page;

  const { objects, waitFor } = watch(() => page);
  const lanes = async () => Object.entries(await objects())
    .filter(([, o]) => o.geom === 'frame' && /^Lane \d$/.test(o.text))
    .map(([id, o]) => ({ id, ...o }))
    .sort((a, b) => a.y - b.y);
  const menu = async (p, item) => {
    const c = await clientOf(page, p.x, p.y);
    await page.mouse.click(c.x, c.y, { button: 'right' });
    await page.getByTestId('context-menu').waitFor();
    await page.getByTestId(item).click();
  };

  before(async () => {
    s = await session({
      objects: [
        { id: 's1', type: 'shape', geom: 'frame', x: 0, y: 0, w: 900, h: 480, text: 'Pool' },
        { id: 's2', type: 'shape', x: 100, y: 80, w: 120, h: 60, text: 'Ask' },
        { id: 's3', type: 'shape', x: 500, y: 380, w: 120, h: 60, text: 'Ship' },
        { id: 's4', type: 'shape', x: 300, y: 700, w: 120, h: 60, text: 'Pay' },
        { id: 'c5', type: 'connector', from: 's2', to: 's3' },
        { id: 'c6', type: 'connector', from: 's3', to: 's4' },
      ],
    });
    ({ page } = s);
  });

  after(() => s?.close());

  it('Make lanes splits a frame into three lanes, the shapes in the lanes they lay in, one undo step', async () => {
    await menu({ x: 40, y: 12 }, 'menu-lanes-make');
    await until(async () => (await lanes()).length === 3, { what: 'three lanes' });
    const o = await objects();
    const ls = await lanes();
    assert.deepEqual(ls.map((l) => l.text), ['Lane 1', 'Lane 2', 'Lane 3'], 'rows, top to bottom, in order');
    for (const l of ls) assert.ok(holds(o.s1, l), `${l.text} is in the pool`);
    assert.ok(holds(ls[0], o.s2), 'Ask, at the top, is in Lane 1');
    assert.ok(holds(ls[2], o.s3), 'Ship, at the bottom, is in Lane 3');
    assert.equal(ls[0].w, ls[2].w, 'lanes of one length');
    assert.ok(o.s3.x > o.s2.x + o.s2.w, 'Ship comes after Ask along the flow');

    await page.keyboard.press('Control+z');
    await until(async () => (await lanes()).length === 0, { what: 'the lanes undone at once' });
    await menu({ x: 40, y: 12 }, 'menu-lanes-make');
    await until(async () => (await lanes()).length === 3, { what: 'three lanes again' });
  });

  it('a shape dragged into a lane stays in it when the lanes are laid out again', async () => {
    const ls = await lanes();
    const o = await objects();
    const lane2 = ls[1];
    // Into Lane 2, right of what is there, with the mouse.
    const to = { x: lane2.x + lane2.w - 150, y: lane2.y + lane2.h / 2 + 10 };
    await dragBoard(page, centre(o.s4), to);
    await waitFor((n) => holds(lane2, n.s4), 'Pay dropped in Lane 2');
    const dropped = (await objects()).s4;

    await menu({ x: o.s1.x + 40, y: o.s1.y + 12 }, 'menu-lanes-layout');
    await until(async () => {
      const n = await objects();
      const now = (await lanes())[1];
      return (n.s4.x !== dropped.x || n.s4.y !== dropped.y) && holds(now, n.s4);
    }, { what: 'Pay laid out in Lane 2' });
    const n = await objects();
    const after = await lanes();
    assert.ok(holds(after[0], n.s2) && holds(after[2], n.s3), 'the others kept their lanes');
    assert.ok(n.s4.x > n.s3.x + n.s3.w, 'Pay comes after Ship along the flow');
  });

  it('Add lane puts a fourth lane after the last', async () => {
    const o = await objects();
    await menu({ x: o.s1.x + 40, y: o.s1.y + 12 }, 'menu-lanes-add');
    await until(async () => (await lanes()).length === 4, { what: 'four lanes' });
    const ls = await lanes();
    const n = await objects();
    assert.equal(ls[3].text, 'Lane 4');
    for (const l of ls) assert.ok(holds(n.s1, l), `${l.text} is in the pool`);
    assert.equal(ls[2].y + ls[2].h, ls[3].y, 'the new lane touches the last');
  });
});
